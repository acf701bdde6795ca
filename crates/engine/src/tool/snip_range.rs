//! Cutting a range of whole steps from the conversation (Snip's `range`): from the assistant message that made one
//! call through the user message holding another call's result. The cut leaves the roles alternating — the user
//! message before the range is followed by the assistant message after it — and puts a marker saying what went,
//! with the model's note, at the end of that user message. Text the person or the session added to the last user
//! message of the range (not tool results) moves there too. A range may not hold a prompt of the person, a
//! compaction's summary or a call still pending.

use crate::model::{ContentBlock, Message, Role};

/// How the text a snipped tool result or range is replaced with opens.
pub const SNIP_MARKER: &str = "[snipped by the model";

/// Why a range cannot be cut.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// No call or result of that id.
    #[error("no tool call with id `{0}` has a result in the conversation")]
    Unknown(String),
    /// A call of the step in progress.
    #[error(
        "`{0}` is a call of the current step, still pending: only the results of earlier calls can be snipped"
    )]
    Pending(String),
    /// The range is not one that can be cut, and why.
    #[error("{0}")]
    Invalid(String),
}

/// A range cut as it was checked: its ends, what it holds and its estimated size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedRange {
    pub from_tool_use_id: String,
    pub through_tool_use_id: String,
    /// How many messages it removes.
    pub messages: usize,
    /// How many tool calls they hold.
    pub calls: usize,
    pub tokens: u64,
}

/// A range cut waiting for the next request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeSnip {
    pub from_tool_use_id: String,
    pub through_tool_use_id: String,
    pub marker: String,
}

/// Where the range of `from` through `through` lies in `messages` (first and last index, both removed), checked;
/// `pending` names calls of the step in progress.
pub fn locate(
    messages: &[Message],
    from: &str,
    through: &str,
    pending: &[String],
) -> Result<(usize, usize), RangeError> {
    for id in [from, through] {
        if pending.iter().any(|p| p == id) {
            return Err(RangeError::Pending(id.to_string()));
        }
    }
    let start = messages
        .iter()
        .position(|m| m.role == Role::Assistant && m.tool_uses().any(|(id, _, _)| id == from))
        .ok_or_else(|| RangeError::Unknown(from.to_string()))?;
    let end = messages
        .iter()
        .position(|m| {
            m.role == Role::User
                && m.content.iter().any(|b| {
                    matches!(b, ContentBlock::ToolResult { tool_use_id, .. } if tool_use_id == through)
                })
        })
        .ok_or_else(|| RangeError::Unknown(through.to_string()))?;
    if end < start {
        return Err(RangeError::Invalid(format!(
            "`{through}` comes before `{from}`: name the earlier call first"
        )));
    }
    if start == 0 || messages[start - 1].role != Role::User {
        return Err(RangeError::Invalid(
            "the range must follow a message of the user".into(),
        ));
    }
    if end + 1 < messages.len() && messages[end + 1].role != Role::Assistant {
        return Err(RangeError::Invalid(
            "the range must end where an answer of yours follows".into(),
        ));
    }
    if let Some(m) = messages[start..=end]
        .iter()
        .find(|m| !m.marks.prompts.is_empty() || m.marks.summary_before.is_some())
    {
        let why = if m.marks.summary_before.is_some() {
            "a compaction's summary"
        } else {
            "a prompt of the user"
        };
        return Err(RangeError::Invalid(format!(
            "the range holds {why}; cut only between the user's prompts"
        )));
    }
    // Every call in the range has its result in it, and every result its call.
    let calls: Vec<&str> = messages[start..=end]
        .iter()
        .flat_map(|m| m.tool_uses().map(|(id, _, _)| id))
        .collect();
    let results: Vec<&str> = messages[start..=end]
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
            _ => None,
        })
        .collect();
    if let Some(open) = calls.iter().find(|c| !results.contains(c)) {
        return Err(RangeError::Invalid(format!(
            "the call `{open}` in the range has no result in it"
        )));
    }
    if let Some(p) = pending.iter().find(|p| calls.contains(&p.as_str())) {
        return Err(RangeError::Pending(p.clone()));
    }
    Ok((start, end))
}

/// Checks the range in `messages` and says what it holds.
pub fn plan(
    messages: &[Message],
    from: &str,
    through: &str,
    pending: &[String],
) -> Result<PlannedRange, RangeError> {
    let (start, end) = locate(messages, from, through, pending)?;
    let range = &messages[start..=end];
    Ok(PlannedRange {
        from_tool_use_id: from.to_string(),
        through_tool_use_id: through.to_string(),
        messages: range.len(),
        calls: range.iter().map(|m| m.tool_uses().count()).sum(),
        tokens: range
            .iter()
            .map(|m| crate::model::estimate_json_tokens(&m.content))
            .sum(),
    })
}

