//! Which servers a session has: `--mcp-config` (with `--strict-mcp-config`, nothing else), the settings' `mcpServers`
//! and the project's `.mcp.json`, the first definition of a name winning; and whether each may start. Servers the
//! project itself defines (`.mcp.json`, or the shared `.claude/settings.json`) start only once approved: by
//! `enableAllProjectMcpServers` / `enabledMcpjsonServers` in a settings file the project does not ship, or by the
//! person (the [`ApprovalStore`]); `disabledMcpjsonServers` and a refusal keep them off.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::config::{
    ConfigError, Origin, ServerConfig, parse_server, parse_text, read_file, servers_of,
};
use crate::settings::{McpSettings, RuleSource};

/// The MCP inputs of the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpCliConfig {
    /// Each `--mcp-config` value: a file path, or JSON text.
    pub configs: Vec<String>,
    /// `--strict-mcp-config`: only the servers of `configs`.
    pub strict: bool,
}

/// Whether a server may start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    Approved,
    /// Defined by the project and not yet approved.
    NeedsApproval,
    /// Refused (`disabledMcpjsonServers`, or the person said no).
    Disabled,
}

/// One server the session knows of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planned {
    Server {
        config: ServerConfig,
        approval: Approval,
    },
    /// Its configuration is wrong; the server is listed as failed with this error.
    Invalid(ConfigError),
}

impl Planned {
    /// The server's name as configured.
    pub fn name(&self) -> &str {
        match self {
            Self::Server { config, .. } => &config.name,
            Self::Invalid(e) => &e.server,
        }
    }
}

/// Everything [`plan`] found: the servers, and problems with whole files (for notices).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub servers: Vec<Planned>,
    pub file_errors: Vec<String>,
    /// The tools the person turned off (full names).
    pub disabled_tools: Vec<String>,
}

/// The person's answers about project servers, per folder, in a JSON file outside the project.
#[derive(Debug, Clone)]
pub struct ApprovalStore {
    path: PathBuf,
}

#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct FolderAnswers {
    #[serde(default)]
    approved: BTreeSet<String>,
    #[serde(default)]
    denied: BTreeSet<String>,
}

impl ApprovalStore {
    /// The store in the app's data folder.
    pub fn standard() -> Self {
        Self::at(crate::fsutil::app_data_dir_or_temp().join("mcp-approvals.json"))
    }

