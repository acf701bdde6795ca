//! Auto mode: a classifier (a model call) judges calls that would otherwise ask; its reason is shown with the
//! decision. What it does not judge safe still asks; an ask rule or a safety check is never sent to it.

use std::path::PathBuf;
use std::sync::Arc;

use futures::StreamExt;
use futures::future::BoxFuture;
use serde_json::Value;

use crate::model::{Model, ModelEvent, ModelRequest};

/// One call for the classifier to judge.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassifierRequest {
    pub tool: String,
    pub input: Value,
    /// Why the engine would ask.
    pub reason: String,
    pub cwd: PathBuf,
}

/// The longest text of a call's input the classifier is shown whole; a longer one is cut to its head and tail.
pub const MAX_CLASSIFIER_TEXT: usize = 2_000;

/// `input` as the classifier sees it by default: every string longer than [`MAX_CLASSIFIER_TEXT`] characters cut to
/// its head and tail with the number of characters left out between them.
pub fn compact_input(input: &Value) -> Value {
    match input {
        Value::String(text) => Value::String(cut(text)),
        Value::Array(items) => Value::Array(items.iter().map(compact_input).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), compact_input(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `text`, or its head and tail when it is longer than [`MAX_CLASSIFIER_TEXT`] characters.
pub fn cut(text: &str) -> String {
    let total = text.chars().count();
    if total <= MAX_CLASSIFIER_TEXT {
        return text.to_string();
    }
    let half = MAX_CLASSIFIER_TEXT / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(total - half).collect();
    format!(
        "{head}\n… ({} characters left out) …\n{tail}",
        total - 2 * half
    )
}

/// The classifier's judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassifierVerdict {
    pub safe: bool,
    pub reason: String,
}

/// Judges calls in auto mode.
///
/// Contract: `classify` resolves with a verdict; when it cannot judge (no model, an error, an unclear answer) it
/// resolves with `safe: false` and says why, so the call asks. It never panics and never allows by default.
pub trait AutoClassifier: Send + Sync {
    fn classify(&self, request: ClassifierRequest) -> BoxFuture<'_, ClassifierVerdict>;
}

/// A shareable classifier handle for the permission context.
#[derive(Clone)]
pub struct ClassifierHandle(pub Arc<dyn AutoClassifier>);

impl std::fmt::Debug for ClassifierHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClassifierHandle")
    }
}

/// A classifier that asks a model for `SAFE: reason` or `ASK: reason`.
pub struct ModelClassifier {
    pub model: Arc<dyn Model>,
    pub max_tokens: u32,
}

const PROMPT: &str = "You review one action a coding agent wants to take in a user's project. Answer with exactly \
one line: `SAFE: <short reason>` if the action is clearly safe to run without asking the user (it stays inside the \
project, is reversible, does not send data out, does not install or execute untrusted code, does not touch \
credentials), otherwise `ASK: <short reason>`. When in doubt, answer ASK.";

/// Reads the model's answer: `SAFE:` / `ASK:` on the first non-empty line.
pub fn parse_verdict(text: &str) -> ClassifierVerdict {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let upper = line.to_ascii_uppercase();
    let reason = |prefix: &str| {
        line[prefix.len()..]
            .trim_start_matches(':')
            .trim()
            .to_string()
    };
    if upper.starts_with("SAFE") {
        ClassifierVerdict {
            safe: true,
            reason: reason("SAFE"),
        }
    } else if upper.starts_with("ASK") {
        ClassifierVerdict {
            safe: false,
            reason: reason("ASK"),
        }
    } else {
        ClassifierVerdict {
            safe: false,
            reason: "the classifier's answer was unclear".into(),
        }
    }
}

impl AutoClassifier for ModelClassifier {
    fn classify(&self, request: ClassifierRequest) -> BoxFuture<'_, ClassifierVerdict> {
        Box::pin(async move {
            let question = format!(
                "Project folder: {}\nTool: {}\nInput: {}\nWhy the permission engine would ask: {}",
                request.cwd.display(),
                request.tool,
                request.input,
                request.reason
            );
            let req = ModelRequest {
                model: self.model.model_name().to_string(),
                max_tokens: self.max_tokens,
                system: vec![PROMPT.to_string()],
                messages: vec![crate::model::Message::user_text(question)],
                tools: Vec::new(),
                thinking: None,
            };
            let mut stream = self.model.stream(req);
            let mut text = String::new();
            while let Some(event) = stream.next().await {
                match event {
                    Ok(ModelEvent::TextDelta(t)) => text.push_str(&t),
                    Ok(_) => {}
                    Err(e) => {
                        return ClassifierVerdict {
                            safe: false,
                            reason: format!("the classifier failed: {e}"),
                        };
                    }
                }
            }
            parse_verdict(&text)
        })
    }
}

#[cfg(test)]
mod compact_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_texts_are_cut_to_their_head_and_tail_wherever_they_are() {
        let long = format!("{}MIDDLE{}", "a".repeat(3_000), "z".repeat(3_000));
        let compact = compact_input(
            &json!({"content": long, "edits": [{"new": long}], "n": 3, "short": "ok"}),
        );
        let content = compact["content"].as_str().expect("text");
        assert!(
            content.starts_with("aaa") && content.ends_with("zzz"),
            "{content}"
        );
        assert!(!content.contains("MIDDLE"));
        assert!(content.contains("(4006 characters left out)"), "{content}");
        assert_eq!(compact["edits"][0]["new"], compact["content"]);
        assert_eq!(compact["n"], 3);
        assert_eq!(compact["short"], "ok");
        let exact = "é".repeat(MAX_CLASSIFIER_TEXT);
        assert_eq!(cut(&exact), exact, "a text of exactly the limit is whole");
    }
}
