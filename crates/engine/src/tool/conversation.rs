//! The conversation as its own tools see it (CtxInspect, Snip): the last request the query loop sent (system
//! prompt, tool definitions, messages) with the model's count of it, the calls of the step in progress, and the cuts
//! the model asked for, which the loop applies to the history before its next request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tandem_protocol::Usage;

use super::snip_range::{self, PlannedRange, RangeSnip};
use crate::model::{ContentBlock, Message, ModelRequest, ToolResultContent, ToolSpec};

pub use super::snip_range::SNIP_MARKER;

/// What one session's main conversation shows its context tools: shared by the query loop, which says what it sends
/// and applies the cuts, and the tools, which read it and ask for cuts. Every method takes a short lock and waits for
/// nothing else; nothing here can fail or be cancelled (a refused cut is an `Err` that changes nothing).
#[derive(Debug, Default)]
pub struct ConversationLedger {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    sent: Option<Arc<SentRequest>>,
    counted: Option<ModelCount>,
    /// The tool calls of the step in progress (their results are not in `sent`).
    running: Vec<String>,
    /// Cuts asked for and not applied yet.
    snips: Vec<Snip>,
    /// Range cuts asked for and not applied yet.
    ranges: Vec<RangeSnip>,
}

/// The last request the loop sent.
#[derive(Debug, Clone, PartialEq)]
pub struct SentRequest {
    pub system: Vec<String>,
    pub tools: Vec<ToolSpec>,
    pub messages: Vec<Message>,
    /// The model's context window in tokens.
    pub context_window: u64,
}

/// The model's own count of a request's input, from its answer's usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelCount {
    /// How many messages the counted request carried (its first ones are those of [`SentRequest::messages`]).
    pub messages: usize,
    /// Its input as the model counted it: input, cache read and cache creation tokens.
    pub input_tokens: u64,
}

/// One cut the model asked for: the result of a tool call, whose content becomes `marker`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snip {
    pub tool_use_id: String,
    pub marker: String,
}

/// A cut as it was queued: the call, its tool and the estimated tokens of the result it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedSnip {
    pub tool_use_id: String,
    pub tool_name: String,
    pub tokens: u64,
    /// The result was already snipped (nothing changes).
    pub already: bool,
}

/// Why a cut was refused; nothing is queued then.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnipError {
    #[error("no tool call with id `{0}` has a result in the conversation")]
    Unknown(String),
    #[error(
        "`{0}` is a call of the current step, still pending: only the results of earlier calls can be snipped"
    )]
    Pending(String),
    #[error("name at least one tool_use id")]
    Nothing,
    #[error("the conversation has not been sent to the model yet")]
    NothingSent,
    #[error("{0}")]
    Range(String),
}

impl From<snip_range::RangeError> for SnipError {
    fn from(e: snip_range::RangeError) -> Self {
        match e {
            snip_range::RangeError::Unknown(id) => Self::Unknown(id),
            snip_range::RangeError::Pending(id) => Self::Pending(id),
            snip_range::RangeError::Invalid(why) => Self::Range(why),
        }
    }
}

impl ConversationLedger {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(inner) => inner,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The loop sends `request` to a model of `context_window` tokens: it becomes what the tools see, and the
    /// calls of the step before are no longer pending.
    pub fn request_sent(&self, request: &ModelRequest, context_window: u64) {
        let sent = Arc::new(SentRequest {
            system: request.system.clone(),
            tools: request.tools.clone(),
            messages: request.messages.clone(),
            context_window,
        });
        let mut inner = self.lock();
        inner.sent = Some(sent);
        inner.running.clear();
    }

    /// The model answered the last request sent, reporting `usage`.
    pub fn response_counted(&self, usage: &Usage) {
        let mut inner = self.lock();
        let messages = inner.sent.as_ref().map_or(0, |s| s.messages.len());
        inner.counted = Some(ModelCount {
            messages,
            input_tokens: usage.input_tokens
                + usage.cache_read_input_tokens
                + usage.cache_creation_input_tokens,
        });
    }

