//! The spending budget in the person's Tandem settings file: a limit in dollars per UTC day and/or per UTC month,
//! the share at which the person is warned, and whether reaching a limit only warns or stops turns.
//!
//! ```json
//! { "budget": { "dailyUsd": 5, "monthlyUsd": 100, "warnPercent": 80, "onLimit": "stop" } }
//! ```

use serde_json::{Map, Value};
use tandem_protocol::BudgetAction;

/// The share of a budget at which the person is warned when the file names none.
pub const DEFAULT_WARN_PERCENT: u32 = 80;

/// The budget as the settings file sets it. A limit that is missing, not a positive number, or of the wrong type is
/// no limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BudgetSettings {
    pub daily_usd: Option<f64>,
    pub monthly_usd: Option<f64>,
    /// 1–100; other values are read as [`DEFAULT_WARN_PERCENT`].
    pub warn_percent: u32,
    pub on_limit: BudgetAction,
}

impl Default for BudgetSettings {
    fn default() -> Self {
        Self {
            daily_usd: None,
            monthly_usd: None,
            warn_percent: DEFAULT_WARN_PERCENT,
            on_limit: BudgetAction::Warn,
        }
    }
}

impl BudgetSettings {
    /// Whether any limit is set.
    pub fn is_set(&self) -> bool {
        self.daily_usd.is_some() || self.monthly_usd.is_some()
    }

    /// The `budget` key of a settings file's object.
    pub fn from_settings(object: &Map<String, Value>) -> Self {
        let Some(Value::Object(budget)) = object.get("budget") else {
            return Self::default();
        };
        let limit = |key: &str| {
            budget
                .get(key)
                .and_then(Value::as_f64)
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        Self {
            daily_usd: limit("dailyUsd"),
            monthly_usd: limit("monthlyUsd"),
            warn_percent: budget
                .get("warnPercent")
                .and_then(Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| (1..=100).contains(v))
                .unwrap_or(DEFAULT_WARN_PERCENT),
            on_limit: match budget.get("onLimit").and_then(Value::as_str) {
                Some("stop") => BudgetAction::Stop,
                _ => BudgetAction::Warn,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_budget_key() {
        let cases = [
            (json!({}), BudgetSettings::default()),
            (
                json!({"budget": {"dailyUsd": 5, "monthlyUsd": 100.5, "warnPercent": 90, "onLimit": "stop"}}),
                BudgetSettings {
                    daily_usd: Some(5.0),
                    monthly_usd: Some(100.5),
                    warn_percent: 90,
                    on_limit: BudgetAction::Stop,
                },
            ),
            (
                json!({"budget": {"dailyUsd": -1, "monthlyUsd": "10", "warnPercent": 0, "onLimit": "halt"}}),
                BudgetSettings::default(),
            ),
            (json!({"budget": 5}), BudgetSettings::default()),
        ];
        for (file, want) in cases {
            let Value::Object(object) = file else {
                panic!("not an object")
            };
            assert_eq!(BudgetSettings::from_settings(&object), want, "{object:?}");
        }
    }
}
