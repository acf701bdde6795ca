//! Sessions wired to the fake model server, for the suites that run whole turns.

use std::path::Path;
use std::sync::Arc;

use tandem_engine::approver::Approver;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelConfig, Provider, RetryPolicy};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover};
use tandem_protocol::{ApprovalChoice, PermissionMode};

/// A model config for the fake server at `url`, with quick retries.
pub fn fake_config(url: &str) -> ModelConfig {
    ModelConfig {
        base_url: url.to_string(),
        api_key: Some("sk-test-key".into()),
        model: "fake-model".into(),
        retry: RetryPolicy {
            max_retries: 2,
            ..RetryPolicy::default()
        },
        ..ModelConfig::default()
    }
}

/// A model config for the fake server's OpenAI-compatible mode at `url`, with quick retries.
pub fn openai_config(url: &str) -> ModelConfig {
    ModelConfig {
        provider: Provider::OpenAiCompatible,
        ..fake_config(url)
    }
}

/// A session on `root` talking to `server`.
pub fn session(
    root: &Path,
    server: &FakeServer,
    approver: Arc<dyn Approver>,
    events: RecordingSink,
) -> Session {
    let config = fake_config(&server.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    session_with(root, model, config, approver, events)
}

/// A session on `root` with `model`, configured by `config`.
pub fn session_with(
    root: &Path,
    model: Arc<dyn Model>,
    config: ModelConfig,
    approver: Arc<dyn Approver>,
    events: RecordingSink,
) -> Session {
    Session::builder(root)
        .expect("folder")
        .options(SessionOptions {
            id: None,
            cwd: root.to_path_buf(),
            model: config,
            mode: PermissionMode::Default,
            approver,
            events: Arc::new(events),
            store: None,
            watch_settings: true,
        })
        .model_client(model)
        .build()
        .expect("session")
}

/// A session on `root` answered by `model`, with `features`, refusing whatever asks, its events going to `events`.
pub fn session_featuring(
    root: &Path,
    model: Arc<dyn Model>,
    events: &RecordingSink,
    features: tandem_engine::tools::features::Features,
) -> Session {
    Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config("http://127.0.0.1:9"))
        .mode(PermissionMode::Default)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .events(Arc::new(events.clone()))
        .features(features)
        .build()
        .expect("session")
}

/// A session on `root` talking to `fake`, with `features`, whose questions `approver` answers, its events going to
/// `events`.
pub fn session_answered_by(
    root: &Path,
    fake: &FakeServer,
    approver: Arc<dyn Approver>,
    events: &RecordingSink,
    features: tandem_engine::tools::features::Features,
) -> Session {
    Session::builder(root)
        .expect("folder")
        .model_client(fake_model(fake))
        .model(fake_config(&fake.url()))
        .approver(approver)
        .events(Arc::new(events.clone()))
        .features(features)
        .build()
        .expect("session")
}

/// The fake server's model.
pub fn fake_model(server: &FakeServer) -> Arc<dyn Model> {
    Arc::new(AnthropicModel::new(fake_config(&server.url())).expect("client"))
}

/// Starts the fake server with `script`.
pub async fn server(script: Script) -> FakeServer {
    FakeServer::start(script).await.expect("fake server")
}

/// A session on `root` recorded in `store`, talking to `fake` and refusing whatever asks; with `resume`, the stored
/// session of that id reopened instead of a new one.
pub fn stored_session(
    root: std::path::PathBuf,
    store: Arc<SessionStore>,
    fake: &FakeServer,
    resume: Option<&str>,
) -> Session {
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let options = SessionOptions {
        id: None,
        cwd: root.clone(),
        model: config,
        mode: PermissionMode::Default,
        approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        events: Arc::new(RecordingSink::default()),
        store: Some(store.clone()),
        watch_settings: false,
    };
    match resume {
        Some(id) => Session::resuming(store, id)
            .and_then(|builder| builder.options(options).model_client(model).build())
            .expect("resume"),
        None => Session::builder(&root)
            .expect("folder")
            .options(options)
            .model_client(model)
            .build()
            .expect("session"),
    }
}

/// The names of the tools a model request offered (its `tools`).
pub fn offered(body: &serde_json::Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
