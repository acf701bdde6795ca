//! Running a search on the reader connection: the matching documents ranked by bm25, at most [`HITS_PER_SESSION`]
//! per session, each with its session and a snippet. Without a folder, FTS5 ranks and keeps the best rows itself
//! (no join before the ranking); with one, the rows of that folder are ranked.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::StoreError;
use super::search_docs::{MARK_CLOSE, MARK_OPEN};
use super::search_types::{SearchHit, TextKind, snippet_parts};

/// The most hits one session gives, so that one long session does not fill the list.
pub const HITS_PER_SESSION: usize = 3;

/// Tokens of text around the matches in a snippet.
const SNIPPET_TOKENS: i64 = 24;

/// The documents matching `fts` (a query made by `search_query::fts_query`), best first.
pub fn run(
    conn: &Connection,
    fts: &str,
    folder: Option<&Path>,
    limit: usize,
) -> Result<Vec<SearchHit>, StoreError> {
    let mut hits: Vec<(i64, SearchHit)> = Vec::new();
    let mut per_session: HashMap<String, usize> = HashMap::new();
    let mut seen_ids = std::collections::HashSet::new();
    let mut keep =
        |id: i64, score: f64, hits: &mut Vec<(i64, SearchHit)>| -> Result<(), StoreError> {
            // An index whose pages were damaged can answer without an error, but not with a document twice.
            if !seen_ids.insert(id) {
                return Err(StoreError::Corrupt(format!(
                    "search_index lists text {id} twice"
                )));
            }
            let Some(mut hit) = document(conn, id)? else {
                return Ok(());
            };
            let seen = per_session.entry(hit.session_id.clone()).or_default();
            if *seen < HITS_PER_SESSION {
                *seen += 1;
                hit.score = score;
                hits.push((id, hit));
            }
            Ok(())
        };
    match folder {
        None => {
            // Pages of the best rows, FTS5 keeping only the page's best (a top-k, not a sort of every match).
            let mut stmt = conn.prepare_cached(
                "SELECT rowid, rank FROM search_index WHERE search_index MATCH ?1 ORDER BY rank LIMIT ?2 OFFSET ?3",
            )?;
            let page = (limit * 4).max(16);
            let mut offset = 0;
            while hits.len() < limit {
                let rows: Vec<(i64, f64)> = stmt
                    .query_map(params![fts, page as i64, offset as i64], |row| {
                        Ok((row.get(0)?, row.get(1)?))
                    })?
                    .collect::<Result<_, _>>()?;
                for &(id, score) in &rows {
                    if hits.len() < limit {
                        keep(id, score, &mut hits)?;
                    }
                }
                if rows.len() < page {
                    break;
                }
                offset += page;
            }
        }
        Some(folder) => {
            let mut stmt = conn.prepare_cached(
                "SELECT search_index.rowid, bm25(search_index) AS score FROM search_index \
                 JOIN search_docs d ON d.id = search_index.rowid JOIN sessions s ON s.id = d.session_id \
                 WHERE search_index MATCH ?1 AND s.folder = ?2 ORDER BY score",
            )?;
            let mut rows = stmt.query(params![fts, folder.to_string_lossy()])?;
            while hits.len() < limit {
                let Some(row) = rows.next()? else { break };
                keep(row.get(0)?, row.get(1)?, &mut hits)?;
            }
        }
    }
    let mut snippet = conn.prepare_cached(
        "SELECT snippet(search_index, 0, ?3, ?4, '…', ?5) FROM search_index \
         WHERE search_index MATCH ?1 AND rowid = ?2",
    )?;
    let open = MARK_OPEN.to_string();
    let close = MARK_CLOSE.to_string();
    let mut out = Vec::with_capacity(hits.len());
    for (id, mut hit) in hits {
        let marked: String = snippet
            .query_row(params![fts, id, open, close, SNIPPET_TOKENS], |row| {
                row.get(0)
            })?;
        hit.snippet = snippet_parts(&marked, MARK_OPEN, MARK_CLOSE);
        out.push(hit);
    }
    Ok(out)
}

/// Document `id` with its session, as a hit without snippet or score.
fn document(conn: &Connection, id: i64) -> Result<Option<SearchHit>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.session_id, s.folder, s.title, s.updated_at, d.seq, d.kind, d.agent_id \
         FROM search_docs d JOIN sessions s ON s.id = d.session_id WHERE d.id = ?1",
    )?;
    Ok(stmt
        .query_row([id], |row| {
            let agent_id: String = row.get(6)?;
            Ok(SearchHit {
                session_id: row.get(0)?,
                folder: row.get::<_, String>(1)?.into(),
                title: row.get(2)?,
                updated_at: row.get(3)?,
                seq: row.get::<_, i64>(4)?.max(0) as u64,
                kind: TextKind::parse(&row.get::<_, String>(5)?),
                agent_id: (!agent_id.is_empty()).then_some(agent_id),
                snippet: Vec::new(),
                score: 0.0,
            })
        })
        .optional()?)
}
