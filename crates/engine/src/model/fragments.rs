//! Request bodies spliced from encoded parts. Each request carries the whole conversation, which grows by a few
//! messages a step and otherwise stays as it was; [`FragmentCache`] keeps each message's encoded JSON, so that a
//! request encodes only the messages the previous one did not have and copies the rest. The bytes are those a whole
//! encoding would give: a fragment is exactly the compact JSON of its message, and the parts are joined as the
//! compact encoder joins them.

use std::sync::Mutex;

use bytes::Bytes;
use serde::Serialize;

use super::Message;

/// Conversations remembered: the main one and one side conversation (a classifier or a compaction request), so that
/// a side request between two steps does not make the next step encode everything again.
const SLOTS: usize = 2;

/// The messages of one recent request and their fragments.
#[derive(Default)]
struct Slot {
    messages: Vec<Message>,
    fragments: Vec<Bytes>,
}

/// The encoded messages of recent requests of one client (one wire format).
///
/// Contract: [`FragmentCache::fragments`] returns, for each message, the bytes `encode` gives for it — taken from the
/// cache when a recent request had an equal message at the same place with only equal messages before it, else
/// encoded now. A message is compared, never assumed unchanged, so a history that was edited (a compaction, a
/// prompt merged into the last message) is encoded from the first difference on.
#[derive(Default)]
pub(super) struct FragmentCache {
    /// The most recently used first.
    slots: Mutex<Vec<Slot>>,
}

impl std::fmt::Debug for FragmentCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<usize> = match self.slots.lock() {
            Ok(slots) => slots.iter().map(|s| s.messages.len()).collect(),
            Err(_) => Vec::new(),
        };
        f.debug_struct("FragmentCache")
            .field("messages", &sizes)
            .finish()
    }
}

impl FragmentCache {
    /// The fragment of each of `messages` (see the type's contract).
    pub fn fragments(
        &self,
        messages: &[Message],
        encode: impl Fn(&Message) -> Vec<u8>,
    ) -> Vec<Bytes> {
        let mut slots = match self.slots.lock() {
            Ok(slots) => slots,
            Err(poisoned) => poisoned.into_inner(),
        };
        let found = slots
            .iter()
            .position(|s| !s.messages.is_empty() && s.messages.first() == messages.first());
        let mut slot = match found {
            Some(i) => slots.remove(i),
            None => {
                if slots.len() >= SLOTS {
                    slots.pop();
                }
                Slot::default()
            }
        };
        let shared = slot
            .messages
            .iter()
            .zip(messages)
            .take_while(|(a, b)| a == b)
            .count();
        slot.messages.truncate(shared);
        slot.fragments.truncate(shared);
        for message in &messages[shared..] {
            slot.messages.push(message.clone());
            slot.fragments.push(Bytes::from(encode(message)));
        }
        let fragments = slot.fragments.clone();
        slots.insert(0, slot);
        fragments
    }
}

/// The compact JSON of `value` (`null` if it cannot be encoded, which the engine's types never are).
pub(super) fn to_json(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec())
}

/// Appends `value` as compact JSON.
pub(super) fn push_json(out: &mut Vec<u8>, value: &impl Serialize) {
    out.extend_from_slice(&to_json(value));
}

/// Appends a JSON array of the encoded `items`; empty items (a message that becomes nothing) are left out.
pub(super) fn push_array<'a>(out: &mut Vec<u8>, items: impl IntoIterator<Item = &'a [u8]>) {
    out.push(b'[');
    let mut first = true;
    for item in items.into_iter().filter(|i| !i.is_empty()) {
        if !first {
            out.push(b',');
        }
        out.extend_from_slice(item);
        first = false;
    }
    out.push(b']');
}

