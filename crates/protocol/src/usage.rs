//! What the work cost: the usage report (totals, by day, by folder, by model, the costliest sessions and tool calls)
//! and the budget's state, as the command line prints them and the window's usage view shows them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Tokens and dollars of some model requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct UsageTotals {
    /// Model requests counted.
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    #[ts(type = "number")]
    pub cache_creation_input_tokens: u64,
    #[ts(type = "number")]
    pub cache_read_input_tokens: u64,
    /// At list prices; 0 for models without a known price.
    pub cost_usd: f64,
}

/// The totals of one day (`YYYY-MM-DD`, UTC), folder or model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct UsageRow {
    pub key: String,
    pub totals: UsageTotals,
}

/// The totals of one session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionUsage {
    pub session_id: String,
    pub title: String,
    pub folder: String,
    pub totals: UsageTotals,
}

/// What one tool call's result cost in the requests that carried it after the call (an estimate: see the usage
/// page of the documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ToolCallCost {
    pub session_id: String,
    pub tool_use_id: String,
    /// The tool's name.
    pub name: String,
    /// The result's size in tokens, as estimated in the last request that carried it.
    #[ts(type = "number")]
    pub result_tokens: u64,
    /// The requests that carried it.
    #[ts(type = "number")]
    pub requests: u64,
    /// Its tokens over those requests, by how each request paid for them.
    #[ts(type = "number")]
    pub cache_read_tokens: u64,
    #[ts(type = "number")]
    pub cache_write_tokens: u64,
    #[ts(type = "number")]
    pub fresh_tokens: u64,
    pub cost_usd: f64,
}

/// The usage of the requests made since a day (UTC), in one folder or all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct UsageReport {
    /// The first day counted (`YYYY-MM-DD`, UTC); `None`: from the start.
    pub since: Option<String>,
    /// The folder counted; `None`: every folder.
    pub folder: Option<String>,
    pub totals: UsageTotals,
    /// Oldest first; days without requests are left out.
    pub by_day: Vec<UsageRow>,
    /// Costliest first.
    pub by_folder: Vec<UsageRow>,
    /// Costliest first.
    pub by_model: Vec<UsageRow>,
    /// The costliest sessions, at most [`UsageReport::TOP`].
    pub sessions: Vec<SessionUsage>,
    /// The costliest tool calls, at most [`UsageReport::TOP`].
    pub tool_calls: Vec<ToolCallCost>,
    /// The budgets set in the settings, with what was spent in their period.
    pub budgets: Vec<BudgetStatus>,
}

impl UsageReport {
    /// How many sessions and tool calls the report lists.
    pub const TOP: usize = 10;
}

/// The period a budget covers (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum BudgetPeriod {
    Day,
    Month,
}

/// What happens when a budget is reached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum BudgetAction {
    /// The person is told; turns go on.
    #[default]
    Warn,
    /// The running turn ends before its next model request, and no turn makes one until the period ends.
    Stop,
}

/// The spending budget as the settings dialog edits it (the settings file's `budget` key).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct BudgetLimits {
    /// The most to spend in one UTC day, in dollars; `None`: no daily budget.
    pub daily_usd: Option<f64>,
    /// The most to spend in one UTC calendar month, in dollars; `None`: no monthly budget.
    pub monthly_usd: Option<f64>,
    /// The share of a budget at which the person is warned (1–100).
    pub warn_percent: u32,
    pub on_limit: BudgetAction,
}

impl BudgetLimits {
    /// The share at which the person is warned when the settings name none.
    pub const DEFAULT_WARN_PERCENT: u32 = 80;
}

impl Default for BudgetLimits {
    fn default() -> Self {
        Self {
            daily_usd: None,
            monthly_usd: None,
            warn_percent: Self::DEFAULT_WARN_PERCENT,
            on_limit: BudgetAction::Warn,
        }
    }
}

/// A budget and what was spent in its current period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct BudgetStatus {
    pub period: BudgetPeriod,
    pub limit_usd: f64,
    pub spent_usd: f64,
    /// The share of the budget at which the person is warned (percent).
    pub warn_percent: u32,
    pub on_limit: BudgetAction,
}

impl BudgetStatus {
    /// Whether what was spent reached the warning's share.
    pub fn warned(&self) -> bool {
        self.limit_usd > 0.0
            && self.spent_usd * 100.0 >= self.limit_usd * f64::from(self.warn_percent)
    }

    /// Whether what was spent reached the budget.
    pub fn reached(&self) -> bool {
        self.limit_usd > 0.0 && self.spent_usd >= self.limit_usd
    }
}
