//! Plugins installed as the command-line agent lays them out (an install records file, a plugin folder with its
//! manifest, skills, commands, agents, hooks and MCP servers), turned on by `enabledPlugins`: an enabled plugin's
//! parts all take effect in a session, a plugin turned off brings nothing, a broken manifest is a notice while the
//! rest loads, and a plugin only an untrusted project turns on runs no hooks and starts no servers.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::session::Session;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent};

use super::common::{fake_config, server};
use super::mcp_support::{TEST_SERVER, ready};

/// A plugins folder like `~/.claude/plugins`, with its records file and the plugins' folders under `cache/`.
struct Installed {
    _dir: tempfile::TempDir,
    plugins: PathBuf,
}

impl Installed {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("dir");
        let plugins = std::fs::canonicalize(dir.path())
            .expect("canonical")
            .join("plugins");
        Self { _dir: dir, plugins }
    }

    /// The folder of plugin `name` of marketplace `market`.
    fn root(&self, name: &str) -> PathBuf {
        self.plugins.join("cache/market").join(name).join("1.0.0")
    }

    /// Writes `files` into plugin `name`'s folder and records its install.
    fn add(&self, name: &str, files: &[(&str, &str)]) {
        let root = self.root(name);
        for (rel, text) in files {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
            if rel.ends_with(".sh") {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .expect("chmod");
            }
        }
        let records = self.plugins.join("installed_plugins.json");
        let mut all: serde_json::Value = std::fs::read_to_string(&records)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_else(|| json!({"version": 2, "plugins": {}}));
        all["plugins"][format!("{name}@market")] = json!([{
            "scope": "user", "installPath": root.display().to_string(), "version": "1.0.0",
            "installedAt": "2026-01-01T00:00:00.000Z", "lastUpdated": "2026-01-01T00:00:00.000Z"
        }]);
        std::fs::write(&records, all.to_string()).expect("records");
    }
}

/// A hook script that writes the plugin folder it was given (`CLAUDE_PLUGIN_ROOT`) into the project as `marker`.
fn marking_hook(marker: &str) -> String {
    format!(
        "#!/bin/sh\ncat > /dev/null\nprintf '%s' \"$CLAUDE_PLUGIN_ROOT\" > \"$CLAUDE_PROJECT_DIR/{marker}\"\n"
    )
}

/// Hooks that run `script` (in the plugin's folder) on every prompt. The path is in single quotes, so the shell does
/// not expand it: the hook runs only if the plugin folder was put in for `${CLAUDE_PLUGIN_ROOT}`.
fn prompt_hook(script: &str) -> String {
    json!({"description": "marks prompts", "hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": format!("'${{CLAUDE_PLUGIN_ROOT}}/hooks/{script}'")}]}]}})
    .to_string()
}

/// The full `tools` plugin: a skill, a command, an agent, a hook and an MCP server.
fn add_tools_plugin(installed: &Installed) {
    installed.add(
        "tools",
        &[
            (
                ".claude-plugin/plugin.json",
                &json!({"name": "tools", "version": "1.0.0", "description": "Test tools",
                    "author": {"name": "Tandem tests"}})
                .to_string(),
            ),
            (
                "skills/review/SKILL.md",
                "---\nname: review\ndescription: Review with the plugin's checklist\n---\nREVIEW-BODY-3\n",
            ),
            (
                "commands/ship.md",
                "---\ndescription: Ship it\n---\nSHIP-BODY-5 $ARGUMENTS\n",
            ),
            (
                "agents/auditor.md",
                "---\nname: auditor\ndescription: Audits the project\ntools: Read\n---\nAUDIT-BODY-7\n",
            ),
            ("hooks/hooks.json", &prompt_hook("mark.sh")),
            ("hooks/mark.sh", &marking_hook("hook-ran.txt")),
            (
                ".mcp.json",
                &json!({"mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/../../../../server-link"}}})
                    .to_string(),
            ),
        ],
    );
    // The server is reached through the plugin's folder, as a plugin's own program would be.
    let link = installed.plugins.join("server-link");
    if !link.exists() {
        std::os::unix::fs::symlink(TEST_SERVER, &link).expect("link the test server");
    }
}

fn notices(events: &RecordingSink) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect()
}

fn build(
    ws: &Workspace,
    installed: &Installed,
    url: &str,
    events: &RecordingSink,
    trusted: bool,
) -> Session {
    let builder = Session::builder(&ws.root())
        .expect("builder")
        .model(fake_config(url))
        .mode(PermissionMode::BypassPermissions)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .events(Arc::new(events.clone()))
        .plugins_dir(&installed.plugins);
    let builder = if trusted {
        builder.assume_trusted()
    } else {
        builder
    };
    builder.build().expect("session")
}

fn system_of(body: &serde_json::Value) -> String {
    body["system"].to_string()
}

