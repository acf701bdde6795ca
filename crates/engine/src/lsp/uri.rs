//! File paths as the `file:` URIs the protocol carries, and back.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The `file:` URI of an absolute path; `None` for a path no URI can name (relative).
pub fn uri_of(path: &Path) -> Option<Uri> {
    let url = url::Url::from_file_path(path).ok()?;
    Uri::from_str(url.as_str()).ok()
}

/// The path a `file:` URI names; `None` for another scheme.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_spaces_and_unicode_goes_there_and_back() {
        let path = Path::new("/tmp/a b/ünï.py");
        let uri = uri_of(path).expect("test value");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BCn%C3%AF.py");
        assert_eq!(path_of(&uri).expect("test value"), path);
        assert!(uri_of(Path::new("relative.py")).is_none());
    }
}
