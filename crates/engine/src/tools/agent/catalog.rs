//! The agent types of a session: the built-in ones, then the custom agents of `~/.claude/agents/*.md` and
//! `<project>/.claude/agents/*.md` (a project agent replaces a user agent or a built-in of the same name). A broken
//! file is reported with its path and left out; the others load. Plugins that are on add theirs, named
//! `<plugin>:<name>`.

use std::path::{Path, PathBuf};

use tandem_protocol::PermissionMode;

use super::definition::{AgentDefinition, AgentSource, built_in_agents};
use crate::frontmatter::{self, Value};
use crate::settings::RuleSource;

/// A problem with one agent file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentFileIssue {
    pub path: PathBuf,
    pub message: String,
    /// Whether the agent was still loaded (an unknown key) or left out (a broken file).
    pub loaded: bool,
}

/// The agent types available, with the problems found loading them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentCatalog {
    pub agents: Vec<AgentDefinition>,
    pub issues: Vec<AgentFileIssue>,
}

const KNOWN_KEYS: &[&str] = &[
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "color",
    "hooks",
];

impl AgentCatalog {
    /// The built-in types only.
    pub fn built_in() -> Self {
        Self {
            agents: built_in_agents(),
            issues: Vec::new(),
        }
    }

    /// The built-in types, the user's agents (`home/.claude/agents`), then the project's (`project/.claude/agents`).
    pub fn load(project: &Path, home: Option<&Path>) -> Self {
        let mut catalog = Self::built_in();
        if let Some(home) = home {
            catalog.load_folder(&home.join(".claude/agents"), AgentSource::User);
        }
        catalog.load_folder(&project.join(".claude/agents"), AgentSource::Project);
        catalog
    }

