//! The session's transcript as a JSON-lines file, in the format of the command-line agent's transcripts, for hook
//! scripts (`transcript_path`, a sub-agent's `agent_transcript_path`): one line per message, `{"type": "user" |
//! "assistant", "message": {"role", "content", …}, "uuid", "parentUuid", "sessionId", "cwd", "timestamp",
//! "isSidechain", …}`, the content blocks as the Messages API has them (a typed prompt as plain text).
//!
//! Kept current as the session goes: [`TranscriptModel`] writes the history each request carries and each answer as
//! it completes, so a hook sees the message whose tools it runs around. New messages are appended, one whole line
//! per write; when the history changed otherwise (a compaction, a rewind) or the session reopens, the file is
//! rewritten whole through a temporary file and a rename. A file that cannot be written is reported in the log and
//! never stops the session.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use serde_json::{Map, Value, json};

use crate::model::{
    ContentBlock, Message, Model, ModelEvent, ModelRequest, ModelStream, Role, StopReason,
};

/// Whose transcript a file is.
#[derive(Debug, Clone)]
pub struct TranscriptOwner {
    pub session_id: String,
    pub cwd: PathBuf,
    /// A sub-agent's own transcript (its lines are a sidechain of the session).
    pub agent_id: Option<String>,
}

/// What the file holds so far: the messages written and each one's line id.
#[derive(Debug, Default)]
struct Written {
    messages: Vec<Message>,
    uuids: Vec<String>,
}

/// One transcript file, kept equal to a conversation's history.
#[derive(Debug)]
pub struct TranscriptFile {
    path: PathBuf,
    owner: TranscriptOwner,
    written: Mutex<Written>,
}

/// What is known of an answer once it completed.
pub struct Completion<'a> {
    pub model: &'a str,
    pub stop_reason: StopReason,
    pub usage: tandem_protocol::Usage,
}

impl TranscriptFile {
    /// The transcript at `path`, written anew with `history` (a reopened session's, or nothing for a new one).
    pub fn open(path: PathBuf, owner: TranscriptOwner, history: &[Message]) -> Self {
        let file = Self {
            path,
            owner,
            written: Mutex::new(Written::default()),
        };
        if let Ok(mut written) = file.written.lock() {
            file.rewrite(&mut written, history);
        }
        file
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Brings the file to `history`: appends what is new, or rewrites it when the history changed before its end.
    pub fn sync(&self, history: &[Message]) {
        let Ok(mut written) = self.written.lock() else {
            return;
        };
        let same = written
            .messages
            .iter()
            .zip(history)
            .take_while(|(a, b)| a == b)
            .count();
        if same < written.messages.len() {
            self.rewrite(&mut written, history);
            return;
        }
        for message in &history[same..] {
            self.append(&mut written, message, None);
        }
    }

    /// Adds the answer that completed after the first `position` messages.
    pub fn completed(&self, position: usize, message: &Message, completion: Completion<'_>) {
        let Ok(mut written) = self.written.lock() else {
            return;
        };
        if written.messages.len() != position {
            // The file is not at the request's history (it could not be written): leave it to the next sync.
            return;
        }
        self.append(&mut written, message, Some(&completion));
    }

    fn append(
        &self,
        written: &mut Written,
        message: &Message,
        completion: Option<&Completion<'_>>,
    ) {
        let uuid = uuid::Uuid::new_v4().to_string();
        let line = self.line(
            message,
            written.uuids.last().map(String::as_str),
            &uuid,
            completion,
        );
        let mut bytes = line.to_string().into_bytes();
        bytes.push(b'\n');
        let appended = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .and_then(|mut f| f.write_all(&bytes));
        match appended {
            Ok(()) => {
                tracing::trace!(path = %self.path.display(), "transcript line appended");
                written.messages.push(message.clone());
                written.uuids.push(uuid);
            }
            Err(e) => {
                tracing::warn!("transcript {}: {e}", self.path.display());
                // Written whole the next time.
                written.messages.clear();
                written.uuids.clear();
                self.rewrite(written, &[]);
            }
        }
    }

    /// Replaces the file with `history`, through a temporary file (readable by its owner only).
    fn rewrite(&self, written: &mut Written, history: &[Message]) {
        let mut uuids: Vec<String> = Vec::with_capacity(history.len());
        let mut text = String::new();
        for message in history {
            let uuid = uuid::Uuid::new_v4().to_string();
            text.push_str(
                &self
                    .line(message, uuids.last().map(String::as_str), &uuid, None)
                    .to_string(),
            );
            text.push('\n');
            uuids.push(uuid);
        }
        let result = self
            .path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| crate::fsutil::write_atomic_private(&self.path, &[text.as_bytes()]));
        match result {
            Ok(()) => {
                tracing::debug!(path = %self.path.display(), messages = history.len(), "transcript rewritten");
                written.messages = history.to_vec();
                written.uuids = uuids;
            }
            Err(e) => {
                tracing::warn!("transcript {}: {e}", self.path.display());
                written.messages.clear();
                written.uuids.clear();
            }
        }
    }

