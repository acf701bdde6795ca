//! A completed request as the store records it ([`MeteredRequest`]), and what each tool result in it cost to carry:
//! the request's reported input split by where each result sits in it (cache reads first, then cache writes, then
//! fresh input), at the request's model's prices.
//!
//! The provider reports only totals per request: `cache_read_input_tokens` (the cached prefix), then
//! `cache_creation_input_tokens` (written to the cache, up to the last breakpoint) and `input_tokens` (the rest),
//! in the order the request is read: tools, system prompt, messages. The place of each block is estimated (its
//! JSON's length / 4; an image in a result as [`IMAGE_TOKENS`]) and scaled so that the whole request's estimate
//! equals the reported input; a result's tokens are then priced by the range each falls in.

use std::collections::HashMap;

use tandem_protocol::Usage;

use crate::model::pricing::{self, Price};
use crate::model::{ContentBlock, ModelRequest, ResultBlock, ToolResultContent};

/// The estimate for one image in a tool result (about what a screenshot of 1,000 × 1,000 pixels costs).
pub const IMAGE_TOKENS: f64 = 1_300.0;

/// A cache read costs this share of the input price, a cache write this multiple.
pub const CACHE_READ_SHARE: f64 = 0.1;
pub const CACHE_WRITE_SHARE: f64 = 1.25;

/// One completed request, as the store records it.
#[derive(Debug, Clone, PartialEq)]
pub struct MeteredRequest {
    pub model: String,
    pub usage: tandem_protocol::Usage,
    pub cost_usd: f64,
    pub carries: Vec<Carry>,
}

/// One tool result as one request carried it.
#[derive(Debug, Clone, PartialEq)]
pub struct Carry {
    pub tool_use_id: String,
    /// The tool's name (from the call in the same request; empty when the call is not in it).
    pub name: String,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    pub fresh_tokens: u64,
    pub cost_usd: f64,
}

impl Carry {
    pub fn tokens(&self) -> u64 {
        self.cache_read_tokens + self.cache_write_tokens + self.fresh_tokens
    }
}

fn json_tokens<T: serde::Serialize>(value: &T) -> f64 {
    serde_json::to_string(value).map_or(0.0, |s| s.len() as f64 / 4.0)
}

/// The estimated tokens of one block.
fn block_tokens(block: &ContentBlock) -> f64 {
    match block {
        ContentBlock::ToolResult { content, .. } => match content {
            ToolResultContent::Text(text) => json_tokens(text),
            ToolResultContent::Blocks(blocks) => blocks
                .iter()
                .map(|b| match b {
                    ResultBlock::Text { text } => json_tokens(text),
                    ResultBlock::Image { .. } => IMAGE_TOKENS,
                })
                .sum(),
        },
        ContentBlock::Image { .. } => IMAGE_TOKENS,
        other => json_tokens(other),
    }
}

/// The tokens of `[start, end)` in each of the three ranges of the request's input.
fn split(start: f64, end: f64, read: f64, write: f64) -> (f64, f64, f64) {
    let overlap = |lo: f64, hi: f64| (end.min(hi) - start.max(lo)).max(0.0);
    (
        overlap(0.0, read),
        overlap(read, read + write),
        overlap(read + write, f64::INFINITY),
    )
}

/// Where each tool result sits in a request, in estimated tokens: taken before the request is sent, priced once
/// its response reports the usage.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    model: String,
    /// The whole request's estimate.
    estimated: f64,
    /// Each result: its call's id, the tool's name, and its estimated start and end.
    results: Vec<(String, String, f64, f64)>,
}

impl Layout {
    pub fn of(request: &ModelRequest) -> Self {
        let mut at = json_tokens(&request.tools) + json_tokens(&request.system);
        let mut names: HashMap<&str, &str> = HashMap::new();
        let mut results = Vec::new();
        for block in request.messages.iter().flat_map(|m| m.content.iter()) {
            let end = at + block_tokens(block);
            match block {
                ContentBlock::ToolUse { id, name, .. } => {
                    names.insert(id, name);
                }
                ContentBlock::ToolResult { tool_use_id, .. } => {
                    let name = names.get(tool_use_id.as_str()).copied().unwrap_or_default();
                    results.push((tool_use_id.clone(), name.to_string(), at, end));
                }
                _ => {}
            }
            at = end;
        }
        Self {
            model: request.model.clone(),
            estimated: at,
            results,
        }
    }

