//! The queries behind organising a folder's sessions: collections (nested; the window calls them folders), a
//! session's collection, pin, archive and tags. Each change runs in one write transaction; a collection and the
//! sessions put in it always belong to the same project folder, and no collection is ever inside itself.

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::StoreError;
use super::types::{Collection, Organised, SessionSummary};

/// The longest name of a collection, and the longest tag, in characters.
pub const MAX_NAME_CHARS: usize = 120;

/// The most tags one session has.
pub const MAX_TAGS: usize = 32;

/// Whether the file has the organising tables (files of older schemas opened as such by tests have not).
pub fn enabled(conn: &Connection) -> Result<bool, StoreError> {
    super::schema::has_table(conn, "session_places")
}

/// A name as stored: trimmed, white space made single spaces; an error when empty or too long.
pub fn clean_name(name: &str, what: &'static str) -> Result<String, StoreError> {
    let clean = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if clean.is_empty() {
        return Err(StoreError::Organise(format!("a {what} needs a name")));
    }
    if clean.chars().count() > MAX_NAME_CHARS {
        return Err(StoreError::Organise(format!(
            "a {what} has at most {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(clean)
}

/// Tags as stored: each cleaned like a name and lower-cased, without repeats, sorted.
pub fn clean_tags(tags: &[String]) -> Result<Vec<String>, StoreError> {
    let mut clean = tags
        .iter()
        .map(|t| clean_name(t, "tag").map(|t| t.to_lowercase()))
        .collect::<Result<Vec<_>, _>>()?;
    clean.sort();
    clean.dedup();
    if clean.len() > MAX_TAGS {
        return Err(StoreError::Organise(format!(
            "a session has at most {MAX_TAGS} tags"
        )));
    }
    Ok(clean)
}

fn collection(row: &rusqlite::Row<'_>) -> rusqlite::Result<Collection> {
    Ok(Collection {
        id: row.get(0)?,
        folder: PathBuf::from(row.get::<_, String>(1)?),
        parent_id: row.get(2)?,
        name: row.get(3)?,
        created_at: row.get(4)?,
    })
}

const COLLECTION_COLUMNS: &str = "id, folder, parent_id, name, created_at";

/// One collection, if it exists.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Collection>, StoreError> {
    let sql = format!("SELECT {COLLECTION_COLUMNS} FROM collections WHERE id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], collection)
        .optional()?)
}

fn existing(conn: &Connection, id: i64) -> Result<Collection, StoreError> {
    get(conn, id)?.ok_or_else(|| StoreError::Organise(format!("no folder {id}")))
}

/// The collections of project folder `folder`, by name.
pub fn list(conn: &Connection, folder: &str) -> Result<Vec<Collection>, StoreError> {
    let sql = format!(
        "SELECT {COLLECTION_COLUMNS} FROM collections WHERE folder = ?1 ORDER BY name COLLATE NOCASE, id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([folder], collection)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Checks that `parent` may hold something of project folder `folder` (and, for a collection being moved, that it
/// is not `moving` nor inside it).
fn check_parent(
    tx: &Transaction<'_>,
    parent: Option<i64>,
    folder: &str,
    moving: Option<i64>,
) -> Result<(), StoreError> {
    let Some(parent) = parent else {
        return Ok(());
    };
    let found = existing(tx, parent)?;
    if found.folder.to_string_lossy() != folder {
        return Err(StoreError::Organise(format!(
            "folder {parent} belongs to another project"
        )));
    }
    if let Some(moving) = moving {
        // Walk up from the new parent: meeting the collection itself would make a cycle.
        let mut at = Some(parent);
        while let Some(id) = at {
            if id == moving {
                return Err(StoreError::Organise(
                    "a folder cannot go inside itself".to_string(),
                ));
            }
            at = existing(tx, id)?.parent_id;
        }
    }
    Ok(())
}

/// Creates a collection in project folder `folder`, inside `parent` (top level when `None`).
pub fn create(
    tx: &Transaction<'_>,
    folder: &str,
    name: &str,
    parent: Option<i64>,
    at: i64,
) -> Result<Collection, StoreError> {
    let name = clean_name(name, "folder")?;
    check_parent(tx, parent, folder, None)?;
    tx.prepare_cached(
        "INSERT INTO collections (folder, parent_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![folder, parent, name, at])?;
    existing(tx, tx.last_insert_rowid())
}

pub fn rename(tx: &Transaction<'_>, id: i64, name: &str) -> Result<(), StoreError> {
    let name = clean_name(name, "folder")?;
    existing(tx, id)?;
    tx.prepare_cached("UPDATE collections SET name = ?2 WHERE id = ?1")?
        .execute(params![id, name])?;
    Ok(())
}

/// Moves a collection (with everything in it) into `parent`.
pub fn move_collection(
    tx: &Transaction<'_>,
    id: i64,
    parent: Option<i64>,
) -> Result<(), StoreError> {
    let found = existing(tx, id)?;
    check_parent(tx, parent, &found.folder.to_string_lossy(), Some(id))?;
    tx.prepare_cached("UPDATE collections SET parent_id = ?2 WHERE id = ?1")?
        .execute(params![id, parent])?;
    Ok(())
}

/// Deletes a collection; its sessions and collections move up to its parent.
pub fn delete(tx: &Transaction<'_>, id: i64) -> Result<(), StoreError> {
    let found = existing(tx, id)?;
    tx.prepare_cached("UPDATE session_places SET collection_id = ?2 WHERE collection_id = ?1")?
        .execute(params![id, found.parent_id])?;
    tx.prepare_cached("UPDATE collections SET parent_id = ?2 WHERE parent_id = ?1")?
        .execute(params![id, found.parent_id])?;
    tx.prepare_cached("DELETE FROM collections WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// The project folder of a stored session.
fn session_folder(tx: &Transaction<'_>, session: &str) -> Result<String, StoreError> {
    tx.prepare_cached("SELECT folder FROM sessions WHERE id = ?1")?
        .query_row([session], |row| row.get(0))
        .optional()?
        .ok_or_else(|| StoreError::UnknownSession(session.to_string()))
}

/// Makes sure the session has a row in `session_places`.
fn place(tx: &Transaction<'_>, session: &str) -> Result<(), StoreError> {
    session_folder(tx, session)?;
    tx.prepare_cached("INSERT OR IGNORE INTO session_places (session_id) VALUES (?1)")?
        .execute([session])?;
    Ok(())
}

/// Puts a session in a collection of its own project folder (the top level when `None`).
pub fn move_session(
    tx: &Transaction<'_>,
    session: &str,
    collection: Option<i64>,
) -> Result<(), StoreError> {
    let folder = session_folder(tx, session)?;
    check_parent(tx, collection, &folder, None)?;
    place(tx, session)?;
    tx.prepare_cached("UPDATE session_places SET collection_id = ?2 WHERE session_id = ?1")?
        .execute(params![session, collection])?;
    Ok(())
}

/// Pins or unpins a session (`at`: when; pinning a pinned session keeps its time).
pub fn pin(tx: &Transaction<'_>, session: &str, pinned: bool, at: i64) -> Result<(), StoreError> {
    place(tx, session)?;
    let when = pinned.then_some(at);
    tx.prepare_cached(
        "UPDATE session_places SET pinned_at = CASE WHEN ?2 IS NULL THEN NULL ELSE COALESCE(pinned_at, ?2) END \
         WHERE session_id = ?1",
    )?
    .execute(params![session, when])?;
    Ok(())
}

/// Archives or restores a session.
pub fn archive(
    tx: &Transaction<'_>,
    session: &str,
    archived: bool,
    at: i64,
) -> Result<(), StoreError> {
    place(tx, session)?;
    let when = archived.then_some(at);
    tx.prepare_cached(
        "UPDATE session_places SET archived_at = CASE WHEN ?2 IS NULL THEN NULL ELSE COALESCE(archived_at, ?2) END \
         WHERE session_id = ?1",
    )?
    .execute(params![session, when])?;
    Ok(())
}

/// Replaces a session's tags with `tags` (already cleaned).
pub fn set_tags(tx: &Transaction<'_>, session: &str, tags: &[String]) -> Result<(), StoreError> {
    session_folder(tx, session)?;
    tx.prepare_cached("DELETE FROM session_tags WHERE session_id = ?1")?
        .execute([session])?;
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO session_tags (session_id, tag) VALUES (?1, ?2)")?;
    for tag in tags {
        insert.execute(params![session, tag])?;
    }
    Ok(())
}

/// Every organised session's marks (sessions without any are absent).
fn marks(conn: &Connection) -> Result<HashMap<String, Organised>, StoreError> {
    let mut out: HashMap<String, Organised> = HashMap::new();
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, collection_id, pinned_at, archived_at FROM session_places",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            Organised {
                collection_id: row.get(1)?,
                pinned_at: row.get(2)?,
                archived_at: row.get(3)?,
                tags: Vec::new(),
            },
        ))
    })?;
    for row in rows {
        let (id, marks) = row?;
        out.insert(id, marks);
    }
    let mut stmt =
        conn.prepare_cached("SELECT session_id, tag FROM session_tags ORDER BY session_id, tag")?;
    let rows = stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get(1)?)))?;
    for row in rows {
        let (id, tag): (String, String) = row?;
        out.entry(id).or_default().tags.push(tag);
    }
    Ok(out)
}

/// Fills in each summary's marks and sorts the pinned first (the most recently pinned first), keeping the order of
/// the rest. Nothing changes on a file without the organising tables.
pub fn fill(conn: &Connection, sessions: &mut [SessionSummary]) -> Result<(), StoreError> {
    if !enabled(conn)? {
        return Ok(());
    }
    let mut marks = marks(conn)?;
    for summary in sessions.iter_mut() {
        if let Some(found) = marks.remove(&summary.record.id) {
            summary.organised = found;
        }
    }
    // A stable sort: the unpinned keep their order (most recently updated first).
    sessions.sort_by_key(|s| std::cmp::Reverse(s.organised.pinned_at));
    Ok(())
}
