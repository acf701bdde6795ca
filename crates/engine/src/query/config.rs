//! The limits and fixed parts of every request a turn sends, and when to compact: apart from the turn and from
//! compaction so that both (and each step) read them without importing each other.

use crate::exec::max_concurrency_from_env;

/// Limits and fixed parts of each request.
#[derive(Debug, Clone)]
pub struct QueryConfig {
    pub max_tokens: u32,
    /// Model requests allowed in one turn.
    pub max_turns: u32,
    pub system: Vec<String>,
    /// How many concurrency-safe tool calls may run at once.
    pub max_concurrency: usize,
    /// Where results too large for the model are saved (the session's `tool-results/` folder).
    pub results_dir: std::path::PathBuf,
    /// When the conversation is compacted.
    pub compaction: CompactionPolicy,
    /// Asked before each request whether a spending budget lets the turn go on.
    pub budget: super::BudgetDoor,
}

impl Default for QueryConfig {
    fn default() -> Self {
        Self {
            max_tokens: 16_000,
            max_turns: 100,
            system: Vec::new(),
            max_concurrency: max_concurrency_from_env(),
            results_dir: std::env::temp_dir().join("tandem-tool-results"),
            compaction: CompactionPolicy::default(),
            budget: super::BudgetDoor::default(),
        }
    }
}

/// When to compact and what to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionPolicy {
    /// The model's context window in tokens.
    pub context_window: u64,
    /// Compact when the conversation is estimated to fill this percentage of the window.
    pub threshold_percent: u64,
    /// How many of the latest prompts (with everything after them) are kept verbatim.
    pub keep_recent_prompts: usize,
}

impl Default for CompactionPolicy {
    fn default() -> Self {
        Self {
            context_window: 200_000,
            threshold_percent: 80,
            keep_recent_prompts: 2,
        }
    }
}
