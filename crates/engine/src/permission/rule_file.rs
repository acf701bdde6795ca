//! Editing the permission rules of one settings file: adding (validated by the rule parser), removing and moving a
//! rule between files. Every other key and rule of the file is kept; the file is written through a temporary file
//! and a rename, so a cut-off write never loses it. "Yes, and don't ask again" and the rules panel both use it.

use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};

use super::rule::{RuleBehavior, parse_rule};
use crate::settings::{is_strict_json, parse_jsonc};

/// Why a rule could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a JSON object ({message}); it was left unchanged")]
    Malformed { path: String, message: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("`{rule}` is not a valid {behavior} rule: {message}")]
    Invalid {
        rule: String,
        behavior: &'static str,
        message: String,
    },
    #[error("rules of {scope} cannot be edited here (only local, project and user settings)")]
    NotEditable { scope: &'static str },
    #[error("`{rule}` is not in the {behavior} list of {path}")]
    Missing {
        rule: String,
        behavior: &'static str,
        path: String,
    },
}

/// Checks `rule` with the rule parser for the `behavior` list; returns the trimmed text.
pub fn validate_rule(rule: &str, behavior: RuleBehavior) -> Result<String, SaveError> {
    let text = rule.trim();
    parse_rule(text, behavior).map_err(|message| SaveError::Invalid {
        rule: text.to_string(),
        behavior: behavior.as_str(),
        message,
    })?;
    Ok(text.to_string())
}

/// Adds `rules` (each checked by the rule parser) to the `behavior` list of the settings file at `file`, creating it
/// (and its folder) if needed. Rules already present are not added twice.
pub fn add_rules(file: &Path, behavior: RuleBehavior, rules: &[String]) -> Result<(), SaveError> {
    let texts = rules
        .iter()
        .map(|r| validate_rule(r, behavior))
        .collect::<Result<Vec<_>, _>>()?;
    edit_list(file, behavior, |list| {
        for rule in texts {
            if !list.iter().any(|r| r.as_str() == Some(rule.as_str())) {
                list.push(Value::String(rule));
            }
        }
        Ok(())
    })
}

/// Removes `rule` from the `behavior` list of the settings file at `file`; an error if it is not there.
pub fn remove_rule(file: &Path, behavior: RuleBehavior, rule: &str) -> Result<(), SaveError> {
    let path = file.display().to_string();
    let text = rule.trim();
    edit_list(file, behavior, |list| {
        let before = list.len();
        list.retain(|r| r.as_str().map(str::trim) != Some(text));
        if list.len() == before {
            return Err(SaveError::Missing {
                rule: text.to_string(),
                behavior: behavior.as_str(),
                path: path.clone(),
            });
        }
        Ok(())
    })
}

/// Moves `rule` of the `behavior` list from the settings file `from` to `to`: added there first, then removed here,
/// so that a failure never loses it.
pub fn move_rule(
    from: &Path,
    to: &Path,
    behavior: RuleBehavior,
    rule: &str,
) -> Result<(), SaveError> {
    if from == to {
        return Ok(());
    }
    if !read_root(from)?
        .pointer(&format!("/permissions/{}", behavior.as_str()))
        .and_then(Value::as_array)
        .is_some_and(|l| {
            l.iter()
                .any(|r| r.as_str().map(str::trim) == Some(rule.trim()))
        })
    {
        return Err(SaveError::Missing {
            rule: rule.trim().to_string(),
            behavior: behavior.as_str(),
            path: from.display().to_string(),
        });
    }
    add_rules(to, behavior, &[rule.to_string()])?;
    remove_rule(from, behavior, rule)
}

/// The file's JSON (an empty object when it does not exist or is empty), for a rewrite. A file with comments or
/// trailing commas (which the settings loader reads) is not rewritten: that would drop what the person wrote.
pub(crate) fn read_root(file: &Path) -> Result<Value, SaveError> {
    let path = file.display().to_string();
    let malformed = |message: String| SaveError::Malformed {
        path: path.clone(),
        message,
    };
    match std::fs::read_to_string(file) {
        Ok(text) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
        Ok(text) if is_strict_json(&text) => serde_json::from_str::<Value>(
            text.strip_prefix('\u{feff}').unwrap_or(&text),
        )
        .map_err(|e| malformed(e.to_string())),
        Ok(text) => match parse_jsonc(&text) {
            Ok(_) => Err(malformed(
                "it has comments or trailing commas, which rewriting it would drop; add the rule by hand".into(),
            )),
            Err(e) => Err(malformed(e)),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::Object(Map::new())),
        Err(source) => Err(SaveError::Read { path, source }),
    }
}

/// Reads the file, lets `edit` change `permissions.<behavior>` and writes it back.
fn edit_list(
    file: &Path,
    behavior: RuleBehavior,
    edit: impl FnOnce(&mut Vec<Value>) -> Result<(), SaveError>,
) -> Result<(), SaveError> {
    let path = file.display().to_string();
    let malformed = |message: &str| SaveError::Malformed {
        path: path.clone(),
        message: message.to_string(),
    };
    let mut root = read_root(file)?;
    let obj = root
        .as_object_mut()
        .ok_or_else(|| malformed("the top level is not an object"))?;
    let perms = obj
        .entry("permissions")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| malformed("`permissions` is not an object"))?;
    let list = perms
        .entry(behavior.as_str())
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or_else(|| {
            malformed(&format!(
                "`permissions.{}` is not an array",
                behavior.as_str()
            ))
        })?;
    edit(list)?;
    write(file, &root)
}

/// Writes `root` to `file` through a temporary file in the same folder and a rename.
pub(super) fn write(file: &Path, root: &Value) -> Result<(), SaveError> {
    let path = file.display().to_string();
    let failed = |source: std::io::Error| SaveError::Write {
        path: path.clone(),
        source,
    };
    let mut text = serde_json::to_string_pretty(root).map_err(|e| SaveError::Malformed {
        path: path.clone(),
        message: e.to_string(),
    })?;
    text.push('\n');
    let dir = file.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(failed)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    temp.write_all(text.as_bytes()).map_err(failed)?;
    temp.as_file().sync_all().map_err(failed)?;
    temp.persist(file).map_err(|e| failed(e.error))?;
    Ok(())
}
