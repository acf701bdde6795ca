//! The window's search over every stored session of every folder (Ctrl+K).

use tandem_engine::store::SearchHit;
use tandem_protocol::{SearchSnippetPart, SessionSearchHit};

use super::*;

/// The most hits the window asks for when it gives no limit.
const DEFAULT_LIMIT: usize = 30;

/// The hits for `query` over everything said in every stored session, best first (at most a few per session).
/// Runs off the main thread: a search first waits for the store to index what was written before it. A query with
/// no words, or too long, fails with the store's reason.
#[tauri::command]
#[tracing::instrument(skip(state, query), fields(query_chars = query.chars().count()), err(Display))]
pub async fn search_sessions(
    state: State<'_, AppState>,
    query: String,
    limit: Option<u32>,
) -> Result<Vec<SessionSearchHit>, CommandError> {
    let store = store_of(&state)?;
    let limit = limit.map_or(DEFAULT_LIMIT, |n| n.clamp(1, 200) as usize);
    let hits = tauri::async_runtime::spawn_blocking(move || store.search(&query, None, limit))
        .await
        .map_err(|e| CommandError::new(ErrorCode::Store, format!("the search stopped: {e}")))?
        .map_err(|e| CommandError::new(ErrorCode::Store, e.to_string()))?;
    Ok(hits.iter().map(to_protocol).collect())
}

/// A store hit as the window shows it.
fn to_protocol(hit: &SearchHit) -> SessionSearchHit {
    SessionSearchHit {
        session_id: hit.session_id.clone(),
        folder: hit.folder.display().to_string(),
        title: hit.title.clone(),
        updated_at_ms: hit.updated_at.max(0) as u64,
        seq: hit.seq,
        kind: hit.kind.as_str().to_owned(),
        snippet: hit
            .snippet
            .iter()
            .map(|part| SearchSnippetPart {
                text: part.text.clone(),
                matched: part.matched,
            })
            .collect(),
    }
}
