//! A builder of tool runtimes for tests, so each test states only what differs from the usual: every built-in tool,
//! the default permission mode on the working directory, an approver that allows, fresh file state, no events.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use serde_json::Value;
use tandem_protocol::{ApprovalChoice, PermissionMode, ToolOutcome};
use tokio_util::sync::CancellationToken;

use crate::approver::{Approver, FixedApprover};
use crate::events::{EventSink, NullSink, RecordingSink};
use crate::exec::{ToolRuntime, run_tool_use};
use crate::model::{ContentBlock, ToolResultContent};
use crate::permission::PermissionContext;
use crate::registry::{ToolPool, builtin_tools};
use crate::tool::{DynTool, FileStateStore};

/// Builds a [`ToolRuntime`]; see the module documentation for the defaults.
pub struct TestRuntime {
    cwd: PathBuf,
    session_id: String,
    permissions: Option<PermissionContext>,
    mode: PermissionMode,
    approver: Arc<dyn Approver>,
    tools: Option<Vec<Arc<dyn DynTool>>>,
    file_state: Arc<FileStateStore>,
    events: Arc<dyn EventSink>,
}

impl TestRuntime {
    /// A runtime working in `cwd`, with session id `test`.
    pub fn new(cwd: impl AsRef<Path>) -> Self {
        Self {
            cwd: cwd.as_ref().to_path_buf(),
            session_id: "test".into(),
            permissions: None,
            mode: PermissionMode::Default,
            approver: Arc::new(FixedApprover(ApprovalChoice::Allow)),
            tools: None,
            file_state: Arc::new(FileStateStore::default()),
            events: Arc::new(NullSink),
        }
    }

    /// The session id the tools and hooks see.
    pub fn session_id(mut self, id: &str) -> Self {
        self.session_id = id.to_string();
        self
    }

    /// Permissions from a plain context on the working directory in `mode` (ignored if [`Self::permissions`] is
    /// given).
    pub fn mode(mut self, mode: PermissionMode) -> Self {
        self.mode = mode;
        self
    }

    /// Permissions from `ctx`.
    pub fn permissions(mut self, ctx: PermissionContext) -> Self {
        self.permissions = Some(ctx);
        self
    }

    /// Questions go to `approver`.
    pub fn approver(mut self, approver: impl Approver + 'static) -> Self {
        self.approver = Arc::new(approver);
        self
    }

    /// The pool holds `tools` instead of the built-in ones.
    pub fn tools(mut self, tools: Vec<Arc<dyn DynTool>>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// The tools share `file_state` (to look at it, or to share it between runtimes).
    pub fn file_state(mut self, file_state: Arc<FileStateStore>) -> Self {
        self.file_state = file_state;
        self
    }

    /// Events go to `events`.
    pub fn events(mut self, events: Arc<dyn EventSink>) -> Self {
        self.events = events;
        self
    }

    /// The runtime.
    pub fn build(self) -> ToolRuntime {
        let permissions = self
            .permissions
            .unwrap_or_else(|| PermissionContext::new(&self.cwd, self.mode));
        let tools = self.tools.unwrap_or_else(builtin_tools);
        ToolRuntime {
            session_id: self.session_id,
            cwd: self.cwd,
            pool: ToolPool::assemble(&tools, &[], |_| false),
            permissions: Arc::new(RwLock::new(Arc::new(permissions))),
            approver: self.approver,
            events: self.events,
            file_state: self.file_state,
            sub_agents: None,
            team: None,
            mailbox: None,
            mode_notes: None,
            conversation: None,
            completer: None,
            deferred: Default::default(),
        }
    }

    /// The runtime, its events going to the returned recording sink.
    pub fn recorded(self) -> (ToolRuntime, RecordingSink) {
        let sink = RecordingSink::default();
        let rt = self.events(Arc::new(sink.clone())).build();
        (rt, sink)
    }
}

/// The result of one call: whether it succeeded and its text.
#[derive(Debug, Clone)]
pub struct CallResult {
    /// The call succeeded.
    pub ok: bool,
    /// The result's text.
    pub text: String,
}

/// Runs `tool` with `input` through the whole tool-call pipeline (permissions, hooks, the tool) on `rt`.
pub async fn call(rt: &ToolRuntime, tool: &str, input: &Value) -> CallResult {
    let outcome = run_tool_use(rt, "call", tool, input, &CancellationToken::new()).await;
    let text = match &outcome.block {
        ContentBlock::ToolResult { content, .. } => match content {
            ToolResultContent::Text(t) => t.clone(),
            other => other.as_text(),
        },
        _ => String::new(),
    };
    CallResult {
        ok: outcome.outcome == ToolOutcome::Success,
        text,
    }
}
