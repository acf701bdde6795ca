//! What one plugin folder brings: the folders and files of its skills, commands and agents, and its hook, MCP server
//! and language server configurations (with `${CLAUDE_PLUGIN_ROOT}` put in). The manifest's keys replace the
//! default places (`skills/`, `commands/`, `agents/`, `hooks/hooks.json`, `.mcp.json`, `.lsp.json`); a place the
//! manifest names that does not exist, or a configuration that cannot be read, is a problem to report, and the
//! rest of the plugin still loads.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::manifest::{ConfigRef, Manifest};
use super::substitute::with_plugin_root;

/// Folders deeper than this are not searched for command files (a link loop or a vendored tree).
const MAX_DEPTH: usize = 4;

/// The parts of one plugin.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parts {
    /// Folders holding `<name>/SKILL.md` (or a skill's own folder).
    pub skill_dirs: Vec<PathBuf>,
    /// Command files (`.md`) and folders of them.
    pub command_paths: Vec<PathBuf>,
    /// Agent files (`.md`) and folders of them.
    pub agent_paths: Vec<PathBuf>,
    /// The hooks by event (the `hooks` object of a hooks file), if any.
    pub hooks: Option<Value>,
    /// MCP servers by name, as configured.
    pub mcp_servers: Map<String, Value>,
    /// Language servers by name, as configured.
    pub lsp_servers: Map<String, Value>,
}

/// How many of each part a plugin brings, for the plugins list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PartCounts {
    pub skills: usize,
    pub commands: usize,
    pub agents: usize,
    pub hooks: usize,
    pub mcp_servers: usize,
    pub lsp_servers: usize,
}

/// Reads the parts of the plugin at `root`; what is wrong goes to `problems`.
pub fn read_parts(root: &Path, manifest: Option<&Manifest>, problems: &mut Vec<String>) -> Parts {
    let mut places = |given: Option<&Vec<String>>, default: &str, key: &str| -> Vec<PathBuf> {
        match given {
            None => {
                let path = root.join(default);
                path.exists().then_some(path).into_iter().collect()
            }
            Some(list) => list
                .iter()
                .filter_map(|p| inside(root, p, key, problems))
                .collect(),
        }
    };
    let skill_dirs = places(manifest.and_then(|m| m.skills.as_ref()), "skills", "skills");
    let command_paths = places(
        manifest.and_then(|m| m.commands.as_ref()),
        "commands",
        "commands",
    );
    let agent_paths = places(manifest.and_then(|m| m.agents.as_ref()), "agents", "agents");
    let hooks = config(
        root,
        manifest.and_then(|m| m.hooks.as_ref()),
        "hooks/hooks.json",
        "hooks",
        problems,
    )
    .map(|v| {
        v.get("hooks")
            .filter(|h| h.is_object())
            .cloned()
            .unwrap_or(v)
    });
    let servers =
        |value: Option<Value>, key: &str, problems: &mut Vec<String>| -> Map<String, Value> {
            let Some(value) = value else {
                return Map::new();
            };
            match value.get(key).cloned().unwrap_or(value) {
                Value::Object(map) => map,
                _ => {
                    problems.push(format!("`{key}` must be an object of servers by name"));
                    Map::new()
                }
            }
        };
    let mcp = config(
        root,
        manifest.and_then(|m| m.mcp_servers.as_ref()),
        ".mcp.json",
        "mcpServers",
        problems,
    );
    let lsp = config(
        root,
        manifest.and_then(|m| m.lsp_servers.as_ref()),
        ".lsp.json",
        "lspServers",
        problems,
    );
    Parts {
        skill_dirs,
        command_paths,
        agent_paths,
        hooks: hooks.filter(|h| h.as_object().is_some_and(|o| !o.is_empty())),
        mcp_servers: servers(mcp, "mcpServers", problems),
        lsp_servers: servers(lsp, "lspServers", problems),
    }
}

/// `path` (relative to `root`) when it exists inside the plugin; otherwise a problem naming the manifest key.
fn inside(root: &Path, path: &str, key: &str, problems: &mut Vec<String>) -> Option<PathBuf> {
    let full = crate::fsutil::normalise(&root.join(path));
    if Path::new(path).is_absolute() || !full.starts_with(crate::fsutil::normalise(root)) {
        problems.push(format!(
            "`{key}` path {path} is outside the plugin's folder; it is ignored"
        ));
        return None;
    }
    if !full.exists() {
        problems.push(format!("`{key}` path {path} does not exist"));
        return None;
    }
    Some(full)
}

