//! A scheduled prompt's cron expression: five fields (minute, hour, day of month, month, day of week) in the
//! person's local time, checked, described in words and stepped to its next fire time.

use chrono::{DateTime, Local, TimeZone, Timelike};
use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};

/// How far ahead an expression must fire at least once to be accepted.
pub const HORIZON_DAYS: i64 = 366;

/// Why an expression was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error(
        "`{expr}` has {count} field(s); a cron expression has five: minute hour day-of-month month day-of-week \
         (e.g. `*/5 * * * *`, `0 9 * * 1-5`)"
    )]
    FieldCount { expr: String, count: usize },
    #[error("`{expr}` is not a valid cron expression: {why}")]
    Invalid { expr: String, why: String },
    #[error(
        "`{expr}` never fires in the next year; give a date that exists (e.g. not the 30th of February)"
    )]
    Never { expr: String },
}

/// A checked five-field cron expression.
#[derive(Debug, Clone)]
pub struct Schedule {
    expr: String,
    cron: Cron,
}

impl Schedule {
    /// Parses `expr` (five fields; names like `MON` or `JAN` allowed, no seconds, no year, no `@daily`).
    pub fn parse(expr: &str) -> Result<Self, ScheduleError> {
        let expr = expr.trim().to_string();
        let count = expr.split_whitespace().count();
        if count != 5 || expr.contains('@') {
            return Err(ScheduleError::FieldCount { expr, count });
        }
        let parser = CronParser::builder()
            .seconds(Seconds::Disallowed)
            .year(Year::Disallowed)
            .build();
        let cron = parser.parse(&expr).map_err(|e| ScheduleError::Invalid {
            expr: expr.clone(),
            why: e.to_string(),
        })?;
        Ok(Self { expr, cron })
    }

    /// Parses `expr` and checks that it fires within [`HORIZON_DAYS`] after `now`.
    pub fn checked<Tz: TimeZone>(expr: &str, now: &DateTime<Tz>) -> Result<Self, ScheduleError> {
        let schedule = Self::parse(expr)?;
        match schedule.next_after(now) {
            Some(next) if next.clone() - now.clone() <= chrono::Duration::days(HORIZON_DAYS) => {
                Ok(schedule)
            }
            _ => Err(ScheduleError::Never {
                expr: schedule.expr,
            }),
        }
    }

    /// The expression as given (trimmed).
    pub fn expr(&self) -> &str {
        &self.expr
    }

    /// The schedule in words ("At 09:00, Monday through Friday").
    pub fn describe(&self) -> String {
        self.cron.describe()
    }

    /// The first fire time strictly after `after` (in `after`'s time zone), on a whole minute; `None` when there
    /// is none. The fraction of a second in `after` is dropped first: the cron library carries it into the answer,
    /// which would put a fire a fraction of a second past its minute.
    pub fn next_after<Tz: TimeZone>(&self, after: &DateTime<Tz>) -> Option<DateTime<Tz>> {
        let whole = after.with_nanosecond(0)?;
        self.cron.find_next_occurrence(&whole, false).ok()
    }

    /// The first fire time in local time strictly after the instant `after_ms` (milliseconds since the epoch).
    pub fn next_after_ms(&self, after_ms: i64) -> Option<DateTime<Local>> {
        let after = Local.timestamp_millis_opt(after_ms).single()?;
        self.next_after(&after)
    }
}

#[cfg(test)]
mod fraction_of_a_second {
    use super::*;
    use chrono::{Local, TimeZone};

    #[test]
    fn the_next_fire_after_an_instant_with_seconds_is_the_next_minute() {
        let anchor = Local
            .with_ymd_and_hms(2026, 12, 5, 19, 47, 7)
            .single()
            .expect("time")
            + chrono::Duration::milliseconds(553);
        let schedule = Schedule::parse("48 19 * * *").expect("valid");
        let want = Local
            .with_ymd_and_hms(2026, 12, 5, 19, 48, 0)
            .single()
            .expect("time");
        assert_eq!(schedule.next_after(&anchor), Some(want));
        assert_eq!(
            schedule.next_after_ms(anchor.timestamp_millis()),
            Some(want)
        );
    }
}
