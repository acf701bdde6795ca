//! Repair of a stored history whose last turn was cut off, so that the next request to the model is valid.

use crate::model::{ContentBlock, Message, Role, ToolResultContent};

/// The result given to a tool_use that never got one.
pub const INTERRUPTED_RESULT: &str =
    "The tool call was interrupted (Tandem stopped before it finished).";

fn interrupted(id: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_string(),
        content: ToolResultContent::Text(INTERRUPTED_RESULT.into()),
        is_error: true,
    }
}

/// Makes every `tool_use` answered: each assistant message with tool_use blocks must be followed by a user message
/// that starts with exactly one `tool_result` per id, in call order.
///
/// - No following message (Tandem stopped while the tools ran or waited for approval), or an assistant message
///   follows: a synthetic user message with an [`INTERRUPTED_RESULT`] (`is_error: true`) per id is inserted.
/// - A following user message that misses some results: the missing ones are added, the leading results are put in
///   call order, the rest of the message is kept after them.
///
/// A trailing user message is kept as it is: the next prompt merges into it. Partial assistant text is not in the
/// stored history (only completed messages are stored there; loading puts the streamed text back first), so nothing
/// else needs undoing. Returns how many results were synthesised.
pub fn repair_history(history: &mut Vec<Message>) -> usize {
    let mut added = 0;
    let mut i = 0;
    while i < history.len() {
        if history[i].role != Role::Assistant {
            i += 1;
            continue;
        }
        let ids: Vec<String> = history[i]
            .tool_uses()
            .map(|(id, _, _)| id.to_string())
            .collect();
        if ids.is_empty() {
            i += 1;
            continue;
        }
        let next_is_user = history.get(i + 1).is_some_and(|m| m.role == Role::User);
        if !next_is_user {
            added += ids.len();
            let results = ids.iter().map(|id| interrupted(id)).collect();
            history.insert(i + 1, Message::new(Role::User, results));
        } else {
            added += answer_missing(&mut history[i + 1], &ids);
        }
        i += 2;
    }
    added
}

/// Rebuilds the leading tool results of `next` in the order of `ids`, adding the missing ones.
fn answer_missing(next: &mut Message, ids: &[String]) -> usize {
    let leading = next
        .content
        .iter()
        .take_while(|b| matches!(b, ContentBlock::ToolResult { .. }))
        .count();
    let mut existing: Vec<ContentBlock> = next.content.drain(..leading).collect();
    let mut rebuilt = Vec::with_capacity(ids.len());
    let mut added = 0;
    for id in ids {
        let found = existing.iter().position(
            |b| matches!(b, ContentBlock::ToolResult { tool_use_id, .. } if tool_use_id == id),
        );
        match found {
            Some(at) => rebuilt.push(existing.remove(at)),
            None => {
                added += 1;
                rebuilt.push(interrupted(id));
            }
        }
    }
    // Leading results for ids the assistant did not call (left in `existing`) would make the request invalid: dropped.
    rebuilt.append(&mut next.content);
    next.content = rebuilt;
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_text_only_history_alone() {
        let mut h = vec![
            Message::user_text("hi"),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::Text { text: "yo".into() }],
            ),
        ];
        let before = h.clone();
        assert_eq!(repair_history(&mut h), 0);
        assert_eq!(h, before);
    }
}
