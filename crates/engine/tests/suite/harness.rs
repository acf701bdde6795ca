//! What the file-tool tests share: a session-like tool runtime on a folder whose approver allows everything, and
//! a helper that runs one call through the real pipeline.

use std::path::Path;
use std::sync::{Arc, RwLock};

use serde_json::Value;
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::NullSink;
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::model::{ContentBlock, ToolResultContent};
use tandem_engine::permission::PermissionContext;
use tandem_engine::registry::{ToolPool, builtin_tools};
use tandem_engine::tool::FileStateStore;
use tandem_protocol::{ApprovalChoice, PermissionMode, ToolOutcome};
use tokio_util::sync::CancellationToken;

/// A runtime on `cwd` with every built-in tool, an approver that allows, and `file_state`.
pub fn runtime(cwd: &Path, file_state: Arc<FileStateStore>) -> ToolRuntime {
    ToolRuntime {
        session_id: "test".into(),
        cwd: cwd.to_path_buf(),
        pool: ToolPool::assemble(&builtin_tools(), &[], |_| false),
        permissions: Arc::new(RwLock::new(Arc::new(PermissionContext::new(
            cwd,
            PermissionMode::Default,
        )))),
        approver: Arc::new(FixedApprover(ApprovalChoice::Allow)),
        events: Arc::new(NullSink),
        file_state,
    }
}

/// The result of one call: whether it succeeded and its text.
pub struct CallResult {
    pub ok: bool,
    pub text: String,
}

/// Runs `tool` with `input` through the pipeline.
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
