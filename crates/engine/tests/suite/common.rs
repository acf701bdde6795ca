//! Sessions wired to the fake model server, for the suites that run whole turns.

use std::path::Path;
use std::sync::Arc;

use tandem_engine::approver::Approver;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelConfig, Provider, RetryPolicy};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::testing::{FakeServer, Script};
use tandem_protocol::PermissionMode;

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
    Session::with_model(
        root.to_path_buf(),
        model,
        SessionOptions {
            id: None,
            cwd: root.to_path_buf(),
            model: config,
            mode: PermissionMode::Default,
            approver,
            events: Arc::new(events),
            store: None,
            watch_settings: true,
        },
    )
}

/// Starts the fake server with `script`.
pub async fn server(script: Script) -> FakeServer {
    FakeServer::start(script).await.expect("fake server")
}