/// The marker a range is replaced with.
pub fn marker(plan: &PlannedRange, note: &str) -> String {
    let what = format!(
        "{} messages with {} tool calls, from {} through {}, about {} tokens",
        plan.messages, plan.calls, plan.from_tool_use_id, plan.through_tool_use_id, plan.tokens
    );
    match note.trim() {
        "" => format!("{SNIP_MARKER}: {what}]"),
        note => format!("{SNIP_MARKER}: {what}; {note}]"),
    }
}

/// Cuts `snip` from `history` when it still lies there as it was checked; returns whether it did.
pub fn cut(history: &mut Vec<Message>, snip: &RangeSnip) -> bool {
    let Ok((start, end)) = locate(
        history,
        &snip.from_tool_use_id,
        &snip.through_tool_use_id,
        &[],
    ) else {
        return false;
    };
    let removed: Vec<Message> = history.drain(start..=end).collect();
    let kept_text = removed
        .last()
        .map(|m| {
            m.content
                .iter()
                .filter(|b| !matches!(b, ContentBlock::ToolResult { .. }))
                .cloned()
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let before = &mut history[start - 1];
    before.content.push(ContentBlock::Text {
        text: snip.marker.clone(),
    });
    before.content.extend(kept_text);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolResultContent;

    fn user(text: &str, prompt: Option<&str>) -> Message {
        let mut m = Message::user_text(text);
        if let Some(p) = prompt {
            m.marks.prompts.push(p.into());
        }
        m
    }

    fn calls(ids: &[&str]) -> Message {
        Message::new(
            Role::Assistant,
            ids.iter()
                .map(|id| ContentBlock::ToolUse {
                    id: (*id).into(),
                    name: "Read".into(),
                    input: serde_json::json!({"file_path": id}),
                })
                .collect(),
        )
    }

    fn results(ids: &[&str], extra: Option<&str>) -> Message {
        let mut content: Vec<ContentBlock> = ids
            .iter()
            .map(|id| ContentBlock::ToolResult {
                tool_use_id: (*id).into(),
                content: ToolResultContent::Text(format!("result of {id}")),
                is_error: false,
            })
            .collect();
        if let Some(text) = extra {
            content.push(ContentBlock::Text { text: text.into() });
        }
        Message::new(Role::User, content)
    }

    fn history() -> Vec<Message> {
        vec![
            user("fix it", Some("p1")),
            calls(&["t1"]),
            results(&["t1"], None),
            calls(&["t2", "t3"]),
            results(&["t2", "t3"], Some("<reminder>kept</reminder>")),
            calls(&["t4"]),
            results(&["t4"], None),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::Text {
                    text: "done".into(),
                }],
            ),
            user("next", Some("p2")),
            calls(&["t5"]),
            results(&["t5"], None),
        ]
    }

    /// A range's ends, the calls pending, and where it lies or what the refusal says.
    type Case = (
        &'static str,
        &'static str,
        &'static [&'static str],
        Result<(usize, usize), &'static str>,
    );

    #[test]
    fn ranges_are_checked() {
        let h = history();
        let cases: &[Case] = &[
            ("t1", "t3", &[], Ok((1, 4))),
            ("t2", "t2", &[], Ok((3, 4))),
            ("t1", "t4", &[], Ok((1, 6))),
            ("t5", "t5", &[], Ok((9, 10))),
            ("t3", "t1", &[], Err("comes before")),
            ("t1", "t5", &[], Err("a prompt of the user")),
            ("t9", "t1", &[], Err("no tool call with id `t9`")),
            ("t1", "t9", &[], Err("no tool call with id `t9`")),
            ("t5", "t5", &["t5"], Err("still pending")),
        ];
        for (from, through, pending, expected) in cases {
            let pending: Vec<String> = pending.iter().map(|p| p.to_string()).collect();
            let got = locate(&h, from, through, &pending).map_err(|e| e.to_string());
            match (expected, got) {
                (Ok(want), Ok(got)) => assert_eq!(*want, got, "{from}..{through}"),
                (Err(want), Err(got)) => assert!(got.contains(want), "{from}..{through}: {got}"),
                (want, got) => panic!("{from}..{through}: wanted {want:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn a_cut_keeps_the_roles_alternating_and_moves_the_texts_it_would_lose() {
        let mut h = history();
        let snip = RangeSnip {
            from_tool_use_id: "t1".into(),
            through_tool_use_id: "t3".into(),
            marker: format!("{SNIP_MARKER}: test]"),
        };
        assert!(cut(&mut h, &snip));
        assert_eq!(h.len(), 7);
        let roles: Vec<Role> = h.iter().map(|m| m.role).collect();
        assert!(roles.windows(2).all(|w| w[0] != w[1]), "{roles:?}");
        let first: Vec<String> = h[0]
            .content
            .iter()
            .map(|b| match b {
                ContentBlock::Text { text } => text.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            first,
            [
                "fix it",
                "[snipped by the model: test]",
                "<reminder>kept</reminder>"
            ]
        );
        assert_eq!(h[0].marks.prompts, ["p1"]);
        assert!(h[1].tool_uses().any(|(id, _, _)| id == "t4"));
        assert!(!cut(&mut h, &snip), "once gone, a range is not cut again");
    }
}
