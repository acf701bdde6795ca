//! Reading usage: the sums of the recorded model requests by day (UTC), folder, model and session, the costliest
//! tool results, and what was spent in a budget's period.

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use rusqlite::{Connection, Row, params};
use tandem_protocol::{SessionUsage, ToolCallCost, UsageReport, UsageRow, UsageTotals};

use super::StoreError;

/// Which requests a report counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageFilter {
    /// The first day counted (UTC).
    pub since: Option<NaiveDate>,
    /// Only sessions of this folder (canonical) and the folders under it.
    pub folder: Option<String>,
}

impl UsageFilter {
    /// Unix ms at the start of `since` (UTC).
    fn since_ms(&self) -> Option<i64> {
        self.since.map(day_start_ms)
    }
}

/// A day written `YYYY-MM-DD`; `None` for anything else.
pub fn parse_day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok()
}

/// Unix ms at the start of `day` in UTC.
pub fn day_start_ms(day: NaiveDate) -> i64 {
    day.and_hms_opt(0, 0, 0)
        .map_or(0, |t| Utc.from_utc_datetime(&t).timestamp_millis())
}

/// Unix ms at the start of the UTC day and of the UTC month holding `now_ms`.
pub fn period_starts(now_ms: i64) -> (i64, i64) {
    let now: DateTime<Utc> = Utc
        .timestamp_millis_opt(now_ms)
        .single()
        .unwrap_or_default();
    let day = now.date_naive();
    let month = day.with_day(1).unwrap_or(day);
    (day_start_ms(day), day_start_ms(month))
}

/// The requests the filter lets through, joined with their sessions (`r`, `s`); `?1` since (ms), `?2` folder.
const FROM: &str = "FROM model_requests r JOIN sessions s ON s.id = r.session_id \
     WHERE (?1 IS NULL OR r.at >= ?1) \
     AND (?2 IS NULL OR s.folder = ?2 OR substr(s.folder, 1, length(?2) + 1) = ?2 || '/')";

const SUMS: &str = "COUNT(*), COALESCE(SUM(r.input_tokens), 0), COALESCE(SUM(r.output_tokens), 0), \
     COALESCE(SUM(r.cache_creation_input_tokens), 0), COALESCE(SUM(r.cache_read_input_tokens), 0), \
     COALESCE(SUM(r.cost_usd), 0.0)";

/// Costliest first; without prices, the most tokens first.
const COSTLIEST: &str = "ORDER BY SUM(r.cost_usd) DESC, \
     SUM(r.input_tokens + r.output_tokens + r.cache_creation_input_tokens + r.cache_read_input_tokens) DESC";

/// The totals in columns `from..from + 6` of `row`.
fn totals(row: &Row<'_>, from: usize) -> rusqlite::Result<UsageTotals> {
    let n = |i: usize| row.get::<_, i64>(from + i).map(|v| v.max(0) as u64);
    Ok(UsageTotals {
        requests: n(0)?,
        input_tokens: n(1)?,
        output_tokens: n(2)?,
        cache_creation_input_tokens: n(3)?,
        cache_read_input_tokens: n(4)?,
        cost_usd: row.get(from + 5)?,
    })
}

fn rows(
    conn: &Connection,
    key: &str,
    order: &str,
    filter: &UsageFilter,
) -> Result<Vec<UsageRow>, StoreError> {
    let sql = format!("SELECT {key}, {SUMS} {FROM} GROUP BY 1 {order}");
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params![filter.since_ms(), filter.folder], |row| {
        Ok(UsageRow {
            key: row.get(0)?,
            totals: totals(row, 1)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The report for `filter` (its `budgets` are left empty: they come from the settings).
pub fn report(conn: &Connection, filter: &UsageFilter) -> Result<UsageReport, StoreError> {
    let tx = conn.unchecked_transaction()?;
    let args = params![filter.since_ms(), filter.folder];
    let sums = tx.query_row(&format!("SELECT {SUMS} {FROM}"), args, |row| totals(row, 0))?;
    let by_day = rows(&tx, "date(r.at / 1000, 'unixepoch')", "ORDER BY 1", filter)?;
    let by_folder = rows(&tx, "s.folder", COSTLIEST, filter)?;
    let by_model = rows(&tx, "r.model", COSTLIEST, filter)?;
    let sessions = {
        let sql = format!(
            "SELECT r.session_id, s.title, s.folder, {SUMS} {FROM} GROUP BY r.session_id {COSTLIEST} LIMIT {}",
            UsageReport::TOP
        );
        let mut stmt = tx.prepare(&sql)?;
        let rows = stmt.query_map(args, |row| {
            Ok(SessionUsage {
                session_id: row.get(0)?,
                title: row.get(1)?,
                folder: row.get(2)?,
                totals: totals(row, 3)?,
            })
        })?;
        rows.collect::<Result<Vec<_>, _>>()?
    };
    let tool_calls = tool_calls(&tx, filter)?;
    Ok(UsageReport {
        since: filter.since.map(|d| d.format("%Y-%m-%d").to_string()),
        folder: filter.folder.clone(),
        totals: sums,
        by_day,
        by_folder,
        by_model,
        sessions,
        tool_calls,
        budgets: Vec::new(),
    })
}

/// The costliest tool results, summed over the days the filter lets through.
fn tool_calls(conn: &Connection, filter: &UsageFilter) -> Result<Vec<ToolCallCost>, StoreError> {
    let sql = format!(
        "SELECT c.session_id, c.tool_use_id, MAX(c.name), MAX(c.result_tokens), SUM(c.requests), \
         SUM(c.cache_read_tokens), SUM(c.cache_write_tokens), SUM(c.fresh_tokens), SUM(c.cost_usd) \
         FROM tool_result_costs c JOIN sessions s ON s.id = c.session_id \
         WHERE (?1 IS NULL OR c.day >= ?1) \
         AND (?2 IS NULL OR s.folder = ?2 OR substr(s.folder, 1, length(?2) + 1) = ?2 || '/') \
         GROUP BY c.session_id, c.tool_use_id \
         ORDER BY SUM(c.cost_usd) DESC, SUM(c.cache_read_tokens + c.cache_write_tokens + c.fresh_tokens) DESC \
         LIMIT {}",
        UsageReport::TOP
    );
    let since = filter.since.map(|d| d.format("%Y-%m-%d").to_string());
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params![since, filter.folder], |row| {
        let n = |i: usize| row.get::<_, i64>(i).map(|v| v.max(0) as u64);
        Ok(ToolCallCost {
            session_id: row.get(0)?,
            tool_use_id: row.get(1)?,
            name: row.get(2)?,
            result_tokens: n(3)?,
            requests: n(4)?,
            cache_read_tokens: n(5)?,
            cache_write_tokens: n(6)?,
            fresh_tokens: n(7)?,
            cost_usd: row.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Dollars spent by every session since `from_ms`.
pub fn spent_since(conn: &Connection, from_ms: i64) -> Result<f64, StoreError> {
    Ok(conn.query_row(
        "SELECT COALESCE(SUM(cost_usd), 0.0) FROM model_requests WHERE at >= ?1",
        [from_ms],
        |row| row.get(0),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_start_at_utc_midnight_and_the_first_of_the_month() {
        // 2026-12-05T10:48:00Z
        let now = 1_796_467_680_000;
        let (day, month) = period_starts(now);
        assert_eq!(day, 1_796_428_800_000); // 2026-12-05T00:00:00Z
        assert_eq!(month, 1_796_083_200_000); // 2026-12-01T00:00:00Z
    }
}
