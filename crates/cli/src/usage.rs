//! `tandem usage`: what the stored sessions' model requests cost — totals, by day (UTC), by folder, by model, the
//! costliest sessions and tool calls — and the budgets of the person's settings, as text or JSON.

use std::path::PathBuf;

use clap::Args;
use tandem_engine::settings::AppSettingsFile;
use tandem_engine::store::{
    SessionStore, StoreError, UsageFilter, canonical_folder, now_ms, parse_day,
};
use tandem_protocol::{BudgetPeriod, UsageReport, UsageRow, UsageTotals};

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// Count requests from this day on (YYYY-MM-DD, UTC; default: every request).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only the sessions of this folder and the folders under it (default: every folder's).
    #[arg(long, value_name = "DIR")]
    pub folder: Option<PathBuf>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command and returns the exit code: 0 done, 2 unusable (a bad date, a store that cannot be opened).
pub fn run(args: &UsageArgs) -> i32 {
    let since = match args.since.as_deref().map(|s| (s, parse_day(s))) {
        Some((text, None)) => {
            eprintln!("tandem: --since takes a day as YYYY-MM-DD, not {text:?}");
            return 2;
        }
        Some((_, day)) => day,
        None => None,
    };
    let filter = UsageFilter {
        since,
        folder: args
            .folder
            .as_deref()
            .map(|f| canonical_folder(f).to_string_lossy().into_owned()),
    };
    match report(&filter) {
        Ok(report) if args.json => match serde_json::to_string_pretty(&report) {
            Ok(text) => {
                println!("{text}");
                0
            }
            Err(e) => {
                eprintln!("tandem: {e}");
                1
            }
        },
        Ok(report) => {
            print!("{}", render(&report));
            0
        }
        Err(e) => {
            eprintln!("tandem: {e}");
            2
        }
    }
}

fn report(filter: &UsageFilter) -> Result<UsageReport, StoreError> {
    let store = SessionStore::open_default()?;
    let mut report = store.usage(filter)?;
    let budget = AppSettingsFile::standard()
        .map(|file| file.budget())
        .unwrap_or_default();
    report.budgets = store.budget_statuses(&budget, now_ms())?;
    Ok(report)
}

/// `1234567` as `1,234,567`.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn money(usd: f64) -> String {
    format!("${usd:.2}")
}

fn totals_line(t: &UsageTotals) -> String {
    format!(
        "{:>8}  {:>5} requests  input {}  output {}  cache read {}  cache write {}",
        money(t.cost_usd),
        t.requests,
        count(t.input_tokens),
        count(t.output_tokens),
        count(t.cache_read_input_tokens),
        count(t.cache_creation_input_tokens)
    )
}

fn section(out: &mut String, heading: &str, rows: &[UsageRow]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!("\n{heading}\n"));
    let width = rows
        .iter()
        .map(|r| r.key.chars().count())
        .max()
        .unwrap_or(0);
    for row in rows {
        out.push_str(&format!(
            "  {:<width$}  {}\n",
            row.key,
            totals_line(&row.totals)
        ));
    }
}

/// The report as text.
pub fn render(report: &UsageReport) -> String {
    let mut out = format!(
        "Usage {}{}\n",
        report
            .since
            .as_deref()
            .map_or("of every stored session".to_string(), |d| format!(
                "since {d} (UTC)"
            )),
        report
            .folder
            .as_deref()
            .map(|f| format!(" in {f}"))
            .unwrap_or_default()
    );
    out.push_str(&format!("  total  {}\n", totals_line(&report.totals)));
    section(&mut out, "By day (UTC)", &report.by_day);
    section(&mut out, "By folder", &report.by_folder);
    section(&mut out, "By model", &report.by_model);
    if !report.sessions.is_empty() {
        out.push_str("\nCostliest sessions\n");
        for s in &report.sessions {
            let title = if s.title.is_empty() {
                "(untitled)"
            } else {
                &s.title
            };
            out.push_str(&format!(
                "  {:>8}  {}  {}  ({})\n",
                money(s.totals.cost_usd),
                s.session_id,
                title,
                s.folder
            ));
        }
    }
    if !report.tool_calls.is_empty() {
        out.push_str("\nCostliest tool calls (what each result cost in the requests that carried it after the call)\n");
        for c in &report.tool_calls {
            out.push_str(&format!(
                "  {:>8}  {}  {}  {} tokens in {} requests (cache read {}, cache write {}, fresh {})  session {}\n",
                money(c.cost_usd),
                if c.name.is_empty() { "?" } else { &c.name },
                c.tool_use_id,
                count(c.result_tokens),
                c.requests,
                count(c.cache_read_tokens),
                count(c.cache_write_tokens),
                count(c.fresh_tokens),
                c.session_id
            ));
        }
    }
    if !report.budgets.is_empty() {
        out.push_str("\nBudgets (every folder)\n");
        for b in &report.budgets {
            let period = match b.period {
                BudgetPeriod::Day => "today",
                BudgetPeriod::Month => "this month",
            };
            let state = if b.reached() {
                "  reached"
            } else if b.warned() {
                "  warning"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {period}: {} of {} ({:.0}%), at the limit: {}{state}\n",
                money(b.spent_usd),
                money(b.limit_usd),
                b.spent_usd * 100.0 / b.limit_usd,
                serde_json::to_value(b.on_limit)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_are_grouped_by_thousands() {
        for (n, want) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(count(n), want);
        }
    }
}
