//! The usage view's command: the usage report of every stored session (or one folder's) since a day, with the
//! budgets of the person's settings and what was spent in their period.

use tandem_engine::store::{UsageFilter, canonical_folder, now_ms, parse_day};
use tandem_protocol::UsageReport;
use tauri::State;

use crate::error::{CommandError, ErrorCode};
use crate::state::AppState;

/// The report for requests from `since` on (`YYYY-MM-DD`, UTC; `None`: every request), of `folder` and the folders
/// under it (`None`: every folder).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn usage_report(
    state: State<'_, AppState>,
    since: Option<String>,
    folder: Option<String>,
) -> Result<UsageReport, CommandError> {
    let store = state.store.as_ref().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Store,
            "usage is not available: the session store could not be opened",
        )
    })?;
    let since = match since.as_deref() {
        Some(text) => Some(parse_day(text).ok_or_else(|| {
            CommandError::new(
                ErrorCode::Usage,
                format!("{text:?} is not a day (YYYY-MM-DD)"),
            )
        })?),
        None => None,
    };
    let filter = UsageFilter {
        since,
        folder: folder.map(|f| {
            canonical_folder(std::path::Path::new(&f))
                .to_string_lossy()
                .into_owned()
        }),
    };
    let store_error =
        |e: tandem_engine::store::StoreError| CommandError::new(ErrorCode::Store, e.to_string());
    let mut report = store.usage(&filter).map_err(store_error)?;
    let budget = state
        .settings_file
        .as_ref()
        .map(|file| file.budget())
        .unwrap_or_default();
    report.budgets = store
        .budget_statuses(&budget, now_ms())
        .map_err(store_error)?;
    Ok(report)
}
