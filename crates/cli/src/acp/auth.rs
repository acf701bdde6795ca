//! How an editor gets `tandem acp` a model key: the auth methods `initialize` lists — the key Tandem already has
//! (`ANTHROPIC_API_KEY`, or the one saved in the keyring or Tandem's credentials file), and a terminal login the
//! client runs as `tandem acp --login` — `authenticate`, and the `auth_required` error a session gets while there is
//! no key.

use std::io::{BufRead, IsTerminal, Write};

use agent_client_protocol::Error;
use agent_client_protocol::v1::schema::{AuthMethod, AuthMethodAgent, AuthMethodTerminal};
use tandem_engine::model::{ModelConfig, Provider};
use tandem_engine::settings::CredentialStore;

/// The key Tandem already has: checked again when the client authenticates with it.
pub const SAVED_KEY: &str = "saved-key";
/// A login in a terminal: `tandem acp --login` asks for the key and saves it.
pub const LOGIN: &str = "login";

/// The methods `initialize` lists.
pub fn methods() -> Vec<AuthMethod> {
    vec![
        AuthMethod::Agent(AuthMethodAgent::new(SAVED_KEY, "Use the saved API key").description(
            "The key in ANTHROPIC_API_KEY (OPENAI_API_KEY for an OpenAI-compatible provider), or the one saved with \
             Tandem (its Settings, or `tandem acp --login`).",
        )),
        AuthMethod::Terminal(
            AuthMethodTerminal::new(LOGIN, "Enter an API key")
                .description("Asks for the key in a terminal and saves it in the desktop keyring (or Tandem's credentials file).")
                .args(vec!["--login".to_string()]),
        ),
    ]
}

/// The `auth_required` error while `model` has no key it needs; `None` when it can make requests.
pub fn missing_key(model: &ModelConfig) -> Option<Error> {
    if model.provider == Provider::OpenAiCompatible || model.api_key.is_some() {
        return None;
    }
    Some(Error::auth_required().data(serde_json::Value::String(
        "Tandem has no API key: authenticate with `login` (it runs `tandem acp --login`), save one in Tandem's \
         Settings, or start the agent with ANTHROPIC_API_KEY in its environment."
            .to_string(),
    )))
}

/// `tandem acp --login`: asks for the provider's key on the terminal (not echoed when it is one) and saves it;
/// returns the exit code.
pub fn login(model: &ModelConfig) -> i32 {
    let Some(store) = CredentialStore::standard() else {
        eprintln!("tandem: there is no place to keep the key (no configuration folder)");
        return 1;
    };
    let label = match model.provider {
        Provider::Anthropic => "Anthropic API key",
        Provider::OpenAiCompatible => "API key for the OpenAI-compatible server",
    };
    let key = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("{label}: "))
    } else {
        eprint!("{label}: ");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    };
    let key = match key {
        Ok(key) => key.trim().to_string(),
        Err(e) => {
            eprintln!("tandem: the key could not be read: {e}");
            return 1;
        }
    };
    if key.is_empty() {
        eprintln!("tandem: no key given; nothing was saved");
        return 1;
    }
    match store.set(model.provider, &key) {
        Ok(source) => {
            let place = match source {
                tandem_protocol::KeySource::Keyring => "in the desktop keyring",
                _ => "in Tandem's credentials file",
            };
            eprintln!("The key is saved {place}. The editor can now start sessions.");
            0
        }
        Err(e) => {
            eprintln!("tandem: the key could not be saved: {e}");
            1
        }
    }
}
