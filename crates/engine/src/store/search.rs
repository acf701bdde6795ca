//! Running a search on the reader connection, in time that does not grow with the store: FTS5 finds the newest
//! [`CANDIDATES`] texts holding every term (newest first, so it stops there), they are ranked by BM25
//! (`search_rank`), and the best are kept, at most [`HITS_PER_SESSION`] per session, each with its session and a
//! snippet. A query matching fewer texts is ranked whole; one matching more (its words are in very many texts)
//! ranks the newest of them. Each term's weight comes from how many texts hold it: counted up to [`PROBE`] texts,
//! estimated beyond from how densely the newest hold it.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::StoreError;
use super::search_docs::{MARK_CLOSE, MARK_OPEN, scope_token};
use super::search_query::{Term, match_expr};
use super::search_rank::{Needle, score, weight};
use super::search_types::{SearchHit, TextKind, snippet_parts};

/// The most hits one session gives, so that one long session does not fill the list.
pub const HITS_PER_SESSION: usize = 3;

/// The most matching texts ranked: the newest ones.
pub const CANDIDATES: usize = 2_000;

/// The most texts counted for a term's weight.
pub const PROBE: usize = 2_000;

/// The characters of a text read to rank it (a longer text is ranked on its beginning).
const RANKED_CHARS: i64 = 4_096;

/// Tokens of text around the matches in a snippet.
const SNIPPET_TOKENS: i64 = 24;

/// The texts matching every term — of `folder` when given — best first, at most `limit`.
pub fn run(
    conn: &Connection,
    terms: &[Term],
    folder: Option<&Path>,
    limit: usize,
) -> Result<Vec<SearchHit>, StoreError> {
    let scope = folder.map(|f| scope_token(&f.to_string_lossy()));
    let expr = match_expr(terms, scope.as_deref());
    let candidates = candidates(conn, &expr)?;
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let totals = Totals::read(conn)?;
    let needles: Vec<Needle> = terms
        .iter()
        .map(|t| Needle::new(&t.text, t.prefix))
        .collect();
    let weights: Vec<f64> = if terms.len() == 1 {
        // One term's weight changes no order.
        vec![1.0]
    } else {
        terms
            .iter()
            .map(|t| holding(conn, t, &totals).map(|n| weight(n, totals.texts)))
            .collect::<Result<_, _>>()?
    };
    let mut ranked: Vec<(f64, &Candidate)> = candidates
        .iter()
        .map(|c| (score(&c.text, &needles, &weights, totals.avg_len), c))
        .collect();
    // Best first; among equals, the newest.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.id.cmp(&a.1.id)));
    let mut per_session: HashMap<&str, usize> = HashMap::new();
    let mut snippet = conn.prepare_cached(
        "SELECT snippet(search_index, 0, ?3, ?4, '…', ?5) FROM search_index \
         WHERE search_index MATCH ?1 AND rowid = ?2",
    )?;
    let open = MARK_OPEN.to_string();
    let close = MARK_CLOSE.to_string();
    let mut hits = Vec::new();
    for (bm25, candidate) in ranked {
        if hits.len() >= limit {
            break;
        }
        let seen = per_session.entry(candidate.session.as_str()).or_default();
        if *seen >= HITS_PER_SESSION {
            continue;
        }
        let Some(mut hit) = document(conn, candidate.id)? else {
            continue;
        };
        *seen += 1;
        hit.score = -bm25;
        let marked: String = snippet
            .query_row(
                params![expr, candidate.id, open, close, SNIPPET_TOKENS],
                |row| row.get(0),
            )
            .optional()?
            .unwrap_or_default();
        hit.snippet = snippet_parts(&marked, MARK_OPEN, MARK_CLOSE);
        hits.push(hit);
    }
    Ok(hits)
}

/// A matching text to rank.
struct Candidate {
    id: i64,
    session: String,
    /// Its beginning, [`RANKED_CHARS`] at most.
    text: String,
}

