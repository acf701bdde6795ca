//! What fills a conversation's context, computed from the last request sent: the system prompt, each tool
//! definition, each message with its blocks (tool calls and results named by id and tool), and the totals per tool,
//! all in estimated tokens ([`crate::model::estimate_json_tokens`]), beside the model's own count of the last request
//! it answered. CtxInspect shows it; anything else that reports the context (a command for the person) shares it.

use std::collections::HashMap;

use crate::model::{ContentBlock, Role, estimate_json_tokens, estimate_text_tokens};
use crate::tool::conversation::{ModelCount, SentRequest, is_snipped};

/// One block of a message, sized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text,
    Thinking,
    Image,
    ToolUse {
        id: String,
        tool: String,
    },
    ToolResult {
        id: String,
        tool: String,
        snipped: bool,
    },
    /// A tool the provider ran (web search) and its results.
    ServerTool,
}

/// One message, sized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSize {
    /// Its place in the conversation (0 first).
    pub index: usize,
    pub role: Role,
    pub tokens: u64,
    /// Its blocks in order, each with its tokens.
    pub parts: Vec<(Part, u64)>,
}

/// One tool's share of the messages: its calls' inputs and results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolShare {
    pub tool: String,
    pub calls: usize,
    pub tokens: u64,
}

/// The context of one request, sized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextBreakdown {
    pub context_window: u64,
    pub system_tokens: u64,
    /// Each tool definition sent, with its tokens, in the order sent.
    pub tools: Vec<(String, u64)>,
    pub messages: Vec<MessageSize>,
    /// The model's count of the last request it answered, if any.
    pub counted: Option<ModelCount>,
}

impl ContextBreakdown {
    /// The breakdown of `sent`, with the model's count `counted`.
    pub fn of(sent: &SentRequest, counted: Option<ModelCount>) -> Self {
        let names: HashMap<&str, &str> = sent
            .messages
            .iter()
            .flat_map(|m| m.tool_uses())
            .map(|(id, name, _)| (id, name))
            .collect();
        let tool_of = |id: &str| names.get(id).copied().unwrap_or("?").to_string();
        let messages = sent
            .messages
            .iter()
            .enumerate()
            .map(|(index, message)| MessageSize {
                index,
                role: message.role,
                tokens: estimate_json_tokens(message),
                parts: message
                    .content
                    .iter()
                    .map(|block| (part_of(block, &tool_of), estimate_json_tokens(block)))
                    .collect(),
            })
            .collect();
        Self {
            context_window: sent.context_window,
            system_tokens: sent.system.iter().map(|s| estimate_text_tokens(s)).sum(),
            tools: sent
                .tools
                .iter()
                .map(|t| (t.name.clone(), estimate_json_tokens(t)))
                .collect(),
            messages,
            counted,
        }
    }

    pub fn tool_tokens(&self) -> u64 {
        self.tools.iter().map(|(_, t)| t).sum()
    }

    pub fn message_tokens(&self) -> u64 {
        self.messages.iter().map(|m| m.tokens).sum()
    }

    /// The estimated size of the whole request.
    pub fn estimated_total(&self) -> u64 {
        self.system_tokens + self.tool_tokens() + self.message_tokens()
    }

    /// The model's count of the last request it answered plus the estimate of the messages sent after it, as the
    /// query loop judges compaction (`None` before the first answer).
    pub fn counted_total(&self) -> Option<u64> {
        let counted = self.counted?;
        let since: u64 = self
            .messages
            .iter()
            .skip(counted.messages)
            .map(|m| m.tokens)
            .sum();
        Some(counted.input_tokens + since)
    }

    /// Each tool's share of the messages (its calls' inputs and results), largest first.
    pub fn by_tool(&self) -> Vec<ToolShare> {
        let mut shares: Vec<ToolShare> = Vec::new();
        for (part, tokens) in self.messages.iter().flat_map(|m| m.parts.iter()) {
            let (tool, call) = match part {
                Part::ToolUse { tool, .. } => (tool, true),
                Part::ToolResult { tool, .. } => (tool, false),
                _ => continue,
            };
            match shares.iter_mut().find(|s| &s.tool == tool) {
                Some(share) => {
                    share.tokens += tokens;
                    share.calls += usize::from(call);
                }
                None => shares.push(ToolShare {
                    tool: tool.clone(),
                    calls: usize::from(call),
                    tokens: *tokens,
                }),
            }
        }
        shares.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.tool.cmp(&b.tool)));
        shares
    }
}

fn part_of(block: &ContentBlock, tool_of: &impl Fn(&str) -> String) -> Part {
    match block {
        ContentBlock::Text { .. } => Part::Text,
        ContentBlock::Thinking { .. } | ContentBlock::RedactedThinking { .. } => Part::Thinking,
        ContentBlock::Image { .. } => Part::Image,
        ContentBlock::ToolUse { id, name, .. } => Part::ToolUse {
            id: id.clone(),
            tool: name.clone(),
        },
        ContentBlock::ToolResult {
            tool_use_id,
            content,
            ..
        } => Part::ToolResult {
            id: tool_use_id.clone(),
            tool: tool_of(tool_use_id),
            snipped: is_snipped(content),
        },
        ContentBlock::ServerToolUse { .. } | ContentBlock::WebSearchToolResult { .. } => {
            Part::ServerTool
        }
    }
}