    /// The model called a tool (`id`) in the step in progress.
    pub fn call_started(&self, id: &str) {
        self.lock().running.push(id.to_string());
    }

    /// The last request sent (`None` before the first).
    pub fn sent(&self) -> Option<Arc<SentRequest>> {
        self.lock().sent.clone()
    }

    /// The model's count of the last request it answered (`None` before the first answer).
    pub fn counted(&self) -> Option<ModelCount> {
        self.lock().counted
    }

    /// The calls whose results are queued to be snipped.
    pub fn pending_snips(&self) -> Vec<String> {
        let inner = self.lock();
        inner
            .snips
            .iter()
            .map(|s| s.tool_use_id.clone())
            .chain(
                inner
                    .ranges
                    .iter()
                    .map(|r| format!("{}..{}", r.from_tool_use_id, r.through_tool_use_id)),
            )
            .collect()
    }

    /// Queues cuts of the results of the calls `ids`, checked against the last request sent: every id must name a
    /// call whose result it carried (else nothing is queued). `note` says what was cut and why; it is kept in the
    /// marker.
    pub fn snip(&self, ids: &[String], note: &str) -> Result<Vec<PlannedSnip>, SnipError> {
        let mut inner = self.lock();
        if ids.is_empty() {
            return Err(SnipError::Nothing);
        }
        let sent = inner.sent.clone().ok_or(SnipError::NothingSent)?;
        let found = results_of(&sent.messages);
        let mut planned = Vec::new();
        for id in ids {
            if inner.running.contains(id) {
                return Err(SnipError::Pending(id.clone()));
            }
            let Some((name, content)) = found.get(id.as_str()) else {
                return Err(SnipError::Unknown(id.clone()));
            };
            if planned.iter().any(|p: &PlannedSnip| &p.tool_use_id == id) {
                continue;
            }
            planned.push(PlannedSnip {
                tool_use_id: id.clone(),
                tool_name: name.to_string(),
                tokens: crate::model::estimate_json_tokens(content),
                already: is_snipped(content),
            });
        }
        for plan in planned.iter().filter(|p| !p.already) {
            inner.snips.retain(|s| s.tool_use_id != plan.tool_use_id);
            inner.snips.push(Snip {
                tool_use_id: plan.tool_use_id.clone(),
                marker: marker(plan, note),
            });
        }
        Ok(planned)
    }

    /// Queues the cut of the whole steps from the call `from` through the result of the call `through` (see
    /// [`snip_range`]), checked against the last request sent (else nothing is queued); `note` is kept in the marker.
    pub fn snip_range(
        &self,
        from: &str,
        through: &str,
        note: &str,
    ) -> Result<PlannedRange, SnipError> {
        let mut inner = self.lock();
        let sent = inner.sent.clone().ok_or(SnipError::NothingSent)?;
        let plan = snip_range::plan(&sent.messages, from, through, &inner.running)?;
        inner.ranges.push(RangeSnip {
            from_tool_use_id: from.to_string(),
            through_tool_use_id: through.to_string(),
            marker: snip_range::marker(&plan, note),
        });
        Ok(plan)
    }

    /// Applies the queued cuts to `history`: each result found gets its marker as its content (the tool_use and the
    /// tool_result stay, so every call keeps its result); each range is removed and its marker left in the user
    /// message before it; a cut whose calls are gone (compacted away) is dropped. Returns how many results and
    /// ranges changed.
    pub fn apply_snips(&self, history: &mut Vec<Message>) -> usize {
        let (snips, ranges) = {
            let mut inner = self.lock();
            (
                std::mem::take(&mut inner.snips),
                std::mem::take(&mut inner.ranges),
            )
        };
        let mut changed = ranges
            .iter()
            .filter(|range| snip_range::cut(history, range))
            .count();
        if snips.is_empty() {
            return changed;
        }
        for block in history.iter_mut().flat_map(|m| m.content.iter_mut()) {
            if let ContentBlock::ToolResult {
                tool_use_id,
                content,
                ..
            } = block
                && let Some(snip) = snips.iter().find(|s| s.tool_use_id == *tool_use_id)
            {
                *content = ToolResultContent::Text(snip.marker.clone());
                changed += 1;
            }
        }
        changed
    }
}