    fn load_folder(&mut self, folder: &Path, source: fn(PathBuf) -> AgentSource) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
            .collect();
        files.sort();
        for path in files {
            match load_file(&path, source(path.clone())) {
                Ok((agent, warnings)) => {
                    self.issues
                        .extend(warnings.into_iter().map(|message| AgentFileIssue {
                            path: path.clone(),
                            message,
                            loaded: true,
                        }));
                    self.agents.retain(|a| a.name != agent.name);
                    self.agents.push(agent);
                }
                Err(message) => self.issues.push(AgentFileIssue {
                    path,
                    message,
                    loaded: false,
                }),
            }
        }
    }

    /// The agents of a plugin's agent file or folder (`*.md`), each named `<plugin>:<name>`; one replaces a type of
    /// the same full name loaded before it. A plugin agent's own `hooks` are not taken (a warning says so): a
    /// plugin's hooks belong in its hooks file, where trust and review apply to them.
    pub fn load_plugin_path(&mut self, path: &Path, plugin: &str) {
        let mut files: Vec<PathBuf> = match path.is_file() {
            true => vec![path.to_path_buf()],
            false => std::fs::read_dir(path)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
                        .collect()
                })
                .unwrap_or_default(),
        };
        files.sort();
        for path in files {
            match load_file(&path, AgentSource::Plugin(path.clone())) {
                Ok((mut agent, warnings)) => {
                    agent.name = format!("{plugin}:{}", agent.name);
                    self.issues
                        .extend(warnings.into_iter().map(|message| AgentFileIssue {
                            path: path.clone(),
                            message,
                            loaded: true,
                        }));
                    self.agents.retain(|a| a.name != agent.name);
                    self.agents.push(agent);
                }
                Err(message) => self.issues.push(AgentFileIssue {
                    path,
                    message,
                    loaded: false,
                }),
            }
        }
    }

    /// The agent type called `name`.
    pub fn find(&self, name: &str) -> Option<&AgentDefinition> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// The catalog without the types `removed` names (e.g. those an `Agent(type)` deny rule removes).
    pub fn without(&self, removed: impl Fn(&str) -> bool) -> Self {
        Self {
            agents: self
                .agents
                .iter()
                .filter(|a| !removed(&a.name))
                .cloned()
                .collect(),
            issues: self.issues.clone(),
        }
    }

    /// The names of the types, comma-separated (for error messages).
    pub fn names(&self) -> String {
        self.agents
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Reads one agent file: the agent and warnings (unknown keys), or what makes it unusable.
fn load_file(path: &Path, source: AgentSource) -> Result<(AgentDefinition, Vec<String>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot be read: {e}"))?;
    let doc = frontmatter::parse(&text)?;
    let field = |key: &str| doc.get(key);
    let text_of = |key: &str| doc.text(key);
    let name = text_of("name").ok_or("the frontmatter has no `name`")?;
    if name.contains(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        return Err(format!(
            "the name `{name}` may not contain spaces or parentheses"
        ));
    }
    let description = text_of("description").ok_or("the frontmatter has no `description`")?;
    let permission_mode = match text_of("permissionMode") {
        None => None,
        Some(mode) => Some(
            PermissionMode::parse(&mode)
                .ok_or_else(|| format!("`permissionMode: {mode}` is not a permission mode"))?,
        ),
    };
    let max_turns = match text_of("maxTurns") {
        None => None,
        Some(n) => Some(
            n.parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("`maxTurns: {n}` is not a positive number"))?,
        ),
    };
    let mut warnings: Vec<String> = doc
        .fields
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, _)| format!("unknown key `{k}` (ignored)"))
        .collect();
    let hooks = match (field("hooks"), &source) {
        (None, _) | (Some(_), AgentSource::BuiltIn) => Default::default(),
        (Some(_), AgentSource::Plugin(_)) => {
            warnings.push(
                "a plugin agent's own `hooks` are not run (the plugin's hooks file is)".into(),
            );
            Default::default()
        }
        (Some(block), AgentSource::Project(file) | AgentSource::User(file)) => {
            let from = match &source {
                AgentSource::Project(_) => RuleSource::Project(file.clone()),
                _ => RuleSource::User(file.clone()),
            };
            let value = match block {
                Value::Block(value) => value.clone(),
                other => serde_json::Value::String(other.text()),
            };
            let (hooks, problems) = super::own_hooks::agent_hooks(&value, &from);
            warnings.extend(problems);
            hooks
        }
    };
    let agent = AgentDefinition {
        name,
        description,
        tools: field("tools").map(Value::items).filter(|t| !t.is_empty()),
        disallowed_tools: field("disallowedTools")
            .map(Value::items)
            .unwrap_or_default(),
        model: text_of("model").filter(|m| m != "inherit"),
        permission_mode,
        max_turns,
        system_prompt: doc.body,
        source,
        hooks,
    };
    Ok((agent, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_is_reported_and_the_others_load() {
        let dir = tempfile::tempdir().expect("tempdir");
        let agents = dir.path().join(".claude/agents");
        std::fs::create_dir_all(&agents).expect("mkdir");
        std::fs::write(
            agents.join("good.md"),
            "---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\npermissionMode: plan\nmaxTurns: 3\nflavour: x\n---\nReview.\n",
        )
        .expect("write");
        std::fs::write(agents.join("bad.md"), "---\nname: broken\n").expect("write");
        let catalog = AgentCatalog::load(dir.path(), None);
        let reviewer = catalog.find("reviewer").expect("loaded");
        assert_eq!(reviewer.tools, Some(vec!["Read".into(), "Grep".into()]));
        assert_eq!(reviewer.permission_mode, Some(PermissionMode::Plan));
        assert_eq!(reviewer.max_turns, Some(3));
        assert!(catalog.find("broken").is_none());
        assert!(
            catalog
                .issues
                .iter()
                .any(|i| i.path.ends_with("bad.md") && !i.loaded)
        );
        assert!(
            catalog
                .issues
                .iter()
                .any(|i| i.path.ends_with("good.md") && i.loaded && i.message.contains("flavour"))
        );
        assert!(catalog.find("Explore").is_some());
    }
}