    /// A store kept in `path`.
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    fn read(&self) -> BTreeMap<String, FolderAnswers> {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// The answer recorded for `server` in `folder`, if any.
    pub fn answer(&self, folder: &Path, server: &str) -> Option<bool> {
        let all = self.read();
        let answers = all.get(&folder.display().to_string())?;
        if answers.denied.contains(server) {
            Some(false)
        } else if answers.approved.contains(server) {
            Some(true)
        } else {
            None
        }
    }

    /// Records that `server` of `folder` may (or may not) start.
    pub fn record(&self, folder: &Path, server: &str, approved: bool) -> std::io::Result<()> {
        let mut all = self.read();
        let answers = all.entry(folder.display().to_string()).or_default();
        answers.approved.remove(server);
        answers.denied.remove(server);
        if approved {
            answers.approved.insert(server.to_string());
        } else {
            answers.denied.insert(server.to_string());
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string_pretty(&all).map_err(std::io::Error::other)?;
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &self.path)
    }
}

/// Whether a settings source belongs to the project itself (shipped with it, so not trusted to approve servers).
fn shipped_by_project(source: &RuleSource) -> bool {
    matches!(source, RuleSource::Project(_))
}

fn approval_of(
    name: &str,
    settings: &McpSettings,
    store: Option<&ApprovalStore>,
    folder: &Path,
) -> Approval {
    let listed = |list: &[(String, RuleSource)]| {
        list.iter()
            .any(|(n, source)| n == name && !shipped_by_project(source))
    };
    if listed(&settings.disabled_mcpjson) {
        return Approval::Disabled;
    }
    match store.and_then(|s| s.answer(folder, name)) {
        Some(false) => return Approval::Disabled,
        Some(true) => return Approval::Approved,
        None => {}
    }
    let all =
        matches!(&settings.enable_all_project, Some((true, source)) if !shipped_by_project(source));
    if all || listed(&settings.enabled_mcpjson) {
        Approval::Approved
    } else {
        Approval::NeedsApproval
    }
}

/// Reads one `--mcp-config` value: JSON text when it starts with `{`, else a file (relative to `cwd`).
fn command_line_doc(value: &str, cwd: &Path) -> Result<(Value, String, PathBuf), String> {
    if value.trim_start().starts_with('{') {
        let doc = parse_text(value).map_err(|e| format!("--mcp-config (inline JSON): {e}"))?;
        return Ok((doc, "inline JSON".into(), cwd.to_path_buf()));
    }
    let path = cwd.join(value);
    match read_file(&path)? {
        Some(doc) => {
            let base = path.parent().unwrap_or(cwd).to_path_buf();
            Ok((doc, path.display().to_string(), base))
        }
        None => Err(format!("--mcp-config: {} does not exist", path.display())),
    }
}

/// Finds the servers of a session on `folder`. `lookup` expands variables (the environment in production).
pub fn plan(
    folder: &Path,
    settings: &McpSettings,
    cli: &McpCliConfig,
    store: Option<&ApprovalStore>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Plan {
    let mut out = Plan {
        disabled_tools: settings.disabled_tools.clone(),
        ..Plan::default()
    };
    let mut seen = BTreeSet::new();
    let mut add = |out: &mut Plan, planned: Planned| {
        if seen.insert(planned.name().to_string()) {
            out.servers.push(planned);
        }
    };
    let check = |name: &str, value: &Value, origin: Origin, base: &Path| {
        parse_server(name, value, origin, base, lookup)
    };
    for value in &cli.configs {
        match command_line_doc(value, folder).and_then(|(doc, label, base)| {
            servers_of(&doc)
                .map(|s| (s, label.clone(), base))
                .map_err(|e| format!("--mcp-config {label}: {e}"))
        }) {
            Ok((servers, label, base)) => {
                for (name, value) in servers {
                    let planned =
                        match check(&name, &value, Origin::CommandLine(label.clone()), &base) {
                            Ok(config) => Planned::Server {
                                config,
                                approval: Approval::Approved,
                            },
                            Err(e) => Planned::Invalid(e),
                        };
                    add(&mut out, planned);
                }
            }
            Err(e) => out.file_errors.push(e),
        }
    }
    if cli.strict {
        return out;
    }
    let project_file = folder.join(".mcp.json");
    let mut project_servers = Vec::new();
    match read_file(&project_file) {
        Ok(Some(doc)) => match servers_of(&doc) {
            Ok(servers) => project_servers = servers,
            Err(e) => out
                .file_errors
                .push(format!("{}: {e}", project_file.display())),
        },
        Ok(None) => {}
        Err(e) => out.file_errors.push(e),
    }
    let project_entries = |out: &mut Plan, add: &mut dyn FnMut(&mut Plan, Planned)| {
        for (name, value) in &project_servers {
            let planned = match check(
                name,
                value,
                Origin::ProjectFile(project_file.clone()),
                folder,
            ) {
                Ok(config) => Planned::Server {
                    approval: approval_of(name, settings, store, folder),
                    config,
                },
                Err(e) => Planned::Invalid(e),
            };
            add(out, planned);
        }
    };
    // `.mcp.json` ranks below the local settings and above the shared project and user settings.
    let mut project_done = false;
    for entry in &settings.servers {
        if !project_done
            && !matches!(
                entry.source,
                RuleSource::Policy(_)
                    | RuleSource::FlagFile(_)
                    | RuleSource::CliArg
                    | RuleSource::Local(_)
            )
        {
            project_entries(&mut out, &mut add);
            project_done = true;
        }
        let base = match &entry.source {
            RuleSource::User(p) => p
                .parent()
                .and_then(Path::parent)
                .unwrap_or(folder)
                .to_path_buf(),
            _ => folder.to_path_buf(),
        };
        let origin = Origin::Settings {
            kind: entry.source.kind().to_string(),
            file: entry.source.label(),
        };
        let planned = match check(&entry.name, &entry.config, origin, &base) {
            Ok(config) => Planned::Server {
                approval: if shipped_by_project(&entry.source) {
                    approval_of(&entry.name, settings, store, folder)
                } else {
                    Approval::Approved
                },
                config,
            },
            Err(e) => Planned::Invalid(e),
        };
        add(&mut out, planned);
    }
    if !project_done {
        project_entries(&mut out, &mut add);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::McpServerEntry;
    use serde_json::json;

    fn no_vars(_: &str) -> Option<String> {
        None
    }

    fn names_and_approvals(plan: &Plan) -> Vec<(String, Option<Approval>)> {
        plan.servers
            .iter()
            .map(|p| match p {
                Planned::Server { config, approval } => (config.name.clone(), Some(*approval)),
                Planned::Invalid(e) => (e.server.clone(), None),
            })
            .collect()
    }

    #[test]
    fn project_servers_need_approval_unless_listed_and_cli_and_user_servers_start() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join(".mcp.json"),
            json!({"mcpServers": {
                "proj": {"command": "a"},
                "listed": {"command": "b"},
                "off": {"command": "c"},
                "bad": {"type": "http"},
                "user": {"command": "shadowed by nothing: .mcp.json ranks above user"}
            }})
            .to_string(),
        )
        .expect("write");
        let local = RuleSource::Local(dir.path().join(".claude/settings.local.json"));
        let shared = RuleSource::Project(dir.path().join(".claude/settings.json"));
        let user = RuleSource::User(PathBuf::from("/home/u/.claude/settings.json"));
        let settings = McpSettings {
            servers: vec![
                McpServerEntry {
                    name: "shared".into(),
                    config: json!({"command": "s"}),
                    source: shared.clone(),
                },
                McpServerEntry {
                    name: "user".into(),
                    config: json!({"command": "u"}),
                    source: user.clone(),
                },
            ],
            enable_all_project: Some((true, shared.clone())),
            enabled_mcpjson: vec![("listed".into(), local.clone()), ("proj".into(), shared)],
            disabled_mcpjson: vec![("off".into(), user)],
            disabled_tools: Vec::new(),
        };
        let cli = McpCliConfig {
            configs: vec![json!({"mcpServers": {"cli": {"command": "c"}}}).to_string()],
            strict: false,
        };
        let plan = plan(dir.path(), &settings, &cli, None, &no_vars);
        assert!(plan.file_errors.is_empty(), "{:?}", plan.file_errors);
        assert_eq!(
            names_and_approvals(&plan),
            vec![
                ("cli".into(), Some(Approval::Approved)),
                ("proj".into(), Some(Approval::NeedsApproval)),
                ("listed".into(), Some(Approval::Approved)),
                ("off".into(), Some(Approval::Disabled)),
                ("bad".into(), None),
                ("user".into(), Some(Approval::NeedsApproval)),
                ("shared".into(), Some(Approval::NeedsApproval)),
            ]
        );
        let strict = McpCliConfig {
            strict: true,
            ..cli
        };
        let plan = super::plan(dir.path(), &settings, &strict, None, &no_vars);
        assert_eq!(
            names_and_approvals(&plan),
            vec![("cli".into(), Some(Approval::Approved))]
        );
    }

    #[test]
    fn the_persons_answers_are_kept_per_folder() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ApprovalStore::at(dir.path().join("approvals.json"));
        std::fs::write(
            dir.path().join(".mcp.json"),
            json!({"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}).to_string(),
        )
        .expect("write");
        store.record(dir.path(), "a", true).expect("record");
        store.record(dir.path(), "b", false).expect("record");
        let plan = plan(
            dir.path(),
            &McpSettings::default(),
            &McpCliConfig::default(),
            Some(&store),
            &no_vars,
        );
        assert_eq!(
            names_and_approvals(&plan),
            vec![
                ("a".into(), Some(Approval::Approved)),
                ("b".into(), Some(Approval::Disabled))
            ]
        );
        assert_eq!(store.answer(Path::new("/elsewhere"), "a"), None);
    }

    #[test]
    fn a_malformed_project_file_is_reported_with_its_line_and_other_servers_still_come() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join(".mcp.json"),
            "{\n \"mcpServers\": {\n  oops\n }\n}",
        )
        .expect("write");
        let settings = McpSettings {
            servers: vec![McpServerEntry {
                name: "user".into(),
                config: json!({"command": "u"}),
                source: RuleSource::User(PathBuf::from("/home/u/.claude/settings.json")),
            }],
            ..Default::default()
        };
        let plan = plan(
            dir.path(),
            &settings,
            &McpCliConfig::default(),
            None,
            &no_vars,
        );
        assert_eq!(plan.file_errors.len(), 1);
        assert!(
            plan.file_errors[0].contains(".mcp.json: line 3"),
            "{}",
            plan.file_errors[0]
        );
        assert_eq!(
            names_and_approvals(&plan),
            vec![("user".into(), Some(Approval::Approved))]
        );
    }
}