/// A configuration (hooks, MCP or LSP servers): written in the manifest, read from the files it names (merged in
/// order), or read from the default file; `${CLAUDE_PLUGIN_ROOT}` put in.
fn config(
    root: &Path,
    given: Option<&ConfigRef>,
    default: &str,
    key: &str,
    problems: &mut Vec<String>,
) -> Option<Value> {
    let read = |path: &Path, problems: &mut Vec<String>| match super::json_file::read_json(path) {
        Ok(value) => value,
        Err(e) => {
            problems.push(e);
            None
        }
    };
    let value = match given {
        Some(ConfigRef::Inline(value)) => Some(value.clone()),
        None => read(&root.join(default), problems),
        Some(ConfigRef::Files(files)) => {
            let mut merged: Option<Value> = None;
            for file in files {
                let Some(path) = inside(root, file, key, problems) else {
                    continue;
                };
                let Some(value) = read(&path, problems) else {
                    continue;
                };
                merged = Some(match (merged, value) {
                    (Some(Value::Object(mut a)), Value::Object(b)) => {
                        merge_objects(&mut a, b);
                        Value::Object(a)
                    }
                    (_, value) => value,
                });
            }
            merged
        }
    };
    value.map(|v| with_plugin_root(&v, root))
}

/// Adds `b` to `a`; objects under the same key are merged, lists joined.
fn merge_objects(a: &mut Map<String, Value>, b: Map<String, Value>) {
    for (k, v) in b {
        match (a.get_mut(&k), v) {
            (Some(Value::Object(x)), Value::Object(y)) => merge_objects(x, y),
            (Some(Value::Array(x)), Value::Array(y)) => x.extend(y),
            (_, v) => {
                a.insert(k, v);
            }
        }
    }
}

impl Parts {
    /// How many of each part there are.
    pub fn counts(&self) -> PartCounts {
        let skills = self.skill_dirs.iter().map(|d| skills_in(d)).sum();
        let commands = self
            .command_paths
            .iter()
            .map(|p| md_files(p, MAX_DEPTH))
            .sum();
        let agents = self.agent_paths.iter().map(|p| md_files(p, 0)).sum();
        let hooks = self
            .hooks
            .as_ref()
            .and_then(Value::as_object)
            .map(|events| {
                events
                    .values()
                    .filter_map(Value::as_array)
                    .flatten()
                    .filter_map(|m| m.get("hooks").and_then(Value::as_array))
                    .map(Vec::len)
                    .sum()
            })
            .unwrap_or(0);
        PartCounts {
            skills,
            commands,
            agents,
            hooks,
            mcp_servers: self.mcp_servers.len(),
            lsp_servers: self.lsp_servers.len(),
        }
    }
}

/// The skills of a skills folder (a skill's own folder counts one).
fn skills_in(dir: &Path) -> usize {
    if dir.join("SKILL.md").is_file() {
        return 1;
    }
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join("SKILL.md").is_file())
                .count()
        })
        .unwrap_or(0)
}

/// The `.md` files of `path` (itself, or in it down to `depth` folders below).
fn md_files(path: &Path, depth: usize) -> usize {
    if path.is_file() {
        return usize::from(path.extension().is_some_and(|e| e == "md"));
    }
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .map(|p| match p.is_dir() {
                    true if depth > 0 => md_files(&p, depth - 1),
                    true => 0,
                    false => md_files(&p, 0),
                })
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn default_places_are_read_and_the_manifest_replaces_them() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        write(
            root,
            "skills/review/SKILL.md",
            "---\ndescription: r\n---\nx",
        );
        write(root, "commands/ship.md", "Ship");
        write(root, "commands/sub/more.md", "More");
        write(
            root,
            "agents/auditor.md",
            "---\nname: a\ndescription: d\n---\n",
        );
        write(
            root,
            "hooks/hooks.json",
            &json!({"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
                {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh"}]}]}})
            .to_string(),
        );
        write(
            root,
            ".mcp.json",
            &json!({"mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/db"}}}).to_string(),
        );
        write(
            root,
            ".lsp.json",
            &json!({"go": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}).to_string(),
        );
        let mut problems = Vec::new();
        let parts = read_parts(root, None, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            parts.counts(),
            PartCounts {
                skills: 1,
                commands: 2,
                agents: 1,
                hooks: 1,
                mcp_servers: 1,
                lsp_servers: 1
            }
        );
        let fmt = root.join("fmt.sh").display().to_string();
        assert_eq!(
            parts.hooks.as_ref().expect("hooks")["PostToolUse"][0]["hooks"][0]["command"],
            json!(fmt)
        );
        assert_eq!(
            parts.mcp_servers["db"]["command"],
            json!(root.join("db").display().to_string())
        );

        write(root, "special/one.md", "One");
        let manifest = Manifest {
            name: "p".into(),
            commands: Some(vec![
                "./special/one.md".into(),
                "./missing".into(),
                "../escape".into(),
            ]),
            hooks: Some(ConfigRef::Files(vec!["./broken.json".into()])),
            ..Manifest::default()
        };
        write(root, "broken.json", "{ nope");
        let parts = read_parts(root, Some(&manifest), &mut problems);
        assert_eq!(parts.command_paths, [root.join("special/one.md")]);
        assert_eq!(parts.hooks, None);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.contains("./missing does not exist")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("outside the plugin")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("broken.json is not valid JSON")),
            "{problems:?}"
        );
    }
}
