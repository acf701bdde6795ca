//! The client's file system, served to the hosted agent: `fs/read_text_file` reads a file the permission engine
//! lets it read (as a Read call would be checked), and `fs/write_text_file` writes through Tandem's own Write tool —
//! the permission check and PreToolUse hooks, the file's lock, a checkpoint of its old content (so the prompt can
//! be rewound) and an atomic write — shown in the session as a Write call.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::approver::Approver;
use crate::exec::run_tool_use;
use crate::session::Session;
use crate::tools::file_io::content_hash;
use crate::tools::file_io::snapshot::state_of;
use serde_json::json;
use tandem_protocol::{
    ApprovalChoice, ApprovalRequest, DecisionBehavior, SessionEvent, ToolKind, ToolOutcome,
};
use tokio_util::sync::CancellationToken;

use super::permission::{HostedApprover, check};

/// Files larger than this are not served whole.
const MAX_READ_BYTES: u64 = 64 << 20;

fn absolute(path: &Path) -> Result<(), String> {
    if path.is_absolute() {
        Ok(())
    } else {
        Err(format!("{} is not an absolute path", path.display()))
    }
}

/// The text of `path` from line `line` (1-based) on, at most `limit` lines, once the permission engine (or the
/// person) lets the agent read it. The file's read state is kept, so that a later write of it is checked against
/// what was read.
pub async fn read(
    session: &Session,
    approver: &HostedApprover,
    path: &Path,
    line: Option<u32>,
    limit: Option<u32>,
) -> Result<String, String> {
    absolute(path)?;
    let shown = path.display().to_string();
    let input = json!({ "file_path": shown });
    let answer = check(session.runtime(), "Read", &input);
    match answer.decision {
        DecisionBehavior::Allow => {}
        DecisionBehavior::Deny => {
            return Err(format!("reading {shown} is denied: {}", answer.reason));
        }
        DecisionBehavior::Ask => {
            let request = ApprovalRequest {
                id: uuid::Uuid::new_v4().to_string(),
                session_id: session.id().to_string(),
                tool_use_id: format!("fs_read_{}", uuid::Uuid::new_v4()),
                tool_name: "Read".into(),
                kind: ToolKind::Read,
                input,
                title: format!("Read {shown}"),
                reason: answer.reason.clone(),
                decided_by: answer.decided_by.clone(),
                trace: answer.trace.clone().map(Box::new),
                suggestion: None,
                diff: None,
                sub_agent: None,
                warnings: answer.warnings.clone(),
                previews: Vec::new(),
            };
            if approver.ask(request).await.choice == ApprovalChoice::Deny {
                return Err(format!(
                    "reading {shown} was not allowed: {}",
                    answer.reason
                ));
            }
        }
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if meta.len() > MAX_READ_BYTES {
        return Err(format!(
            "{shown} is {} bytes, more than the {MAX_READ_BYTES} served whole",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
    session.runtime().file_state.record(
        path,
        state_of(&meta, Some(&content_hash(text.as_bytes())), false),
    );
    Ok(lines(&text, line, limit))
}

/// Lines `line` (1-based; 1 when `None`) to `line + limit`, with their line ends.
fn lines(text: &str, line: Option<u32>, limit: Option<u32>) -> String {
    if line.is_none() && limit.is_none() {
        return text.to_string();
    }
    let skip = line.unwrap_or(1).saturating_sub(1) as usize;
    let take = limit.map_or(usize::MAX, |n| n as usize);
    text.split_inclusive('\n').skip(skip).take(take).collect()
}

/// Numbers the writes of one run, for their call ids.
static WRITES: AtomicU64 = AtomicU64::new(1);

/// Writes `content` to `path` through the session's Write tool. A file the agent did not read through Tandem is
/// taken as it is now (the agent read it its own way). `Err` carries what the tool answered (a refusal, a file
/// changed meanwhile, a write that failed).
pub async fn write(session: &Session, path: &Path, content: &str) -> Result<(), String> {
    absolute(path)?;
    let rt = session.runtime();
    if rt.file_state.get(path).is_none()
        && let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
        && let Ok(bytes) = std::fs::read(path)
    {
        rt.file_state
            .record(path, state_of(&meta, Some(&content_hash(&bytes)), false));
    }
    let id = format!("acp_write_{}", WRITES.fetch_add(1, Ordering::Relaxed));
    rt.events.emit(SessionEvent::ToolCallStarted {
        tool_use_id: id.clone(),
        name: "Write".into(),
    });
    let input = json!({ "file_path": path.display().to_string(), "content": content });
    let outcome = run_tool_use(rt, &id, "Write", &input, &CancellationToken::new()).await;
    match outcome.outcome {
        ToolOutcome::Success => Ok(()),
        _ => Err(result_text(&outcome.block)),
    }
}

/// The text of a tool result block.
pub fn result_text(block: &crate::model::ContentBlock) -> String {
    match block {
        crate::model::ContentBlock::ToolResult { content, .. } => content.as_text(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_of_lines_is_served_with_its_line_ends() {
        let text = "one\ntwo\nthree\n";
        let table = [
            (None, None, "one\ntwo\nthree\n"),
            (Some(2), None, "two\nthree\n"),
            (Some(2), Some(1), "two\n"),
            (None, Some(1), "one\n"),
            (Some(9), None, ""),
        ];
        for (line, limit, expected) in table {
            assert_eq!(lines(text, line, limit), expected, "{line:?} {limit:?}");
        }
    }
}