/// A conversation with every kind of block, awkward strings and numbers, for the encoding tests.
#[cfg(test)]
pub(super) fn varied_history() -> Vec<Message> {
    use serde_json::json;

    use super::{ContentBlock, ImageSource, ResultBlock, Role, ToolResultContent};
    let image = || ImageSource::Base64 {
        media_type: "image/png".into(),
        data: "iVBORw0KGgo=".into(),
    };
    let msg = Message::new;
    vec![
        Message::user_text("Read a.txt and say \"hi\" 😀\n\t\\ ✓ \u{7f} \u{2028}"),
        msg(
            Role::Assistant,
            vec![
                ContentBlock::Thinking {
                    thinking: "Let me look.".into(),
                    signature: "c2ln".into(),
                },
                ContentBlock::RedactedThinking {
                    data: "cmVkYWN0ZWQ=".into(),
                },
                ContentBlock::Text {
                    text: "Reading.".into(),
                },
                ContentBlock::ToolUse {
                    id: "toolu_1".into(),
                    name: "Read".into(),
                    input: json!({"file_path": "/p/a.txt", "offset": 3, "x": 1.5, "neg": -2, "big": u64::MAX,
                                  "nested": {"z": [true, null, "é"], "a": 1e-7, "": {}}}),
                },
                ContentBlock::ToolUse {
                    id: "toolu_2".into(),
                    name: "Glob".into(),
                    input: json!({}),
                },
            ],
        ),
        msg(
            Role::User,
            vec![
                ContentBlock::ToolResult {
                    tool_use_id: "toolu_1".into(),
                    content: ToolResultContent::Text("     1\tfirst line\r\n".into()),
                    is_error: false,
                },
                ContentBlock::ToolResult {
                    tool_use_id: "toolu_2".into(),
                    content: ToolResultContent::Blocks(vec![
                        ResultBlock::Text {
                            text: "a picture".into(),
                        },
                        ResultBlock::Image { source: image() },
                    ]),
                    is_error: true,
                },
                ContentBlock::Text {
                    text: "and then?".into(),
                },
            ],
        ),
        msg(
            Role::Assistant,
            vec![ContentBlock::Text {
                text: "Here it is.".into(),
            }],
        ),
        msg(
            Role::User,
            vec![
                ContentBlock::Image { source: image() },
                ContentBlock::Text {
                    text: "What is this?".into(),
                },
            ],
        ),
        msg(
            Role::Assistant,
            vec![ContentBlock::ToolUse {
                id: "toolu_3".into(),
                name: "Read".into(),
                input: json!({"file_path": "/p/b.txt"}),
            }],
        ),
        msg(
            Role::User,
            vec![ContentBlock::ToolResult {
                tool_use_id: "toolu_3".into(),
                content: ToolResultContent::Text(String::new()),
                is_error: false,
            }],
        ),
        msg(Role::Assistant, vec![]),
        msg(Role::User, vec![]),
        Message::user_text("Go on."),
    ]
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::model::Role;

    #[test]
    fn encodes_only_what_a_recent_request_did_not_have() {
        let cache = FragmentCache::default();
        let encoded = AtomicUsize::new(0);
        let encode = |m: &Message| {
            encoded.fetch_add(1, Ordering::Relaxed);
            to_json(m)
        };
        let mut history: Vec<Message> = (0..5)
            .map(|i| Message::user_text(format!("m{i}")))
            .collect();
        let want = |h: &[Message]| h.iter().map(to_json).collect::<Vec<_>>();
        let got = |f: Vec<Bytes>| f.iter().map(|b| b.to_vec()).collect::<Vec<_>>();

        assert_eq!(got(cache.fragments(&history, encode)), want(&history));
        assert_eq!(encoded.swap(0, Ordering::Relaxed), 5);
        history.push(Message::new(Role::Assistant, vec![]));
        assert_eq!(got(cache.fragments(&history, encode)), want(&history));
        assert_eq!(encoded.swap(0, Ordering::Relaxed), 1);

        // A side conversation does not evict the main one.
        let side = vec![Message::user_text("classify this")];
        assert_eq!(got(cache.fragments(&side, encode)), want(&side));
        assert_eq!(got(cache.fragments(&history, encode)), want(&history));
        assert_eq!(encoded.swap(0, Ordering::Relaxed), 1);

        // An edited message is encoded again, and everything after it.
        history[3] = Message::user_text("changed");
        assert_eq!(got(cache.fragments(&history, encode)), want(&history));
        assert_eq!(encoded.swap(0, Ordering::Relaxed), 3);
    }

    #[test]
    fn arrays_join_like_the_encoder() {
        let mut out = Vec::new();
        push_array(&mut out, [&b"1"[..], b"", b"{\"a\":2}"]);
        assert_eq!(
            out,
            serde_json::to_vec(&serde_json::json!([1, {"a": 2}])).expect("json")
        );
        let mut out = Vec::new();
        push_array(&mut out, std::iter::empty());
        assert_eq!(out, b"[]");
    }
}
