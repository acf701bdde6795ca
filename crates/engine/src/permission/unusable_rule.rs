//! A deny or ask rule that does not parse, and the tools it might have been written for.

use super::rule::{READ_TOOLS, RuleBehavior, RuleSource, ToolPattern, WRITE_TOOLS};
use crate::tool::names;

/// A deny or ask rule that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusableRule {
    /// The text as written.
    pub text: String,
    pub behavior: RuleBehavior,
    pub source: RuleSource,
    /// The tools its text names; `None` when it names none that can be read, so it may be meant for any.
    pub tool: Option<ToolPattern>,
    /// Why it cannot be used.
    pub why: String,
}

impl UnusableRule {
    /// Whether the rule might have been written for a call of `tool`: the tool it names, and for a rule naming a
    /// tool that reads or writes files, every tool that does and the shell (path rules govern them all).
    pub fn might_cover(&self, tool: &str) -> bool {
        let Some(pattern) = &self.tool else {
            return true;
        };
        if pattern.matches(tool) {
            return true;
        }
        let path_tools = || READ_TOOLS.iter().chain(WRITE_TOOLS);
        path_tools().any(|t| pattern.matches(t))
            && (tool == names::BASH || path_tools().any(|t| *t == tool))
    }
}
