//! Working out an edit without writing it: load the file, run every check (read before, unchanged since, encoding,
//! a unique or `replace_all` match, settings validity, secrets) and build the new text. Validation plans the edit
//! once and keeps the plan with the call's input; the approval preview shows it, and the call's critical section
//! (holding the session's write lock) takes it over when the file's bytes are still the ones planned from, so that a
//! large file is held in memory once (its old bytes and its new text), not loaded and copied again.

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::EditInput;
use super::matching::{self, MatchKind};
use super::quotes::{self, QuoteStyle};
use crate::tool::{FileStateStore, ToolError};
use crate::tools::file_io::change::{self, Current};
use crate::tools::file_io::encoding::{self, Encoding};
use crate::tools::file_io::guards;
use crate::tools::file_io::line_endings::{self, LineEnding};

/// An edit ready to be written.
#[derive(Debug)]
pub struct Planned {
    pub current: Current,
    pub encoding: Encoding,
    pub new_text: String,
    /// The byte range of the old text that changed (for the patch).
    pub changed: Range<usize>,
    pub replacements: usize,
    pub created: bool,
}

impl Planned {
    /// The old text (empty for a new file).
    pub fn old_text(&self) -> Cow<'_, str> {
        match self.current.bytes.as_deref() {
            Some(bytes) => encoding::decode_ref(bytes)
                .map(|(t, _)| t)
                .unwrap_or_default(),
            None => Cow::Borrowed(""),
        }
    }
}

/// The plan of one call, kept from validation to the call (shared by clones of the input).
#[derive(Debug, Clone, Default)]
pub struct PlanCache(Arc<Mutex<Option<Arc<Planned>>>>);

impl PlanCache {
    /// The plan made earlier for this call, if any.
    pub fn get(&self) -> Option<Arc<Planned>> {
        self.0.lock().ok().and_then(|slot| slot.clone())
    }

    /// Takes the plan made earlier for this call out of the cache (the call's critical section uses it up).
    pub fn take(&self) -> Option<Arc<Planned>> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Keeps `planned` for the later steps of this call.
    pub fn set(&self, planned: Arc<Planned>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(planned);
        }
    }
}

/// Plans the edit, taking over `earlier` when the file's bytes are the ones it was planned from: the file's hash is
/// computed anew and its writability and freshness checked again (it may have changed since), but it is not loaded
/// again and the matching and replacing are not repeated.
pub fn plan_reusing(
    key: &Path,
    input: &EditInput,
    store: &FileStateStore,
    earlier: Option<Planned>,
) -> Result<Planned, ToolError> {
    let Some(mut earlier) = earlier.filter(|e| e.current.hash.is_some() && e.current.key == key)
    else {
        return plan(key, input, store);
    };
    let Some(meta) = change::unchanged_since(&earlier.current)? else {
        drop(earlier);
        return plan(key, input, store);
    };
    earlier.current.meta = Some(meta);
    change::ensure_writable(&earlier.current)?;
    change::ensure_fresh(store, &earlier.current)?;
    Ok(earlier)
}

/// The most characters of `old_string` an error message repeats.
const MAX_ECHO_CHARS: usize = 2_000;

fn to_model(message: impl Into<String>) -> ToolError {
    ToolError::to_model(message)
}

/// The line ending the replacement text gets at `range`: the matched text's own if it spans lines, else the one
/// ending the line the match is on, else the file's.
fn ending_at(text: &str, range: &Range<usize>, file_style: Option<LineEnding>) -> LineEnding {
    if let Some(style) = line_endings::dominant(&text[range.clone()]) {
        return style;
    }
    match memchr::memchr(b'\n', &text.as_bytes()[range.end..]) {
        Some(i) if range.end + i > 0 && text.as_bytes()[range.end + i - 1] == b'\r' => {
            LineEnding::CrLf
        }
        Some(_) => LineEnding::Lf,
        None => file_style.unwrap_or(LineEnding::Lf),
    }
}

