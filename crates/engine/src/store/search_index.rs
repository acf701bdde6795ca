//! The FTS5 index over `search_docs.body`: made when missing, and rebuilt whole from `search_docs` when damaged
//! (shadow tables dropped or their pages corrupt). The index is derived data: rebuilding it loses nothing.

use rusqlite::Connection;

use super::StoreError;
use super::schema::begin_write;

/// The index (external content: the text stays in `search_docs`) over the text and its folder's scope token, and
/// the triggers that keep it in step with `search_docs` in the same statement, so it never disagrees with the
/// documents. `columnsize=0`: no table of text lengths (one write less per text; the ranking counts its own).
const INDEX: &str = r#"
CREATE VIRTUAL TABLE search_index USING fts5(
    body, scope, content = 'search_docs', content_rowid = 'id', columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER search_docs_insert AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_index (rowid, body, scope) VALUES (new.id, new.body, new.scope);
END;
CREATE TRIGGER search_docs_delete AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_index (search_index, rowid, body, scope) VALUES ('delete', old.id, old.body, old.scope);
END;
"#;

/// Every schema object of the index: the table, FTS5's shadow tables and the triggers.
const OBJECTS: &[&str] = &[
    "search_index",
    "search_index_data",
    "search_index_idx",
    "search_index_config",
    "search_docs_insert",
    "search_docs_delete",
];

const SHADOW_TABLES: &[&str] = &[
    "search_index_data",
    "search_index_idx",
    "search_index_docsize",
    "search_index_config",
];

/// Whether the file has the search tables (a file of an older schema, opened as such by tests, has not).
pub fn enabled(conn: &Connection) -> Result<bool, StoreError> {
    super::schema::has_table(conn, "search_docs")
}

/// Whether every object of the index is in the schema.
fn complete(conn: &Connection) -> Result<bool, StoreError> {
    let mut stmt = conn.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = ?1")?;
    for name in OBJECTS {
        let count: i64 = stmt.query_row([name], |row| row.get(0))?;
        if count == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether no object of the index is in the schema: a new file, whose index is made, not rebuilt.
fn absent(conn: &Connection) -> Result<bool, StoreError> {
    let mut stmt = conn.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = ?1")?;
    for name in OBJECTS.iter().chain(SHADOW_TABLES) {
        let count: i64 = stmt.query_row([name], |row| row.get(0))?;
        if count > 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Makes the index when it or a part of it is missing (a new file, or shadow tables dropped), from the documents.
/// Cheap when it is there: a look at the schema. Only a damaged index (some of it there) is logged as a warning.
pub fn ensure(conn: &Connection) -> Result<(), StoreError> {
    if !enabled(conn)? || complete(conn)? {
        return Ok(());
    }
    let tx = begin_write(conn)?;
    // Another process may have made it while this one waited for the lock.
    if !complete(&tx)? {
        if absent(&tx)? {
            tracing::debug!("session store: making the search index");
        } else {
            tracing::warn!("session store: rebuilding the search index");
        }
        make_in(&tx)?;
    }
    tx.commit()?;
    Ok(())
}

/// Rebuilds the index in its own write transaction.
pub fn rebuild(conn: &Connection) -> Result<(), StoreError> {
    let tx = begin_write(conn)?;
    rebuild_in(&tx)?;
    tx.commit()?;
    Ok(())
}

/// Drops whatever is left of the index and makes it anew from `search_docs`, inside the caller's transaction.
pub fn rebuild_in(conn: &Connection) -> Result<(), StoreError> {
    tracing::warn!("session store: rebuilding the search index");
    make_in(conn)
}

/// Drops whatever is left of the index and makes it from `search_docs`, inside the caller's transaction.
fn make_in(conn: &Connection) -> Result<(), StoreError> {
    drop_index(conn)?;
    conn.execute_batch(INDEX)?;
    conn.execute_batch("INSERT INTO search_index (search_index) VALUES ('rebuild')")?;
    Ok(())
}

/// Forgets every document and the index over them, in one write transaction, and makes an empty index: every
/// session is then behind and is indexed again from its stored events (what the repair command does when the
/// documents themselves may be wrong, not only the index).
pub fn reset(conn: &Connection) -> Result<(), StoreError> {
    tracing::warn!("session store: forgetting the search documents, to index every session again");
    let tx = begin_write(conn)?;
    drop_index(&tx)?;
    tx.execute_batch("DELETE FROM search_docs; DELETE FROM search_state;")?;
    tx.execute_batch(INDEX)?;
    tx.commit()?;
    Ok(())
}

/// Drops the index's table, shadow tables and triggers, whatever state they are in.
fn drop_index(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "DROP TRIGGER IF EXISTS search_docs_insert; DROP TRIGGER IF EXISTS search_docs_delete;",
    )?;
    if let Err(err) = conn.execute_batch("DROP TABLE IF EXISTS search_index") {
        // FTS5 cannot even open a table whose configuration is gone, so it cannot drop it either: take its entry out
        // of the schema by hand (its shadow tables are dropped below).
        tracing::warn!("session store: the search index cannot be dropped ({err}); removing it");
        conn.execute_batch(
            "PRAGMA writable_schema = ON; \
             DELETE FROM sqlite_master WHERE type = 'table' AND name = 'search_index'; \
             PRAGMA writable_schema = RESET;",
        )?;
    }
    for table in SHADOW_TABLES {
        conn.execute_batch(&format!("DROP TABLE IF EXISTS {table}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_sqlite_has_fts5() {
        let conn = Connection::open_in_memory().expect("open");
        let used: i64 = conn
            .query_row(
                "SELECT sqlite_compileoption_used('ENABLE_FTS5')",
                [],
                |row| row.get(0),
            )
            .expect("compile option");
        assert_eq!(used, 1);
    }
}
