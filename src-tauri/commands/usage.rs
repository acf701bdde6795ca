//! The usage view's commands: the usage report of every stored session (or one folder's) since a day, with the
//! budgets of the person's settings and what was spent in their period; and those budgets alone, for the status bar.

use tandem_engine::store::SessionStore;
use tandem_engine::store::{UsageFilter, canonical_folder, now_ms, parse_day};
use tandem_protocol::{BudgetStatus, UsageReport};
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
    let store = store_of(&state)?;
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
    let mut report = store.usage(&filter).map_err(store_error)?;
    report.budgets = budgets(&state, store)?;
    Ok(report)
}

/// The budgets the person's settings set, each with what every session spent in its period so far (empty when
/// none is set).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn budget_status(state: State<'_, AppState>) -> Result<Vec<BudgetStatus>, CommandError> {
    budgets(&state, store_of(&state)?)
}

fn store_of(state: &AppState) -> Result<&SessionStore, CommandError> {
    state.store.as_deref().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Store,
            "usage is not available: the session store could not be opened",
        )
    })
}

fn store_error(e: tandem_engine::store::StoreError) -> CommandError {
    CommandError::new(ErrorCode::Store, e.to_string())
}

/// The settings file's budgets now (read afresh: the person may just have saved new ones).
fn budgets(state: &AppState, store: &SessionStore) -> Result<Vec<BudgetStatus>, CommandError> {
    let budget = state
        .settings_file
        .as_ref()
        .map(|file| file.budget())
        .unwrap_or_default();
    store
        .budget_statuses(&budget, now_ms())
        .map_err(store_error)
}
