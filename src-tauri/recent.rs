//! Recently opened folders, remembered across runs in the app's data directory.

use std::path::{Path, PathBuf};

/// How many folders are remembered.
const KEEP: usize = 10;

/// The file the list is kept in.
pub fn recent_file() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tandem/recent.json"))
}

/// Reads the list from `file`, without folders that no longer exist; a missing or broken file gives an empty list.
pub fn load(file: &Path) -> Vec<String> {
    let list: Vec<String> = std::fs::read_to_string(file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    list.into_iter().filter(|f| Path::new(f).is_dir()).collect()
}

/// Puts `folder` first in the list in `file` and saves it atomically (temp file + rename). Returns the new list.
pub fn remember(file: &Path, folder: &str) -> std::io::Result<Vec<String>> {
    let mut list = load(file);
    list.retain(|f| f != folder);
    list.insert(0, folder.to_string());
    list.truncate(KEEP);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension("json.tmp");
    std::fs::write(
        &tmp,
        serde_json::to_vec_pretty(&list).map_err(std::io::Error::other)?,
    )?;
    std::fs::rename(&tmp, file)?;
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_recent_first_without_duplicates_or_folders_that_are_gone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let folder = |name: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(&path).expect("mkdir");
            path.display().to_string()
        };
        let (a, b, c) = (folder("a"), folder("b"), folder("c"));
        let file = dir.path().join("sub/recent.json");
        remember(&file, &a).expect("save");
        remember(&file, &b).expect("save");
        remember(&file, &c).expect("save");
        let list = remember(&file, &a).expect("save");
        assert_eq!(list, vec![a.clone(), c.clone(), b.clone()]);
        assert_eq!(load(&file), list);
        std::fs::remove_dir(&c).expect("rmdir");
        assert_eq!(load(&file), vec![a, b]);
    }
}
