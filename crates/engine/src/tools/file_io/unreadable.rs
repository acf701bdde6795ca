//! What a search could not read — a folder it could not list, a file it could not open — kept so that the answer
//! says so: "No files found" must never stand for "could not look".

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many unreadable paths are named in the note (the rest are counted).
const NAMED: usize = 5;

/// The paths a search could not read, shared by its walking threads.
#[derive(Debug, Default)]
pub struct Unreadable {
    count: AtomicUsize,
    named: Mutex<Vec<String>>,
}

impl Unreadable {
    /// Records a path that could not be read; `what` names it and says why (`/p/secret: Permission denied`).
    pub fn record(&self, what: String) {
        self.count.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut named) = self.named.lock()
            && named.len() < NAMED
        {
            named.push(what);
        }
    }

    /// The note for the model, or `None` when everything could be read.
    pub fn note(&self) -> Option<String> {
        let count = self.count.load(Ordering::Relaxed);
        if count == 0 {
            return None;
        }
        let mut named = self.named.lock().map(|n| n.clone()).unwrap_or_default();
        named.sort();
        let more = count.saturating_sub(named.len());
        let rest = if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        };
        Some(format!(
            "[{count} path{} could not be read, so what {} hold was not searched: {}{rest}]",
            if count == 1 { "" } else { "s" },
            if count == 1 { "it may" } else { "they may" },
            named.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_the_first_paths_and_counts_the_rest() {
        let none = Unreadable::default();
        assert_eq!(none.note(), None);
        let some = Unreadable::default();
        for i in 0..7 {
            some.record(format!("/p/d{i}: Permission denied"));
        }
        let note = some.note().expect("a note");
        assert!(note.starts_with("[7 paths could not be read"), "{note}");
        assert!(
            note.contains("/p/d0: Permission denied") && note.ends_with("; and 2 more]"),
            "{note}"
        );
    }
}