/// The newest [`CANDIDATES`] texts matching `expr`.
fn candidates(conn: &Connection, expr: &str) -> Result<Vec<Candidate>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, d.session_id, substr(d.body, 1, ?3) FROM \
         (SELECT rowid AS id FROM search_index WHERE search_index MATCH ?1 ORDER BY rowid DESC LIMIT ?2) m \
         JOIN search_docs d ON d.id = m.id ORDER BY d.id DESC",
    )?;
    let rows = stmt.query_map(params![expr, CANDIDATES as i64, RANKED_CHARS], |row| {
        Ok(Candidate {
            id: row.get(0)?,
            session: row.get(1)?,
            text: row.get(2)?,
        })
    })?;
    let candidates: Vec<Candidate> = rows.collect::<Result<_, _>>()?;
    // An index whose pages were damaged can answer without an error, but not with a text twice.
    if candidates.windows(2).any(|w| w[0].id == w[1].id) {
        return Err(StoreError::Corrupt(
            "search_index lists a text twice".into(),
        ));
    }
    Ok(candidates)
}

/// How many texts there are and how long they are on average, from the index's own totals (or, when they cannot
/// be read, from the texts' ids and a usual length).
struct Totals {
    texts: f64,
    avg_len: f64,
    /// The newest and oldest text's ids.
    newest: i64,
    oldest: i64,
}

impl Totals {
    fn read(conn: &Connection) -> Result<Self, StoreError> {
        // Two subqueries: SQLite reads one end of the table for each, where max() and min() together scan it.
        let (newest, oldest): (Option<i64>, Option<i64>) = conn
            .prepare_cached(
                "SELECT (SELECT max(id) FROM search_docs), (SELECT min(id) FROM search_docs)",
            )?
            .query_row([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        let (newest, oldest) = (newest.unwrap_or(0), oldest.unwrap_or(0));
        // FTS5's averages record: the number of rows, then the tokens of each column, as varints.
        let block: Option<Vec<u8>> = conn
            .prepare_cached("SELECT block FROM search_index_data WHERE id = 1")?
            .query_row([], |row| row.get(0))
            .optional()?;
        let parsed = block.and_then(|b| {
            let (rows, used) = varint(&b)?;
            let (tokens, _) = varint(&b[used..])?;
            (rows > 0).then_some((rows as f64, tokens as f64 / rows as f64))
        });
        let (texts, avg_len) = parsed.unwrap_or(((newest - oldest + 1).max(1) as f64, 100.0));
        Ok(Self {
            texts,
            avg_len,
            newest,
            oldest,
        })
    }
}

/// An SQLite varint at the start of `bytes`: its value and length.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    for (i, byte) in bytes.iter().enumerate().take(9) {
        if i == 8 {
            return Some(((value << 8) | u64::from(*byte), 9));
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// How many texts hold `term`: counted when at most [`PROBE`] do; beyond, estimated from the span of ids its
/// newest [`PROBE`] texts cover.
fn holding(conn: &Connection, term: &Term, totals: &Totals) -> Result<f64, StoreError> {
    let expr = match_expr(std::slice::from_ref(term), None);
    let (count, oldest): (i64, Option<i64>) = conn
        .prepare_cached(
            "SELECT count(*), min(id) FROM \
             (SELECT rowid AS id FROM search_index WHERE search_index MATCH ?1 ORDER BY rowid DESC LIMIT ?2)",
        )?
        .query_row(params![expr, PROBE as i64], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    if (count as usize) < PROBE {
        return Ok(count as f64);
    }
    let span = (totals.newest - oldest.unwrap_or(totals.oldest) + 1).max(1) as f64;
    let all = (totals.newest - totals.oldest + 1).max(1) as f64;
    Ok((count as f64 * all / span).min(totals.texts))
}

/// Text `id` with its session, as a hit without snippet or score.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x02, 0x06]), Some((2, 1)));
        assert_eq!(varint(&[0x81, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0xff; 9]), Some((u64::MAX, 9)));
        assert_eq!(varint(&[0x80]), None);
    }
}