/// Widens a deletion of whole lines to take their line break too, so that deleting a line leaves no blank line.
fn widen_deletion(text: &str, range: Range<usize>, old: &str) -> Range<usize> {
    let at_line_start = range.start == 0 || text.as_bytes()[range.start - 1] == b'\n';
    if old.ends_with('\n') || !at_line_start {
        return range;
    }
    let rest = &text[range.end..];
    if rest.starts_with("\r\n") {
        range.start..range.end + 2
    } else if rest.starts_with('\n') {
        range.start..range.end + 1
    } else {
        range
    }
}

fn check_settings(key: &Path, new_text: &str) -> Result<(), ToolError> {
    if guards::is_settings_file(key)
        && let Err(why) = guards::validate_settings(new_text)
    {
        return Err(to_model(format!(
            "The edit would leave the settings file {} invalid: {why}. It was not made.",
            key.display()
        )));
    }
    Ok(())
}

/// Plans `input` against `key` (absolute, normalised).
pub fn plan(key: &Path, input: &EditInput, store: &FileStateStore) -> Result<Planned, ToolError> {
    let current = change::load(key)?;
    let Some(bytes) = current.bytes.as_deref() else {
        if !input.old_string.is_empty() {
            return Err(to_model(if store.get(key).is_some() {
                format!("File has been deleted since it was read: {}", key.display())
            } else {
                format!("File does not exist: {}", key.display())
            }));
        }
        check_settings(key, &input.new_string)?;
        return Ok(Planned {
            current,
            encoding: Encoding::Utf8,
            changed: 0..0,
            new_text: input.new_string.clone(),
            replacements: 1,
            created: true,
        });
    };
    change::ensure_writable(&current)?;
    change::ensure_fresh(store, &current)?;
    let (text, encoding) = encoding::decode_ref(bytes)
        .map_err(|e| to_model(format!("{} cannot be edited: {e}.", key.display())))?;
    if input.old_string.is_empty() {
        if !text.trim().is_empty() {
            return Err(to_model(
                "Cannot create a new file: the file already exists and is not empty. Give old_string to edit it.",
            ));
        }
        let new_text = line_endings::apply(
            &input.new_string,
            line_endings::dominant(&text).unwrap_or(LineEnding::Lf),
        )
        .into_owned();
        check_settings(key, &new_text)?;
        let changed = 0..text.len();
        return Ok(Planned {
            current,
            encoding,
            new_text,
            changed,
            replacements: 1,
            created: false,
        });
    }
    let (ranges, kind) = matching::find(&text, &input.old_string);
    // The search text is echoed back, but never whole when it is long.
    let echoed = || crate::text::cut_middle(&input.old_string, MAX_ECHO_CHARS, "old_string");
    if ranges.is_empty() {
        return Err(to_model(format!(
            "String to replace not found in file.\nString: {}",
            echoed()
        )));
    }
    if ranges.len() > 1 && !input.replace_all {
        return Err(to_model(format!(
            "Found {} matches of the string to replace, but replace_all is false. To replace all occurrences, \
             set replace_all to true. To replace only one occurrence, give more context to identify the instance \
             uniquely.\nString: {}",
            ranges.len(),
            echoed()
        )));
    }
    let style = match kind {
        MatchKind::Exact => QuoteStyle::default(),
        MatchKind::Tolerant => QuoteStyle::of(&text[ranges[0].clone()]),
    };
    let replacement = quotes::apply(&input.new_string, style);
    let with_crlf = line_endings::apply(&replacement, LineEnding::CrLf).into_owned();
    let file_style = line_endings::dominant(&text);
    let mut new_text = String::with_capacity(text.len() + ranges.len() * with_crlf.len());
    let mut last = 0;
    let mut changed = Range {
        start: usize::MAX,
        end: 0,
    };
    for range in &ranges {
        let range = if replacement.is_empty() {
            widen_deletion(&text, range.clone(), &input.old_string)
        } else {
            range.clone()
        };
        // A widened deletion may have taken the line break the next match starts with.
        let range = range.start.max(last)..range.end.max(last);
        new_text.push_str(&text[last..range.start]);
        match ending_at(&text, &range, file_style) {
            LineEnding::CrLf => new_text.push_str(&with_crlf),
            LineEnding::Lf => new_text.push_str(&replacement),
        }
        changed.start = changed.start.min(range.start);
        changed.end = range.end;
        last = range.end;
    }
    new_text.push_str(&text[last..]);
    if new_text == text {
        return Err(to_model(
            "The edit changes nothing: the new text is the same as the old.",
        ));
    }
    check_settings(key, &new_text)?;
    drop(text);
    Ok(Planned {
        current,
        encoding,
        new_text,
        changed,
        replacements: ranges.len(),
        created: false,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::tools::file_io::snapshot;

    fn input(path: &Path, old: &str, new: &str) -> EditInput {
        serde_json::from_value(serde_json::json!({
            "file_path": path.display().to_string(), "old_string": old, "new_string": new
        }))
        .expect("input")
    }

    fn read(store: &FileStateStore, path: &Path) {
        let bytes = fs::read(path).expect("read");
        let meta = fs::metadata(path).expect("meta");
        store.record(
            path,
            snapshot::state_of(&meta, Some(&blake3::hash(&bytes)), false),
        );
    }

    #[test]
    fn a_kept_plan_is_reused_only_while_the_file_is_unchanged() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.txt");
        fs::write(&path, "one two\n").expect("seed");
        let store = FileStateStore::default();
        read(&store, &path);
        let edit = input(&path, "one", "ONE");
        let earlier = plan(&path, &edit, &store).expect("plan");

        let reused = plan_reusing(&path, &edit, &store, Some(earlier)).expect("reuse");
        assert_eq!(reused.new_text, "ONE two\n");

        // The file changes (and is read again): the kept plan no longer fits and the edit is planned anew.
        fs::write(&path, "zero one two three\n").expect("change");
        read(&store, &path);
        let fresh = plan_reusing(&path, &edit, &store, Some(reused)).expect("re-plan");
        assert_eq!(fresh.new_text, "zero ONE two three\n");
    }

    #[test]
    fn a_kept_plan_does_not_skip_the_staleness_check() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.txt");
        fs::write(&path, "one\n").expect("seed");
        let store = FileStateStore::default();
        read(&store, &path);
        let edit = input(&path, "one", "ONE");
        let earlier = plan(&path, &edit, &store).expect("plan");
        store.forget(&path);

        let err = plan_reusing(&path, &edit, &store, Some(earlier)).expect_err("not read");
        assert!(err.to_string().contains("read"), "{err}");
    }

    #[test]
    fn a_long_search_text_that_is_not_found_is_not_echoed_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.txt");
        fs::write(&path, "one two\n").expect("seed");
        let store = FileStateStore::default();
        read(&store, &path);
        let long = "z".repeat(5 << 20);
        let err = plan(&path, &input(&path, &long, "y"), &store).expect_err("not found");
        let text = err.to_string();
        assert!(
            text.contains("not found") && text.len() < 3_000,
            "{} bytes",
            text.len()
        );
        assert!(text.contains("old_string truncated"), "{}", &text[..200]);
    }

    #[test]
    fn the_kept_plan_is_not_part_of_the_models_input() {
        let schema = crate::tool::dynamic::schema_for::<EditInput>();
        assert!(schema["properties"].get("planned").is_none(), "{schema}");
        let with_plan: Result<EditInput, _> = serde_json::from_value(serde_json::json!({
            "file_path": "a", "old_string": "x", "new_string": "y", "planned": null
        }));
        assert!(with_plan.is_err());
    }
}