#[tokio::test]
async fn an_enabled_plugins_parts_all_take_effect_and_a_disabled_or_broken_one_brings_nothing() {
    let installed = Installed::new();
    add_tools_plugin(&installed);
    installed.add(
        "off",
        &[
            (".claude-plugin/plugin.json", r#"{"name": "off"}"#),
            (
                "skills/quiet/SKILL.md",
                "---\ndescription: Never offered\n---\nx\n",
            ),
            ("commands/nope.md", "Never"),
            ("hooks/hooks.json", &prompt_hook("mark.sh")),
            ("hooks/mark.sh", &marking_hook("off-ran.txt")),
        ],
    );
    installed.add(
        "broken",
        &[
            (".claude-plugin/plugin.json", "{ \"name\": \"broken\", "),
            (
                "skills/b/SKILL.md",
                "---\ndescription: Broken plugin's skill\n---\nx\n",
            ),
        ],
    );
    let ws = Workspace::new(&[(
        ".claude/settings.local.json",
        &json!({"enabledPlugins": {"tools@market": true, "off@market": false, "broken@market": true}})
            .to_string(),
    )])
    .expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("s1", "Skill", json!({"skill": "tools:review"})),
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Audit", "prompt": "Audit the project", "subagent_type": "tools:auditor"}),
        ),
        ScriptedTurn::text("Audited."),
        ScriptedTurn::text("Shipped."),
    ]))
    .await;
    let events = RecordingSink::default();
    let session = build(&ws, &installed, &fake.url(), &events, true);

    // The skill, namespaced; nothing of the plugin turned off or the broken one.
    let skills = session.skills();
    assert!(
        skills.contains(&(
            "tools:review".to_string(),
            "Review with the plugin's checklist".to_string()
        )),
        "{skills:?}"
    );
    assert!(
        !skills
            .iter()
            .any(|(n, _)| n.starts_with("off:") || n.starts_with("broken:")),
        "{skills:?}"
    );
    // The command, namespaced and marked as a plugin's.
    let commands = session.slash_commands();
    let ship = commands
        .iter()
        .find(|c| c.name == "tools:ship")
        .expect("tools:ship is offered");
    assert_eq!(ship.source, tandem_protocol::SlashCommandSource::Plugin);
    assert!(
        !commands.iter().any(|c| c.name.starts_with("off:")),
        "{commands:?}"
    );
    // The broken manifest is a notice; the session runs.
    let said = notices(&events);
    assert!(
        said.iter()
            .any(|n| n.contains("broken@market") && n.contains("manifest")),
        "{said:?}"
    );
    // The MCP server, named after its plugin.
    ready(session.mcp().manager(), "plugin:tools:db").await;

    let outcome = session.send("/tools:ship v2").await.expect("turn");
    assert_eq!(outcome.final_text, "Shipped.");
    let requests = fake.requests();
    let first = requests[0].body.to_string();
    assert!(
        first.contains("SHIP-BODY-5 v2"),
        "the command's text is the prompt: {first}"
    );
    assert!(
        system_of(&requests[0].body).contains("tools:review"),
        "the skill is named to the model"
    );
    assert!(
        first.contains("mcp__plugin_tools_db__echo"),
        "the server's tools are offered: {first}"
    );
    assert!(
        requests
            .iter()
            .any(|r| system_of(&r.body).contains("AUDIT-BODY-7")),
        "the plugin's agent type ran as a sub-agent"
    );
    // The hook ran with the plugin's folder put in its command and in its environment.
    let marker = std::fs::read_to_string(ws.path("hook-ran.txt")).expect("the plugin's hook ran");
    assert_eq!(Path::new(&marker), installed.root("tools"));
    assert!(
        !ws.path("off-ran.txt").exists(),
        "a plugin turned off runs no hook"
    );
}

#[tokio::test]
async fn a_plugin_only_an_untrusted_project_turns_on_runs_no_hooks_and_starts_no_servers() {
    let installed = Installed::new();
    add_tools_plugin(&installed);
    let ws = Workspace::new(&[(
        ".claude/settings.json",
        &json!({"enabledPlugins": {"tools@market": true}}).to_string(),
    )])
    .expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("Hello.")])).await;
    let events = RecordingSink::default();
    let session = build(&ws, &installed, &fake.url(), &events, false);

    let outcome = session.send("hello").await.expect("turn");
    assert_eq!(outcome.final_text, "Hello.");
    assert!(
        !ws.path("hook-ran.txt").exists(),
        "the hook waits for the folder's trust"
    );
    assert!(
        session.mcp().manager().status("plugin:tools:db").is_none(),
        "the server waits for the folder's trust"
    );
    let said = notices(&events);
    assert!(
        said.iter()
            .any(|n| n.contains("tools@market") && n.contains("trust")),
        "{said:?}"
    );
    // The trust question names what trusting would start.
    let trust = session.settings().folder_trust();
    assert!(!trust.trusted);
    assert!(
        trust
            .hooks
            .iter()
            .any(|h| h.starts_with("UserPromptSubmit: ") && h.contains("hooks/mark.sh")),
        "{:?}",
        trust.hooks
    );
    assert!(
        trust
            .mcp_servers
            .iter()
            .any(|s| s.starts_with("plugin:tools:db: ")),
        "{:?}",
        trust.mcp_servers
    );
    // Prompts it brings are still offered, as the project's own are.
    assert!(session.skills().iter().any(|(n, _)| n == "tools:review"));
}

