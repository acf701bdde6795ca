//! The ACP connection on stdin/stdout: `initialize`, `authenticate`, `session/new`, `session/load`, `session/resume`,
//! `session/list`, `session/prompt`, `session/cancel`, `session/set_mode` and `session/set_config_option`, each a call on the engine's session. A prompt runs in
//! its own task, so that the connection keeps reading (a cancel, the answer to a permission request) while it runs.

use std::path::PathBuf;
use std::sync::Arc;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, AuthenticateRequest, AuthenticateResponse, CancelNotification,
    Implementation, InitializeRequest, InitializeResponse, ListSessionsRequest,
    ListSessionsResponse, LoadSessionRequest, LoadSessionResponse, McpCapabilities,
    NewSessionRequest, NewSessionResponse, PromptCapabilities, PromptRequest, PromptResponse,
    ResumeSessionRequest, ResumeSessionResponse, SessionCapabilities, SessionConfigOptionValue,
    SessionInfo, SessionListCapabilities, SessionResumeCapabilities, SetSessionConfigOptionRequest,
    SetSessionConfigOptionResponse, SetSessionModeRequest, SetSessionModeResponse,
};
use agent_client_protocol::{Agent, Error, Stdio, on_receive_notification, on_receive_request};
use tandem_engine::model::ModelConfig;
use tandem_engine::store::SessionStore;
use tandem_protocol::PermissionMode;

use super::auth;
use super::config;
use super::modes;
use super::prompt::prompt;
use super::sessions::Sessions;

/// `tandem acp`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct AcpArgs {
    /// The model to use (overrides settings and ANTHROPIC_MODEL).
    #[arg(long)]
    pub model: Option<String>,
    /// Ask for an API key on the terminal, save it (desktop keyring or Tandem's credentials file) and exit: the
    /// terminal login an editor offers as the `login` auth method.
    #[arg(long)]
    pub login: bool,
}

/// The model configuration from the settings and the environment, with `--model`.
fn model_config(args: &AcpArgs) -> ModelConfig {
    let (mut model, problem) = tandem_engine::settings::load_model_config();
    if let Some(problem) = problem {
        eprintln!("tandem: ignoring the settings file: {problem}");
    }
    if let Some(name) = &args.model {
        model.model = name.clone();
    }
    model
}

/// An error the client sees for a request that could not be served.
fn failed(message: impl Into<String>) -> Error {
    let message = message.into();
    Error::internal_error().data(serde_json::Value::String(message))
}

fn invalid(message: impl Into<String>) -> Error {
    let message = message.into();
    Error::invalid_params().data(serde_json::Value::String(message))
}

fn initialize(request: &InitializeRequest) -> InitializeResponse {
    let version = request.protocol_version.min(ProtocolVersion::V1);
    InitializeResponse::new(version)
        .agent_capabilities(
            AgentCapabilities::new()
                .load_session(true)
                .prompt_capabilities(PromptCapabilities::new().embedded_context(true).image(true))
                .mcp_capabilities(McpCapabilities::new().http(true).sse(true))
                .session_capabilities(
                    SessionCapabilities::new()
                        .list(SessionListCapabilities::new())
                        .resume(SessionResumeCapabilities::new()),
                ),
        )
        .auth_methods(auth::methods())
        .agent_info(Implementation::new("tandem", env!("CARGO_PKG_VERSION")).title("Tandem"))
}

/// Serves the connection until the client closes it; returns the exit code.
pub async fn run(args: &AcpArgs) -> i32 {
    let model = model_config(args);
    if args.login {
        return auth::login(&model);
    }
    let store = match SessionStore::open_default() {
        Ok(store) => Arc::new(store),
        Err(e) => {
            eprintln!("tandem: the session database cannot be opened: {e}");
            return 1;
        }
    };
    let sessions = Arc::new(Sessions::new(store, model));
    let served = serve(sessions.clone(), args.clone()).await;
    sessions.close_all().await;
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tandem: the ACP connection failed: {e}");
            1
        }
    }
}

