//! A session as JSON lines in the reference agent's transcript format, as that agent writes under
//! `~/.claude/projects/<folder>/<session>.jsonl`: a `summary` line with the title, then one line per message —
//! `{"parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "type", "message", "uuid",
//! "timestamp"}` — its content blocks as the Messages API has them (a typed prompt as plain text). Each sub-agent's
//! conversation follows the message with the call that started it, its lines marked `isSidechain` with its
//! `agentId`. serde writes every line, so each is one valid JSON object whatever the text holds.

use serde_json::{Map, Value, json};

use super::clean::iso_time;
use crate::model::{ContentBlock, Message, Role};
use crate::store::LoadedSession;

/// Who a run of lines belongs to.
struct Owner<'a> {
    session: &'a LoadedSession,
    agent: Option<&'a str>,
}

pub fn render(session: &LoadedSession, times: &[i64]) -> String {
    let mut lines: Vec<Value> = Vec::new();
    let mut parent: Option<String> = None;
    let owner = Owner {
        session,
        agent: None,
    };
    for (index, message) in session.history.iter().enumerate() {
        let at = times
            .get(index)
            .copied()
            .unwrap_or(session.record.created_at);
        let uuid = line_uuid(&session.record.id, "", index);
        lines.push(owner.line(message, parent.as_deref(), &uuid, at));
        parent = Some(uuid);
        for block in &message.content {
            let ContentBlock::ToolUse { id, .. } = block else {
                continue;
            };
            for chain in session
                .sidechains
                .iter()
                .filter(|c| &c.parent_tool_use_id == id)
            {
                let sub = Owner {
                    session,
                    agent: Some(&chain.agent_id),
                };
                let mut sub_parent: Option<String> = None;
                for (n, message) in chain.messages.iter().enumerate() {
                    let uuid = line_uuid(&session.record.id, &chain.agent_id, n);
                    lines.push(sub.line(message, sub_parent.as_deref(), &uuid, chain.created_at));
                    sub_parent = Some(uuid);
                }
            }
        }
    }
    let mut out = String::new();
    if !session.record.title.is_empty() {
        let summary =
            json!({"type": "summary", "summary": session.record.title, "leafUuid": parent});
        out.push_str(&summary.to_string());
        out.push('\n');
    }
    for line in lines {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

impl Owner<'_> {
    fn line(&self, message: &Message, parent: Option<&str>, uuid: &str, at: i64) -> Value {
        let record = &self.session.record;
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let content = match (message.role, message.content.as_slice()) {
            (Role::User, [ContentBlock::Text { text }]) => json!(text),
            _ => serde_json::to_value(&message.content).unwrap_or(Value::Array(Vec::new())),
        };
        let mut body = Map::new();
        if message.role == Role::Assistant {
            body.insert(
                "id".into(),
                json!(format!("msg_{}", &uuid.replace('-', "")[..24])),
            );
            body.insert("type".into(), json!("message"));
            body.insert("role".into(), json!(role));
            body.insert("model".into(), json!(record.model));
            body.insert("content".into(), content);
            let calls = message
                .content
                .iter()
                .any(|b| matches!(b, ContentBlock::ToolUse { .. }));
            body.insert(
                "stop_reason".into(),
                json!(if calls { "tool_use" } else { "end_turn" }),
            );
            body.insert("stop_sequence".into(), Value::Null);
        } else {
            body.insert("role".into(), json!(role));
            body.insert("content".into(), content);
        }
        let mut line = Map::new();
        line.insert("parentUuid".into(), json!(parent));
        line.insert("isSidechain".into(), json!(self.agent.is_some()));
        line.insert("userType".into(), json!("external"));
        line.insert("cwd".into(), json!(record.folder.display().to_string()));
        line.insert("sessionId".into(), json!(record.id));
        line.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
        if let Some(agent) = self.agent {
            line.insert("agentId".into(), json!(agent));
        }
        line.insert("type".into(), json!(role));
        line.insert("message".into(), Value::Object(body));
        line.insert("uuid".into(), json!(uuid));
        line.insert("timestamp".into(), json!(iso_time(at)));
        Value::Object(line)
    }
}

/// A stable UUID for line `index` of the session's (or one sub-agent's) conversation: exporting twice gives the
/// same lines.
fn line_uuid(session: &str, agent: &str, index: usize) -> String {
    let hash = blake3::hash(format!("{session}\0{agent}\0{index}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&hash.as_bytes()[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .to_string()
}
