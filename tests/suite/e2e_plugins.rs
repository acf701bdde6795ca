//! End to end in the real webview: a plugin installed in the home as the command-line agent lays it out and turned
//! on in the user's settings runs its hook on a prompt (`${CLAUDE_PLUGIN_ROOT}` put in), the Plugins panel lists it
//! with what it brings, and its switch writes `enabledPlugins` to the user's settings file.

use std::path::Path;
use std::time::Instant;

use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::e2e::{PATIENCE, click, fixture, launch, send_prompt, wait_for_text};

/// Writes plugin `kit` of marketplace `market` into `home`'s plugins folder, records its install and turns it on in
/// the user's settings; returns its folder.
fn install_kit(home: &Path) -> std::path::PathBuf {
    let plugins = home.join(".claude/plugins");
    let root = plugins.join("cache/market/kit/1.0.0");
    let files = [
        (
            ".claude-plugin/plugin.json",
            json!({"name": "kit", "version": "1.0.0", "description": "A review kit"}).to_string(),
        ),
        (
            "skills/review/SKILL.md",
            "---\ndescription: Review with the kit\n---\nReview.\n".to_string(),
        ),
        (
            "hooks/hooks.json",
            json!({"hooks": {"UserPromptSubmit": [{"hooks": [
                {"type": "command", "command": "'${CLAUDE_PLUGIN_ROOT}/hooks/mark.sh'"}]}]}})
            .to_string(),
        ),
        (
            "hooks/mark.sh",
            "#!/bin/sh\ncat > /dev/null\nprintf '%s' \"$CLAUDE_PLUGIN_ROOT\" > \"$CLAUDE_PROJECT_DIR/plugin-hook.txt\"\n"
                .to_string(),
        ),
    ];
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        root.join("hooks/mark.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    std::fs::write(
        plugins.join("installed_plugins.json"),
        json!({"version": 2, "plugins": {"kit@market": [
            {"scope": "user", "installPath": root, "version": "1.0.0"}]}})
        .to_string(),
    )
    .expect("records");
    std::fs::write(
        home.join(".claude/settings.json"),
        json!({"enabledPlugins": {"kit@market": true}}).to_string(),
    )
    .expect("user settings");
    root
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn an_installed_plugin_runs_its_hook_and_the_plugins_panel_turns_it_off() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let home = dir.path().join("home");
    let root = install_kit(&home);
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("Final answer: done.")]))
        .await
        .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;

    send_prompt(&client, "Hello").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "Final answer").await;
    let marker =
        std::fs::read_to_string(project.join("plugin-hook.txt")).expect("the plugin's hook ran");
    assert_eq!(Path::new(&marker), root);
    let system = server.requests()[0].body["system"].to_string();
    assert!(
        system.contains("kit:review"),
        "the plugin's skill is named: {system}"
    );

    click(&client, "plugins-button").await;
    wait_for_text(
        &client,
        "[data-testid=plugin-item][data-enabled=true] [data-testid=plugin-parts]",
        "Brings 1 skill · 1 hook",
    )
    .await;
    click(&client, "plugin-switch").await;
    wait_for_text(
        &client,
        "[data-testid=plugin-item][data-enabled=false]",
        "kit",
    )
    .await;
    let settings = home.join(".claude/settings.json");
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&settings).unwrap_or_default();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        if value["enabledPlugins"]["kit@market"] == json!(false) {
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the switch was not written: {text}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    client.close().await.expect("close");
}
