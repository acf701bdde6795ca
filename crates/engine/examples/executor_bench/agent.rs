//! The Tandem side: a headless agent like `tandem -p PROMPT --output-format stream-json` (a session with its store,
//! JSON lines on stdout), run as a child process against the fake server, that also notes inside the engine when
//! each tool_use block completed in the model client, when each call started and ended, and when each message ended.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use futures::StreamExt;
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::{EventSink, JsonLinesSink};
use tandem_engine::model::{Model, ModelConfig, ModelEvent, ModelRequest, ModelStream};
use tandem_engine::query::{QueryConfig, run_turn};
use tandem_engine::registry::{ToolPool, builtin_tools, erase};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{CallLog, FakeTool};
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent, ToolCallStatus, Usage};
use tokio_util::sync::CancellationToken;

/// (wall-clock seconds, what, tool_use id or "").
pub type EngineMark = (f64, String, String);

#[derive(Clone, Default)]
struct Marks(Arc<Mutex<Vec<EngineMark>>>);

impl Marks {
    fn add(&self, what: &str, id: &str) {
        let at = seconds(SystemTime::now());
        if let Ok(mut marks) = self.0.lock() {
            marks.push((at, what.to_string(), id.to_string()));
        }
    }
}

/// Seconds since the Unix epoch.
pub fn seconds(at: SystemTime) -> f64 {
    at.duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// The model client, noting when it hands the loop a completed tool_use and a completed message.
struct TimedModel {
    inner: Arc<dyn Model>,
    marks: Marks,
}

impl Model for TimedModel {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let marks = self.marks.clone();
        self.inner
            .stream(request)
            .inspect(move |event| match event {
                Ok(ModelEvent::ToolUseComplete { id, .. }) => marks.add("block_stop", id),
                Ok(ModelEvent::MessageComplete { .. }) => marks.add("message_complete", ""),
                _ => {}
            })
            .boxed()
    }
}

/// Prints every event as a JSON line, as `--output-format stream-json` does, and notes call starts and ends.
struct Sink {
    marks: Marks,
    lines: JsonLinesSink,
}

impl EventSink for Sink {
    fn emit(&self, event: SessionEvent) {
        if let SessionEvent::ToolCallStatusChanged {
            tool_use_id,
            status,
        } = &event
        {
            match status {
                ToolCallStatus::Executing => self.marks.add("executing", tool_use_id),
                ToolCallStatus::Completed => self.marks.add("completed", tool_use_id),
                _ => {}
            }
        }
        self.lines.emit(event);
    }
}

/// Runs one turn of `prompt` in the working directory and writes the marks to `marks_path` as JSON. With
/// `with_sleep`, the turn runs on the session's runtime with a concurrency-safe fake `Sleep` tool added and without
/// the session's recording (the session's tool set is fixed).
pub async fn run(prompt: &str, marks_path: PathBuf, with_sleep: bool) -> i32 {
    let marks = Marks::default();
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .expect("working directory");
    let config = ModelConfig::default().with_env(|k| std::env::var(k).ok());
    let inner = tandem_engine::model::connect(config.clone()).expect("model client");
    let model: Arc<dyn Model> = Arc::new(TimedModel {
        inner,
        marks: marks.clone(),
    });
    let store = SessionStore::open_default().ok().map(Arc::new);
    let options = SessionOptions {
        id: None,
        cwd: cwd.clone(),
        model: config,
        mode: PermissionMode::Default,
        approver: Arc::new(FixedApprover(ApprovalChoice::Allow)),
        events: Arc::new(Sink {
            marks: marks.clone(),
            lines: JsonLinesSink::new("bench", 0),
        }),
        store,
        watch_settings: true,
    };
    let mut session = Session::builder(&cwd)
        .expect("folder")
        .options(options)
        .model_client(model.clone())
        .build()
        .expect("session");
    // The script's requests all belong to one turn; the default cap (100) would end it early.
    session.set_max_turns(10_000);
    session.settings().assume_trusted();
    let ok = if with_sleep {
        let mut runtime = session.runtime().clone();
        let mut tools = builtin_tools();
        tools.push(erase(FakeTool::safe("Sleep", &CallLog::default())));
        runtime.pool = ToolPool::assemble(&tools, &[], |_| false);
        let mut history = Vec::new();
        let mut usage = Usage::default();
        run_turn(
            model.as_ref(),
            &runtime,
            &QueryConfig {
                max_turns: 10_000,
                ..QueryConfig::default()
            },
            &mut history,
            &mut usage,
            prompt,
            &CancellationToken::new(),
        )
        .await
        .is_ok()
    } else {
        session.send(prompt).await.is_ok()
    };
    let marks = marks.0.lock().map(|m| m.clone()).unwrap_or_default();
    let text = serde_json::to_string(&marks).expect("marks as JSON");
    std::fs::write(&marks_path, text).expect("write the marks");
    if ok { 0 } else { 1 }
}