    /// The line of one message.
    fn line(
        &self,
        message: &Message,
        parent: Option<&str>,
        uuid: &str,
        completion: Option<&Completion<'_>>,
    ) -> Value {
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let mut body = Map::new();
        body.insert("role".into(), json!(role));
        let content = match (message.role, message.content.as_slice()) {
            // A typed prompt is plain text, as the command-line agent writes it.
            (Role::User, [ContentBlock::Text { text }]) => json!(text),
            _ => serde_json::to_value(&message.content).unwrap_or(Value::Null),
        };
        body.insert("content".into(), content);
        if let Some(done) = completion {
            body.insert("type".into(), json!("message"));
            body.insert("model".into(), json!(done.model));
            body.insert(
                "stop_reason".into(),
                serde_json::to_value(done.stop_reason).unwrap_or(Value::Null),
            );
            body.insert(
                "usage".into(),
                json!({
                    "input_tokens": done.usage.input_tokens,
                    "output_tokens": done.usage.output_tokens,
                    "cache_creation_input_tokens": done.usage.cache_creation_input_tokens,
                    "cache_read_input_tokens": done.usage.cache_read_input_tokens,
                }),
            );
        }
        let mut line = Map::new();
        line.insert("parentUuid".into(), json!(parent));
        line.insert("isSidechain".into(), json!(self.owner.agent_id.is_some()));
        line.insert("userType".into(), json!("external"));
        line.insert("cwd".into(), json!(self.owner.cwd.display().to_string()));
        line.insert("sessionId".into(), json!(self.owner.session_id));
        line.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
        if let Some(agent) = &self.owner.agent_id {
            line.insert("agentId".into(), json!(agent));
        }
        line.insert("type".into(), json!(role));
        line.insert("message".into(), Value::Object(body));
        line.insert("uuid".into(), json!(uuid));
        line.insert(
            "timestamp".into(),
            json!(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        );
        Value::Object(line)
    }
}

/// A model wrapper that keeps a transcript file current: the history of each request, each answer as it completes.
pub struct TranscriptModel {
    inner: Arc<dyn Model>,
    file: Arc<TranscriptFile>,
}

impl TranscriptModel {
    pub fn new(inner: Arc<dyn Model>, file: Arc<TranscriptFile>) -> Self {
        Self { inner, file }
    }
}

impl Model for TranscriptModel {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        self.file.sync(&request.messages);
        let position = request.messages.len();
        let file = self.file.clone();
        let model = request.model.clone();
        self.inner
            .stream(request)
            .inspect(move |event| {
                if let Ok(ModelEvent::MessageComplete {
                    message,
                    stop_reason,
                    usage,
                }) = event
                {
                    file.completed(
                        position,
                        message,
                        Completion {
                            model: &model,
                            stop_reason: *stop_reason,
                            usage: *usage,
                        },
                    );
                }
            })
            .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(path: &Path) -> Vec<Value> {
        std::fs::read_to_string(path)
            .expect("transcript")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    }

    fn assistant(text: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text { text: text.into() }],
            marks: Default::default(),
        }
    }

    #[test]
    fn appends_what_is_new_and_rewrites_a_changed_history() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("s/transcript.jsonl");
        let owner = TranscriptOwner {
            session_id: "s1".into(),
            cwd: dir.path().to_path_buf(),
            agent_id: None,
        };
        let file = TranscriptFile::open(path.clone(), owner, &[]);
        assert_eq!(std::fs::read_to_string(&path).expect("made"), "");

        let first = vec![Message::user_text("hello"), assistant("hi")];
        file.sync(&first);
        let mut more = first.clone();
        more.push(Message::user_text("again"));
        file.sync(&more);
        let written = lines(&path);
        assert_eq!(written.len(), 3);
        assert_eq!(written[0]["type"], "user");
        assert_eq!(written[0]["message"]["content"], "hello");
        assert_eq!(written[0]["parentUuid"], Value::Null);
        assert_eq!(written[1]["type"], "assistant");
        assert_eq!(written[1]["message"]["content"][0]["text"], "hi");
        assert_eq!(written[1]["parentUuid"], written[0]["uuid"]);
        assert_eq!(written[2]["parentUuid"], written[1]["uuid"]);
        assert_eq!(written[0]["sessionId"], "s1");
        assert_eq!(written[0]["isSidechain"], false);

        // A rewound history: the file is the new history, not the old one with more lines.
        let rewound = vec![Message::user_text("other")];
        file.sync(&rewound);
        let written = lines(&path);
        assert_eq!(written.len(), 1);
        assert_eq!(written[0]["message"]["content"], "other");
    }
}