/// Whether a tool result is a snip's marker.
pub fn is_snipped(content: &ToolResultContent) -> bool {
    matches!(content, ToolResultContent::Text(text) if text.starts_with(SNIP_MARKER))
}

/// The tool name and result of every call answered in `messages`, by id.
fn results_of(messages: &[Message]) -> HashMap<&str, (&str, &ToolResultContent)> {
    let names: HashMap<&str, &str> = messages
        .iter()
        .flat_map(|m| m.tool_uses())
        .map(|(id, name, _)| (id, name))
        .collect();
    messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult {
                tool_use_id,
                content,
                ..
            } => Some((
                tool_use_id.as_str(),
                (
                    names.get(tool_use_id.as_str()).copied().unwrap_or("?"),
                    content,
                ),
            )),
            _ => None,
        })
        .collect()
}

/// The text a cut result is replaced with: what it was and the model's note.
fn marker(plan: &PlannedSnip, note: &str) -> String {
    let note = note.trim();
    let what = format!(
        "the {} result, about {} tokens",
        plan.tool_name, plan.tokens
    );
    if note.is_empty() {
        format!("{SNIP_MARKER}: {what}]")
    } else {
        format!("{SNIP_MARKER}: {what}; {note}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Role;

    fn history() -> Vec<Message> {
        vec![
            Message::user_text("look"),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::ToolUse {
                    id: "t1".into(),
                    name: "Read".into(),
                    input: serde_json::json!({"file_path": "a"}),
                }],
            ),
            Message::new(
                Role::User,
                vec![ContentBlock::ToolResult {
                    tool_use_id: "t1".into(),
                    content: ToolResultContent::Text("x".repeat(4000)),
                    is_error: false,
                }],
            ),
        ]
    }

    fn ledger() -> ConversationLedger {
        let ledger = ConversationLedger::default();
        ledger.request_sent(
            &ModelRequest {
                model: "m".into(),
                max_tokens: 10,
                system: vec![],
                messages: history(),
                tools: vec![],
                thinking: None,
            },
            1000,
        );
        ledger
    }

    #[test]
    fn a_cut_is_checked_queued_and_applied_to_the_result_only() {
        let ledger = ledger();
        ledger.call_started("t2");
        let cases: &[(&[&str], Option<SnipError>)] = &[
            (&[], Some(SnipError::Nothing)),
            (&["nope"], Some(SnipError::Unknown("nope".into()))),
            (&["t2"], Some(SnipError::Pending("t2".into()))),
            (&["t1", "nope"], Some(SnipError::Unknown("nope".into()))),
        ];
        for (ids, want) in cases {
            let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
            assert_eq!(ledger.snip(&ids, "").err(), *want, "{ids:?}");
        }
        assert!(
            ledger.pending_snips().is_empty(),
            "a refusal queues nothing"
        );
        let planned = ledger.snip(&["t1".into()], "read already").expect("snip");
        assert_eq!(planned[0].tool_name, "Read");
        assert!(planned[0].tokens >= 1000, "{planned:?}");
        let mut history = history();
        assert_eq!(ledger.apply_snips(&mut history), 1);
        let ContentBlock::ToolResult { content, .. } = &history[2].content[0] else {
            panic!("{history:?}");
        };
        assert_eq!(
            content.as_text(),
            "[snipped by the model: the Read result, about 1000 tokens; read already]"
        );
        assert_eq!(history[1].tool_uses().count(), 1, "the call stays");
        assert_eq!(ledger.apply_snips(&mut history), 0, "applied once");
    }
}
