//! Writing a completed model request: its row in `model_requests` and what it paid to carry each tool result,
//! added to the result's row of the day in `tool_result_costs`.

use rusqlite::{Transaction, params};

use super::StoreError;
use super::usage_carry::MeteredRequest;

/// The UTC day (`YYYY-MM-DD`) of a Unix time in ms, as SQLite's `date()` gives it.
pub const DAY_SQL: &str = "date(?1 / 1000, 'unixepoch')";

pub(super) fn record_request(
    tx: &Transaction<'_>,
    session: &str,
    request: &MeteredRequest,
    at: i64,
) -> Result<(), StoreError> {
    let u = &request.usage;
    tx.prepare_cached(
        "INSERT INTO model_requests (session_id, at, model, input_tokens, output_tokens, \
         cache_creation_input_tokens, cache_read_input_tokens, cost_usd) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        session,
        at,
        request.model,
        u.input_tokens as i64,
        u.output_tokens as i64,
        u.cache_creation_input_tokens as i64,
        u.cache_read_input_tokens as i64,
        request.cost_usd
    ])?;
    if request.carries.is_empty() {
        return Ok(());
    }
    let day: String = tx.query_row(&format!("SELECT {DAY_SQL}"), [at], |row| row.get(0))?;
    let mut upsert = tx.prepare_cached(
        "INSERT INTO tool_result_costs (session_id, tool_use_id, day, name, result_tokens, requests, \
         cache_read_tokens, cache_write_tokens, fresh_tokens, cost_usd) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9) \
         ON CONFLICT (session_id, tool_use_id, day) DO UPDATE SET \
         name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END, \
         result_tokens = excluded.result_tokens, requests = requests + 1, \
         cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, \
         cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, \
         fresh_tokens = fresh_tokens + excluded.fresh_tokens, cost_usd = cost_usd + excluded.cost_usd",
    )?;
    for carry in &request.carries {
        upsert.execute(params![
            session,
            carry.tool_use_id,
            day,
            carry.name,
            carry.tokens() as i64,
            carry.cache_read_tokens as i64,
            carry.cache_write_tokens as i64,
            carry.fresh_tokens as i64,
            carry.cost_usd
        ])?;
    }
    Ok(())
}