async fn serve(sessions: Arc<Sessions>, args: AcpArgs) -> Result<(), Error> {
    let for_auth = sessions.clone();
    let (for_new, for_load, for_resume, for_list, for_prompt, for_cancel, for_mode, for_config) = (
        sessions.clone(),
        sessions.clone(),
        sessions.clone(),
        sessions.clone(),
        sessions.clone(),
        sessions.clone(),
        sessions.clone(),
        sessions,
    );
    Agent
        .v1()
        .name("tandem")
        .on_receive_request(
            async move |request: InitializeRequest, responder, _cx| {
                responder.respond(initialize(&request))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: AuthenticateRequest, responder, _cx| {
                // A key may have been saved since the start (the terminal login): read the settings again.
                let model = model_config(&args);
                let missing = auth::missing_key(&model);
                for_auth.set_model(model);
                match (&*request.method_id.0, missing) {
                    (auth::SAVED_KEY | auth::LOGIN, None) => {
                        responder.respond(AuthenticateResponse::new())
                    }
                    (auth::SAVED_KEY | auth::LOGIN, Some(error)) => {
                        responder.respond_with_error(error)
                    }
                    (other, _) => responder.respond_with_error(invalid(format!(
                        "no auth method {other} (Tandem offers `{}` and `{}`)",
                        auth::SAVED_KEY,
                        auth::LOGIN
                    ))),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: NewSessionRequest, responder, cx| {
                if let Some(error) = auth::missing_key(&for_new.model()) {
                    return responder.respond_with_error(error);
                }
                match for_new.open(&cx, &request.cwd, None, false, &request.mcp_servers) {
                    Ok(live) => responder.respond(
                        NewSessionResponse::new(live.session.id().to_string())
                            .modes(modes::state(&live.session))
                            .config_options(config::options(&live.session)),
                    ),
                    Err(message) => responder.respond_with_error(failed(message)),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: LoadSessionRequest, responder, cx| {
                if let Some(error) = auth::missing_key(&for_load.model()) {
                    return responder.respond_with_error(error);
                }
                let id = request.session_id.0.to_string();
                match for_load.open(&cx, &request.cwd, Some(&id), true, &request.mcp_servers) {
                    Ok(live) => responder.respond(
                        LoadSessionResponse::new()
                            .modes(modes::state(&live.session))
                            .config_options(config::options(&live.session)),
                    ),
                    Err(message) => responder.respond_with_error(invalid(message)),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: ResumeSessionRequest, responder, cx| {
                if let Some(error) = auth::missing_key(&for_resume.model()) {
                    return responder.respond_with_error(error);
                }
                let id = request.session_id.0.to_string();
                match for_resume.open(&cx, &request.cwd, Some(&id), false, &request.mcp_servers) {
                    Ok(live) => responder.respond(
                        ResumeSessionResponse::new()
                            .modes(modes::state(&live.session))
                            .config_options(config::options(&live.session)),
                    ),
                    Err(message) => responder.respond_with_error(invalid(message)),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: ListSessionsRequest, responder, _cx| {
                let folder = request.cwd.clone().unwrap_or_else(|| {
                    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
                });
                let folder = tandem_engine::session::open_folder(&folder).unwrap_or(folder);
                match for_list.store().list_sessions(&folder) {
                    Ok(list) => responder.respond(ListSessionsResponse::new(
                        list.into_iter()
                            .map(|s| {
                                let summary = s.to_protocol();
                                SessionInfo::new(summary.session_id, folder.clone())
                                    .title(summary.title)
                            })
                            .collect(),
                    )),
                    Err(e) => responder.respond_with_error(failed(e.to_string())),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: PromptRequest, responder, _cx| {
                let live = match for_prompt.get(&request.session_id.0) {
                    Ok(live) => live,
                    Err(message) => return responder.respond_with_error(invalid(message)),
                };
                let asked = prompt(&request.prompt);
                tokio::spawn(async move {
                    let answer = match live.prompt(&asked.text, asked.images).await {
                        Ok(stop) => Ok(PromptResponse::new(stop)),
                        Err(message) => Err(failed(message)),
                    };
                    let _ = responder.respond_with_result(answer);
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_notification(
            async move |notification: CancelNotification, _cx| {
                if let Ok(live) = for_cancel.get(&notification.session_id.0) {
                    live.cancel();
                }
                Ok(())
            },
            on_receive_notification!(),
        )
        .on_receive_request(
            async move |request: SetSessionModeRequest, responder, _cx| {
                let live = match for_mode.get(&request.session_id.0) {
                    Ok(live) => live,
                    Err(message) => return responder.respond_with_error(invalid(message)),
                };
                let wanted = PermissionMode::parse(&request.mode_id.0)
                    .filter(|mode| modes::available(&live.session).contains(mode));
                match wanted {
                    Some(mode) => {
                        live.session.set_mode(mode);
                        responder.respond(SetSessionModeResponse::new())
                    }
                    None => responder.respond_with_error(invalid(format!(
                        "mode {} is not available in this session",
                        request.mode_id.0
                    ))),
                }
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: SetSessionConfigOptionRequest, responder, _cx| {
                let live = match for_config.get(&request.session_id.0) {
                    Ok(live) => live,
                    Err(message) => return responder.respond_with_error(invalid(message)),
                };
                let model = match (&*request.config_id.0, &request.value) {
                    (config::MODEL, SessionConfigOptionValue::ValueId { value }) => {
                        value.0.to_string()
                    }
                    (id, _) => {
                        return responder.respond_with_error(invalid(format!(
                            "no configuration option {id} takes that value (Tandem offers `model`)"
                        )));
                    }
                };
                match live.session.switch_model(&model) {
                    Ok(_) => responder.respond(SetSessionConfigOptionResponse::new(
                        config::options(&live.session),
                    )),
                    Err(e) => responder.respond_with_error(invalid(e.to_string())),
                }
            },
            on_receive_request!(),
        )
        .connect_to(Stdio::new())
        .await
}
