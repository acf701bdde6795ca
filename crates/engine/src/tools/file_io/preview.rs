//! The before-and-after text of a file change, for the approval dialog and the transcript's diff. Large files are
//! left out (the UI then shows the patch hunks alone), so a 50 MB edit never crosses into the webview whole.

use std::path::Path;

use tandem_protocol::FileDiff;

/// Largest old + new text (in bytes) carried to the UI.
pub const MAX_DIFF_BYTES: usize = 2 * 1024 * 1024;

/// The change of `path` from `old_text` to `new_text`, unless it is too large to show.
pub fn file_diff(
    path: &Path,
    old_text: &str,
    new_text: &str,
    is_new_file: bool,
) -> Option<FileDiff> {
    (old_text.len() + new_text.len() <= MAX_DIFF_BYTES).then(|| FileDiff {
        path: path.display().to_string(),
        old_text: old_text.to_string(),
        new_text: new_text.to_string(),
        is_new_file,
    })
}