    /// Whether the request carried any tool result.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// What each result cost, given the usage the response reported. Empty when the request carried no tool result
    /// or reported no input.
    pub fn carries(&self, usage: &Usage) -> Vec<Carry> {
        let reported = (usage.input_tokens
            + usage.cache_creation_input_tokens
            + usage.cache_read_input_tokens) as f64;
        if reported <= 0.0 || self.estimated <= 0.0 {
            return Vec::new();
        }
        let price = pricing::price_of(&self.model);
        let scale = reported / self.estimated;
        let read = usage.cache_read_input_tokens as f64;
        let write = usage.cache_creation_input_tokens as f64;
        self.results
            .iter()
            .map(|(id, name, start, end)| {
                let (r, w, f) = split(start * scale, end * scale, read, write);
                Carry {
                    tool_use_id: id.clone(),
                    name: name.clone(),
                    cache_read_tokens: r.round() as u64,
                    cache_write_tokens: w.round() as u64,
                    fresh_tokens: f.round() as u64,
                    cost_usd: cost(price, r, w, f),
                }
            })
            .collect()
    }
}

/// What each tool result in `request` cost, given the usage its response reported.
pub fn carries(request: &ModelRequest, usage: &Usage) -> Vec<Carry> {
    Layout::of(request).carries(usage)
}

fn cost(price: Option<Price>, read: f64, write: f64, fresh: f64) -> f64 {
    let Some(p) = price else { return 0.0 };
    (read * CACHE_READ_SHARE + write * CACHE_WRITE_SHARE + fresh) * p.input / 1_000_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Message, Role};
    use serde_json::json;

    fn request(result_text: &str) -> ModelRequest {
        ModelRequest {
            model: "claude-sonnet-4-5".into(),
            max_tokens: 100,
            system: vec![],
            messages: vec![
                Message::user_text("hi"),
                Message::new(
                    Role::Assistant,
                    vec![ContentBlock::ToolUse {
                        id: "t1".into(),
                        name: "Read".into(),
                        input: json!({}),
                    }],
                ),
                Message::new(
                    Role::User,
                    vec![ContentBlock::ToolResult {
                        tool_use_id: "t1".into(),
                        content: ToolResultContent::Text(result_text.into()),
                        is_error: false,
                    }],
                ),
            ],
            tools: vec![],
            thinking: None,
        }
    }

    fn usage(fresh: u64, write: u64, read: u64) -> Usage {
        Usage {
            input_tokens: fresh,
            output_tokens: 0,
            cache_creation_input_tokens: write,
            cache_read_input_tokens: read,
        }
    }

    #[test]
    fn a_result_is_priced_by_the_range_it_falls_in() {
        // The result is nearly the whole request, at its end.
        let req = request(&"x".repeat(400_000));
        let total = 100_000u64;
        let cases = [
            // (fresh, write, read) → which share the result mostly lands in
            (usage(total, 0, 0), "fresh"),
            (usage(0, 0, total), "read"),
            (usage(0, total, 0), "write"),
        ];
        for (u, expect) in cases {
            let c = &carries(&req, &u)[0];
            assert_eq!(c.name, "Read");
            let tokens = c.tokens() as f64;
            assert!(
                tokens > 0.99 * total as f64 && tokens <= total as f64 + 1.0,
                "{c:?}"
            );
            let (share, dominant) = match expect {
                "fresh" => (1.0, c.fresh_tokens),
                "read" => (CACHE_READ_SHARE, c.cache_read_tokens),
                _ => (CACHE_WRITE_SHARE, c.cache_write_tokens),
            };
            assert_eq!(dominant, c.tokens(), "{expect}: {c:?}");
            let want = tokens * share * 3.0 / 1_000_000.0;
            assert!(
                (c.cost_usd - want).abs() < 1e-6,
                "{expect}: {} vs {want}",
                c.cost_usd
            );
        }
    }

    #[test]
    fn a_result_after_the_cached_prefix_is_fresh() {
        // A system prompt as large as the result: the cached prefix (the first half) covers it, the result is in
        // the second half.
        let mut req = request(&"x".repeat(4_000));
        req.system = vec!["s".repeat(4_000)];
        let c = &carries(&req, &usage(1_000, 0, 1_000))[0];
        assert_eq!(c.cache_read_tokens, 0, "{c:?}");
        assert!(c.fresh_tokens > 950, "{c:?}");
        // With the whole request cached, the same result is all cache reads.
        let c = &carries(&req, &usage(0, 0, 2_000))[0];
        assert_eq!((c.fresh_tokens, c.cache_write_tokens), (0, 0), "{c:?}");
        assert!(c.cache_read_tokens > 950, "{c:?}");
    }

    #[test]
    fn nothing_without_results_or_input() {
        let mut req = request("x");
        assert!(carries(&req, &usage(0, 0, 0)).is_empty());
        req.messages.truncate(1);
        assert!(carries(&req, &usage(10, 0, 0)).is_empty());
    }

    #[test]
    fn unknown_models_cost_nothing_but_count_tokens() {
        let mut req = request(&"x".repeat(4_000));
        req.model = "qwen2.5-coder:7b".into();
        let c = &carries(&req, &usage(1_000, 0, 0))[0];
        assert_eq!(c.cost_usd, 0.0);
        assert!(c.fresh_tokens > 900);
    }
}
