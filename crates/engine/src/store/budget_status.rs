//! What was spent in each budget's current period (UTC day, UTC month), from the recorded requests of every session.

use tandem_protocol::{BudgetPeriod, BudgetStatus};

use super::StoreError;
use super::session_store::SessionStore;
use super::usage_report::period_starts;
use crate::settings::BudgetSettings;

impl SessionStore {
    /// Each budget `settings` sets, with what every session spent in its period holding `now_ms` (counting every
    /// request written before). Empty when no limit is set.
    pub fn budget_statuses(
        &self,
        settings: &BudgetSettings,
        now_ms: i64,
    ) -> Result<Vec<BudgetStatus>, StoreError> {
        let (day, month) = period_starts(now_ms);
        let mut out = Vec::new();
        for (period, limit, from) in [
            (BudgetPeriod::Day, settings.daily_usd, day),
            (BudgetPeriod::Month, settings.monthly_usd, month),
        ] {
            let Some(limit_usd) = limit else { continue };
            out.push(BudgetStatus {
                period,
                limit_usd,
                spent_usd: self.spent_since(from)?,
                warn_percent: settings.warn_percent,
                on_limit: settings.on_limit,
            });
        }
        Ok(out)
    }
}
