//! [`SessionStore`]'s organising methods: collections of a folder's sessions (nested), a session's collection, pin,
//! archive and tags. Each change is one write transaction on the reader connection, after the queued writes have
//! committed; another process writing meanwhile is waited for (SQLite's write lock), so concurrent writers never
//! lose a change. Errors: [`StoreError::Organise`] for a change that cannot be made (an unknown or foreign
//! collection, a collection put inside itself, an empty or too long name, too many tags),
//! [`StoreError::UnknownSession`] for a session that is not stored, [`StoreError::NoOrganising`] for a file of an
//! older schema.

use std::path::Path;

use rusqlite::Transaction;

use super::StoreError;
use super::organise;
use super::schema::begin_write;
use super::session_store::{SessionStore, canonical_folder, now_ms};
use super::types::Collection;

impl SessionStore {
    /// Runs `change` in one write transaction.
    fn organise<T>(
        &self,
        change: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.read(|conn| {
            if !organise::enabled(conn)? {
                return Err(StoreError::NoOrganising);
            }
            let tx = begin_write(conn)?;
            let out = change(&tx)?;
            tx.commit()?;
            Ok(out)
        })
    }

    /// The collections of project folder `folder` (canonicalised), by name; nest them by `parent_id`.
    pub fn collections(&self, folder: &Path) -> Result<Vec<Collection>, StoreError> {
        let folder = canonical_folder(folder);
        self.read(|conn| {
            if !organise::enabled(conn)? {
                return Ok(Vec::new());
            }
            organise::list(conn, &folder.to_string_lossy())
        })
    }

    /// One collection, if it exists.
    pub fn collection(&self, id: i64) -> Result<Option<Collection>, StoreError> {
        self.read(|conn| organise::get(conn, id))
    }

    /// Creates a collection named `name` in project folder `folder` (canonicalised), inside `parent` (the top level
    /// when `None`, else a collection of the same folder).
    pub fn create_collection(
        &self,
        folder: &Path,
        name: &str,
        parent: Option<i64>,
    ) -> Result<Collection, StoreError> {
        let folder = canonical_folder(folder);
        self.organise(|tx| organise::create(tx, &folder.to_string_lossy(), name, parent, now_ms()))
    }

    pub fn rename_collection(&self, id: i64, name: &str) -> Result<(), StoreError> {
        self.organise(|tx| organise::rename(tx, id, name))
    }

    /// Moves a collection, with all it holds, into `parent` (the top level when `None`); never into itself or one
    /// of its own collections.
    pub fn move_collection(&self, id: i64, parent: Option<i64>) -> Result<(), StoreError> {
        self.organise(|tx| organise::move_collection(tx, id, parent))
    }

    /// Deletes a collection; its sessions and collections move up to where it was (nothing is deleted with it).
    pub fn delete_collection(&self, id: i64) -> Result<(), StoreError> {
        self.organise(|tx| organise::delete(tx, id))
    }

    /// Puts a session into a collection of its own project folder (the top level when `None`).
    pub fn move_session(&self, id: &str, collection: Option<i64>) -> Result<(), StoreError> {
        self.organise(|tx| organise::move_session(tx, id, collection))
    }

    /// Pins or unpins a session: pinned sessions are listed first.
    pub fn set_pinned(&self, id: &str, pinned: bool) -> Result<(), StoreError> {
        self.organise(|tx| organise::pin(tx, id, pinned, now_ms()))
    }

    /// Archives a session (kept, with everything in it, but listed apart) or restores it.
    pub fn set_archived(&self, id: &str, archived: bool) -> Result<(), StoreError> {
        self.organise(|tx| organise::archive(tx, id, archived, now_ms()))
    }

    /// Replaces a session's tags: each is trimmed and lower-cased; repeats count once. Returns the tags as stored.
    pub fn set_tags(&self, id: &str, tags: &[String]) -> Result<Vec<String>, StoreError> {
        let clean = organise::clean_tags(tags)?;
        self.organise(|tx| organise::set_tags(tx, id, &clean))?;
        Ok(clean)
    }
}
