//! The install records of `<config>/plugins/installed_plugins.json`: for each plugin id (`name@marketplace`) where
//! its files were put. Version 2 of the file keeps a list of records per id (one per scope; a project or local
//! record names its project); version 1 kept one record. A record for another project is not this folder's.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The file the install records are kept in, inside the plugins folder.
pub const INSTALLED_FILE: &str = "installed_plugins.json";

/// One installed plugin, as its record says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallRecord {
    /// `name@marketplace`.
    pub id: String,
    /// The plugin's folder (`installPath`).
    pub root: PathBuf,
    /// The version the record names, if any.
    pub version: Option<String>,
    /// `user`, `project`, `local` or `managed`, when the record says.
    pub scope: Option<String>,
}

impl InstallRecord {
    /// The plugin's name: the id before its last `@`.
    pub fn name(&self) -> &str {
        split_id(&self.id).0
    }

    /// The marketplace it came from: the id after its last `@` (empty when the id has none).
    pub fn marketplace(&self) -> &str {
        split_id(&self.id).1
    }
}

/// `name@marketplace` split at the last `@`.
pub fn split_id(id: &str) -> (&str, &str) {
    id.rsplit_once('@').unwrap_or((id, ""))
}

/// The records that apply to `project` in `plugins_dir`, sorted by id, with what was wrong with the file or a record
/// (a broken record is left out; the others still load). No file: no plugins, no problem.
pub fn read_installed(plugins_dir: &Path, project: &Path) -> (Vec<InstallRecord>, Vec<String>) {
    let file = plugins_dir.join(INSTALLED_FILE);
    let value = match super::json_file::read_json(&file) {
        Ok(Some(v)) => v,
        Ok(None) => return (Vec::new(), Vec::new()),
        Err(e) => return (Vec::new(), vec![e]),
    };
    let Some(plugins) = value.get("plugins").and_then(Value::as_object) else {
        return (
            Vec::new(),
            vec![format!("{} has no `plugins` object", file.display())],
        );
    };
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (id, records) in plugins {
        let list: Vec<&Value> = match records {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        let usable: Vec<(InstallRecord, Option<PathBuf>)> = list
            .into_iter()
            .filter_map(|r| match record(id, r, plugins_dir) {
                Ok(found) => Some(found),
                Err(e) => {
                    problems.push(format!("{}: `{id}`: {e}", file.display()));
                    None
                }
            })
            .collect();
        // This project's own record first, else one that names no project.
        let mine = usable
            .iter()
            .find(|(_, p)| p.as_ref().is_some_and(|p| same_folder(p, &project)))
            .or_else(|| usable.iter().find(|(_, p)| p.is_none()));
        if let Some((found, _)) = mine {
            out.push(found.clone());
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    (out, problems)
}

fn same_folder(a: &Path, canonical_b: &Path) -> bool {
    std::fs::canonicalize(a).unwrap_or_else(|_| a.to_path_buf()) == canonical_b
}

/// One record and the project it is for (`projectPath`), if any.
fn record(
    id: &str,
    value: &Value,
    plugins_dir: &Path,
) -> Result<(InstallRecord, Option<PathBuf>), String> {
    let obj = value.as_object().ok_or("a record must be an object")?;
    let path = obj
        .get("installPath")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
        .ok_or("a record needs an `installPath`")?;
    let text = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    Ok((
        InstallRecord {
            id: id.to_string(),
            root: plugins_dir.join(path),
            version: text("version"),
            scope: text("scope"),
        },
        text("projectPath").map(PathBuf::from),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn records_of_both_versions_load_and_another_projects_record_is_not_this_ones() {
        let dir = tempfile::tempdir().expect("dir");
        let project = dir.path().join("proj");
        std::fs::create_dir_all(&project).expect("mkdir");
        std::fs::write(
            dir.path().join(INSTALLED_FILE),
            json!({"version": 2, "plugins": {
                "a@m": [{"scope": "user", "installPath": "/x/a", "version": "1.0.0"}],
                "b@m": [
                    {"scope": "project", "installPath": "/x/b-other", "projectPath": "/elsewhere"},
                    {"scope": "local", "installPath": "/x/b", "projectPath": project.display().to_string()}
                ],
                "c@m": [{"scope": "project", "installPath": "/x/c", "projectPath": "/elsewhere"}],
                "d@m": {"installPath": "/x/d"},
                "e@m": [{"scope": "user"}]
            }})
            .to_string(),
        )
        .expect("write");
        let (records, problems) = read_installed(dir.path(), &project);
        let got: Vec<(&str, &Path, Option<&str>)> = records
            .iter()
            .map(|r| (r.id.as_str(), r.root.as_path(), r.scope.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("a@m", Path::new("/x/a"), Some("user")),
                ("b@m", Path::new("/x/b"), Some("local")),
                ("d@m", Path::new("/x/d"), None),
            ]
        );
        assert_eq!(records[0].version.as_deref(), Some("1.0.0"));
        assert_eq!((records[0].name(), records[0].marketplace()), ("a", "m"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("e@m"), "{problems:?}");
    }
}