#[tokio::test]
async fn the_plugins_panel_lists_what_each_brings_and_its_switch_writes_the_local_settings() {
    let installed = Installed::new();
    add_tools_plugin(&installed);
    installed.add("broken", &[(".claude-plugin/plugin.json", "[]")]);
    let ws = Workspace::new(&[(
        ".claude/settings.json",
        &json!({"enabledPlugins": {"tools@market": true}, "permissions": {"allow": ["Read"]}})
            .to_string(),
    )])
    .expect("workspace");
    let fake = server(Script::turns([])).await;
    let events = RecordingSink::default();
    let session = build(&ws, &installed, &fake.url(), &events, true);

    let listed = session.panels().plugins_view();
    let ids: Vec<&str> = listed.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["broken@market", "tools@market"]);
    let tools = &listed[1];
    assert_eq!(
        (
            tools.name.as_str(),
            tools.marketplace.as_str(),
            tools.version.as_deref()
        ),
        ("tools", "market", Some("1.0.0"))
    );
    assert!(tools.enabled && tools.loaded && tools.switchable && !tools.waits_for_trust);
    assert_eq!(
        tools.counts,
        tandem_protocol::PluginCounts {
            skills: 1,
            commands: 1,
            agents: 1,
            hooks: 1,
            mcp_servers: 1,
            lsp_servers: 0
        }
    );
    assert!(
        tools
            .decided_by
            .as_deref()
            .is_some_and(|f| f.ends_with(".claude/settings.json"))
    );
    let broken = &listed[0];
    assert!(!broken.enabled && !broken.loaded, "{broken:?}");
    assert!(
        broken.problems.iter().any(|p| p.contains("manifest")),
        "{broken:?}"
    );

    // Turned off: the choice goes to the local file (above the shared one), which is left as it was.
    let after = session
        .panels()
        .set_plugin_enabled("tools@market", false)
        .expect("switched");
    assert!(
        !after.iter().any(|p| p.id == "tools@market" && p.enabled),
        "{after:?}"
    );
    let local: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(ws.path(".claude/settings.local.json")).expect("local"),
    )
    .expect("json");
    assert_eq!(local, json!({"enabledPlugins": {"tools@market": false}}));
    let shared = std::fs::read_to_string(ws.path(".claude/settings.json")).expect("shared");
    assert!(shared.contains("\"tools@market\":true"), "{shared}");
    // On again, and a plugin that is not installed is refused.
    let again = session
        .panels()
        .set_plugin_enabled("tools@market", true)
        .expect("switched");
    assert!(again.iter().any(|p| p.id == "tools@market" && p.enabled));
    assert!(
        session
            .panels()
            .set_plugin_enabled("nothing@market", true)
            .is_err()
    );
}

#[test]
fn a_plugins_language_server_joins_the_projects_once_the_folder_is_trusted() {
    use tandem_engine::lsp::LspManager;
    use tandem_engine::permission::{PermissionLoader, TrustStore};
    use tandem_engine::settings::CliSettings;

    let installed = Installed::new();
    installed.add(
        "go-lsp",
        &[
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "go-lsp", "lspServers": "./servers.json"}"#,
            ),
            (
                "servers.json",
                &json!({"gopls": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/gopls", "args": ["serve"],
                    "extensionToLanguage": {".go": "go"}}})
                .to_string(),
            ),
        ],
    );
    let ws = Workspace::new(&[(
        ".claude/settings.json",
        &json!({"enabledPlugins": {"go-lsp@market": true}, "env": {"ENABLE_LSP_TOOL": "1"}})
            .to_string(),
    )])
    .expect("workspace");
    let mut loader = PermissionLoader::standard(&ws.root(), CliSettings::default());
    loader.plugins_dir = Some(installed.plugins.clone());
    // Untrusted (an empty trust store): the project turns the plugin on, so its server waits.
    let store = tempfile::tempdir().expect("store");
    loader.trust = Some(TrustStore::at(store.path().join("trust.json")));
    let manager = LspManager::for_session(&loader).expect("switched on");
    assert_eq!(manager.configs().count(), 0);
    // Trusted: the server is there, its command in the plugin's folder.
    loader.trust = None;
    let manager = LspManager::for_session(&loader).expect("switched on");
    let servers: Vec<(String, String)> = manager
        .configs()
        .map(|c| (c.name.clone(), c.command.clone()))
        .collect();
    assert_eq!(
        servers,
        [(
            "gopls".to_string(),
            installed
                .root("go-lsp")
                .join("bin/gopls")
                .display()
                .to_string()
        )]
    );
}
