//! [`BudgetWatch`]: the session's [`BudgetGate`]: what every session spent today and this month (UTC) against the
//! budget in the person's settings; a warning event once per budget and period, and a stop when the person chose it.
//! The budget can be changed while the session is open ([`BudgetWatch::set_settings`]).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tandem_protocol::{BudgetAction, BudgetPeriod, BudgetStatus, SessionEvent};

use crate::events::EventSink;
use crate::query::BudgetGate;
use crate::settings::BudgetSettings;
use crate::store::{SessionStore, period_starts};

/// Watches the budget for one session (its sub-agents share it).
pub struct BudgetWatch {
    store: Arc<SessionStore>,
    settings: Mutex<BudgetSettings>,
    events: Arc<dyn EventSink>,
    /// The warnings sent: budget, start of its period, whether it was the limit itself.
    sent: Mutex<HashSet<(BudgetPeriod, i64, bool)>>,
}

impl BudgetWatch {
    pub fn new(
        store: Arc<SessionStore>,
        settings: BudgetSettings,
        events: Arc<dyn EventSink>,
    ) -> Self {
        Self {
            store,
            settings: Mutex::new(settings),
            events,
            sent: Mutex::new(HashSet::new()),
        }
    }

    /// Watches `settings` from the next request on (the person saved a new budget).
    pub fn set_settings(&self, settings: BudgetSettings) {
        *self
            .settings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = settings;
    }

    /// The budgets now, after every request written is committed; empty when no budget is set or what was spent
    /// cannot be read.
    async fn statuses(&self) -> Vec<BudgetStatus> {
        let settings = *self
            .settings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !settings.is_set() {
            return Vec::new();
        }
        if let Err(err) = self.store.flush_async().await {
            tracing::warn!("budget: the store could not be flushed: {err}");
        }
        let now = crate::store::now_ms();
        self.store
            .budget_statuses(&settings, now)
            .unwrap_or_else(|err| {
                tracing::warn!("budget: what was spent could not be read: {err}");
                Vec::new()
            })
    }

    /// Sends the warning for `status` unless it was sent in this period; `force` sends it again (a stop).
    fn warn(&self, status: &BudgetStatus, reached: bool, force: bool) {
        let (day, month) = period_starts(crate::store::now_ms());
        let start = match status.period {
            BudgetPeriod::Day => day,
            BudgetPeriod::Month => month,
        };
        let first = self
            .sent
            .lock()
            .map(|mut sent| sent.insert((status.period, start, reached)))
            .unwrap_or(true);
        if first || force {
            self.events.emit(SessionEvent::BudgetWarning {
                status: status.clone(),
                reached,
            });
        }
    }

    /// Warns of every budget past its warning share; the first reached budget set to stop, if any.
    async fn check(&self) -> Option<BudgetStatus> {
        let mut stop = None;
        for status in self.statuses().await {
            if status.reached() {
                if status.on_limit == BudgetAction::Stop {
                    self.warn(&status, true, true);
                    stop.get_or_insert(status);
                } else {
                    self.warn(&status, true, false);
                }
            } else if status.warned() {
                self.warn(&status, false, false);
            }
        }
        stop
    }
}

/// What the person is told when a budget stops the turn.
pub fn stop_reason(status: &BudgetStatus) -> String {
    let period = match status.period {
        BudgetPeriod::Day => "daily",
        BudgetPeriod::Month => "monthly",
    };
    format!(
        "The {period} budget of ${:.2} is reached (${:.2} spent): the turn was stopped before its next model \
         request. Raise the budget, or make it warn only (the Budget group of Settings in the window; \
         \"onLimit\": \"warn\" under \"budget\" in the settings file), to go on.",
        status.limit_usd, status.spent_usd
    )
}

impl BudgetGate for BudgetWatch {
    fn before_request(&self) -> BoxFuture<'_, Option<String>> {
        Box::pin(async move { self.check().await.map(|status| stop_reason(&status)) })
    }

    fn after_response(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            // A stop is told when the next request would be made; here only the warnings.
            for status in self.statuses().await {
                if status.warned() {
                    self.warn(&status, status.reached(), false);
                }
            }
        })
    }
}
