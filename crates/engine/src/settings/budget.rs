//! The spending budget in the person's Tandem settings file: a limit in dollars per UTC day and/or per UTC month,
//! the share at which the person is warned, and whether reaching a limit only warns or stops turns.
//!
//! ```json
//! { "budget": { "dailyUsd": 5, "monthlyUsd": 100, "warnPercent": 80, "onLimit": "stop" } }
//! ```

use serde_json::{Map, Value};
use tandem_protocol::{BudgetAction, BudgetLimits};

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

impl From<BudgetSettings> for BudgetLimits {
    fn from(b: BudgetSettings) -> Self {
        Self {
            daily_usd: b.daily_usd,
            monthly_usd: b.monthly_usd,
            warn_percent: b.warn_percent,
            on_limit: b.on_limit,
        }
    }
}

/// Why a budget the settings dialog saves is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadBudget {
    #[error("the {0} budget must be a positive number of dollars (leave it empty for none)")]
    Limit(&'static str),
    #[error("the warning share must be a whole percent from 1 to 100")]
    WarnPercent,
}

/// Checks `limits` and writes them into the settings file's `object` as its `budget` key, keeping any other key in
/// it; a limit left out (`None`) is removed. Nothing is changed when a value is refused.
pub fn put_budget(object: &mut Map<String, Value>, limits: &BudgetLimits) -> Result<(), BadBudget> {
    for (name, limit) in [("daily", limits.daily_usd), ("monthly", limits.monthly_usd)] {
        if limit.is_some_and(|v| !v.is_finite() || v <= 0.0) {
            return Err(BadBudget::Limit(name));
        }
    }
    if !(1..=100).contains(&limits.warn_percent) {
        return Err(BadBudget::WarnPercent);
    }
    let mut budget = match object.remove("budget") {
        Some(Value::Object(budget)) => budget,
        _ => Map::new(),
    };
    for (key, limit) in [
        ("dailyUsd", limits.daily_usd),
        ("monthlyUsd", limits.monthly_usd),
    ] {
        match limit {
            Some(v) => budget.insert(key.into(), Value::from(v)),
            None => budget.remove(key),
        };
    }
    budget.insert("warnPercent".into(), Value::from(limits.warn_percent));
    let action = match limits.on_limit {
        BudgetAction::Warn => "warn",
        BudgetAction::Stop => "stop",
    };
    budget.insert("onLimit".into(), Value::from(action));
    object.insert("budget".into(), Value::Object(budget));
    Ok(())
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

    #[test]
    fn puts_a_budget_that_reads_back_or_refuses_it() {
        let limits = |daily, monthly, warn_percent| BudgetLimits {
            daily_usd: daily,
            monthly_usd: monthly,
            warn_percent,
            on_limit: BudgetAction::Stop,
        };
        let good = [
            limits(Some(5.0), Some(100.5), 90),
            limits(None, Some(20.0), 1),
            limits(Some(0.01), None, 100),
            limits(None, None, 80),
        ];
        for want in good {
            let Value::Object(mut object) =
                json!({"theme": "dark", "budget": {"dailyUsd": 3, "note": "kept"}})
            else {
                panic!("not an object")
            };
            put_budget(&mut object, &want).expect("saved");
            assert_eq!(
                BudgetLimits::from(BudgetSettings::from_settings(&object)),
                want
            );
            assert_eq!(object["budget"]["note"], "kept");
            assert_eq!(object["theme"], "dark");
        }
        let bad = [
            (limits(Some(0.0), None, 80), BadBudget::Limit("daily")),
            (limits(Some(-2.0), None, 80), BadBudget::Limit("daily")),
            (
                limits(None, Some(f64::NAN), 80),
                BadBudget::Limit("monthly"),
            ),
            (
                limits(None, Some(f64::INFINITY), 80),
                BadBudget::Limit("monthly"),
            ),
            (limits(Some(5.0), None, 0), BadBudget::WarnPercent),
            (limits(Some(5.0), None, 101), BadBudget::WarnPercent),
        ];
        for (limits, want) in bad {
            let Value::Object(mut object) = json!({"budget": {"dailyUsd": 3}}) else {
                panic!("not an object")
            };
            assert_eq!(put_budget(&mut object, &limits), Err(want), "{limits:?}");
            assert_eq!(object["budget"]["dailyUsd"], 3, "unchanged");
        }
    }
}
