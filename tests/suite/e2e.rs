//! End to end in the real webview: the release-featured binary under Xvfb, driven through tauri-driver and
//! WebKitWebDriver, pointed at the fake model server. Ignored by default; `.ci/run` runs it with `--ignored` under
//! `xvfb-run`. Needs `tauri-driver` on PATH (or `TAURI_DRIVER`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

const BIN: &str = env!("CARGO_BIN_EXE_tandem-app");

/// How long a condition may take before a test fails: generous, since these tests must pass while a build keeps
/// both cores busy. They wait on conditions, so a quiet machine does not wait longer.
pub(super) const PATIENCE: Duration = Duration::from_secs(120);

/// tauri-driver, killed with the WebKitWebDriver it started when dropped.
pub(super) struct Driver(pub(super) Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("pkill")
            .args(["-TERM", "-P", &self.0.id().to_string()])
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(super) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub(super) fn start_driver(port: u16, env: &[(&str, String)]) -> Driver {
    let program = std::env::var("TAURI_DRIVER").unwrap_or_else(|_| "tauri-driver".into());
    let mut cmd = Command::new(program);
    cmd.args([
        "--port",
        &port.to_string(),
        "--native-port",
        &free_port().to_string(),
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::inherit());
    for (k, v) in env {
        cmd.env(k, v);
    }
    Driver(
        cmd.spawn()
            .expect("tauri-driver starts (cargo install tauri-driver --locked)"),
    )
}

pub(super) async fn connect(port: u16, folder: &Path) -> Client {
    let caps =
        json!({"browserName": "wry", "tauri:options": {"application": BIN, "args": [folder]}});
    connect_retry(port, caps, Instant::now()).await
}

pub(super) async fn connect_retry(port: u16, caps: serde_json::Value, start: Instant) -> Client {
    loop {
        let map = caps
            .as_object()
            .expect("object")
            .clone()
            .into_iter()
            .collect();
        // A session whose app never comes up (a loaded machine) is given up and asked for again.
        let mut builder = ClientBuilder::native();
        builder.capabilities(map);
        let url = format!("http://127.0.0.1:{port}");
        match tokio::time::timeout(PATIENCE, builder.connect(&url)).await {
            Ok(Ok(client)) => return client,
            outcome => {
                let why = match outcome {
                    Ok(Err(e)) => e.to_string(),
                    _ => "no answer".to_string(),
                };
                assert!(
                    start.elapsed() < PATIENCE * 3,
                    "cannot reach tauri-driver: {why}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// Waits until `css` matches an element whose text contains `text`.
pub(super) async fn wait_for_text(client: &Client, css: &str, text: &str) {
    let start = Instant::now();
    loop {
        if let Ok(elements) = client.find_all(Locator::Css(css)).await {
            for element in elements {
                if element
                    .text()
                    .await
                    .map(|t| t.contains(text))
                    .unwrap_or(false)
                {
                    return;
                }
            }
        }
        if start.elapsed() > PATIENCE {
            let page = match client.find(Locator::Css("body")).await {
                Ok(body) => body.text().await.unwrap_or_default(),
                Err(_) => String::new(),
            };
            let shot = std::env::temp_dir().join("tandem-e2e-timeout.png");
            if let Ok(png) = client.screenshot().await {
                let _ = std::fs::write(&shot, png);
            }
            panic!(
                "timed out waiting for {css} containing {text:?} (screenshot {}); the window shows:\n{page}",
                shot.display()
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the app's log file at `path` holds every one of `needles` (each command's span logs a line when it
/// closes).
pub(super) async fn wait_for_log(path: &Path, needles: &[&str]) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if needles.iter().all(|n| text.contains(n)) {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the log {} lacks one of {needles:?}:\n{text}",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Starts the app on `project` through tauri-driver, pointed at `server`, with a home of its own under `dir`, the
/// project already trusted (the trust question is tested on its own).
pub(super) async fn launch(server: &FakeServer, dir: &Path, project: &Path) -> (Driver, Client) {
    let trust = dir.join("home/.local/share/tandem/trust.json");
    std::fs::create_dir_all(trust.parent().expect("parent")).expect("data dir");
    std::fs::write(&trust, json!({"trusted": [project]}).to_string()).expect("trust record");
    launch_untrusted(server, dir, project).await
}

/// Starts the app like [`launch`], leaving the project's trust as the home under `dir` records it.
pub(super) async fn launch_untrusted(
    server: &FakeServer,
    dir: &Path,
    project: &Path,
) -> (Driver, Client) {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let port = free_port();
    let driver = start_driver(
        port,
        &[
            ("ANTHROPIC_BASE_URL", server.url()),
            ("ANTHROPIC_API_KEY", "sk-e2e".into()),
            ("HOME", home.display().to_string()),
            (
                "XDG_CONFIG_HOME",
                home.join(".config").display().to_string(),
            ),
            (
                "XDG_DATA_HOME",
                home.join(".local/share").display().to_string(),
            ),
        ],
    );
    (driver, connect(port, project).await)
}

/// The element `testid` in the session of the tab shown (hidden tabs hold their own copies), or anywhere when no
/// session shows it (the settings dialog, the welcome screen).
pub(super) async fn find_shown(client: &Client, testid: &str) -> fantoccini::elements::Element {
    let shown = format!("[data-testid=session][data-shown=true] [data-testid={testid}]");
    if let Some(element) = client
        .find_all(Locator::Css(&shown))
        .await
        .ok()
        .and_then(|found| found.into_iter().next())
    {
        return element;
    }
    client
        .find(Locator::Css(&format!("[data-testid={testid}]")))
        .await
        .unwrap_or_else(|e| panic!("{testid}: {e}"))
}

/// Waits for the window to show the project, then types `prompt` and sends it in the tab shown.
pub(super) async fn send_prompt(client: &Client, prompt: &str) {
    wait_for_text(client, "[data-testid=folder-name]", "demo-project").await;
    let input = find_shown(client, "prompt-input").await;
    input.send_keys(prompt).await.expect("type");
    click(client, "send-button").await;
}

/// Clicks the element `testid` of the tab shown (see [`find_shown`]).
pub(super) async fn click(client: &Client, testid: &str) {
    find_shown(client, testid)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {testid}: {e}"));
}

/// Waits until the element `css` is gone.
pub(super) async fn wait_gone(client: &Client, css: &str) {
    let start = Instant::now();
    while client
        .find_all(Locator::Css(css))
        .await
        .is_ok_and(|found| !found.is_empty())
    {
        assert!(
            start.elapsed() < PATIENCE,
            "timed out waiting for {css} to close"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(super) fn fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join("demo-project");
    std::fs::create_dir_all(&project).expect("mkdir");
    std::fs::write(project.join("hello.txt"), "hello from inside\n").expect("write");
    std::fs::write(dir.path().join("outside.txt"), "outside secret\n").expect("write");
    (dir, project)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn the_window_streams_a_turn_and_the_user_refuses_a_read_outside_the_folder() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let outside = std::fs::canonicalize(dir.path().join("outside.txt")).expect("canonical");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "I'll read the file inside the folder.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_e2e_1".into(),
                name: "Read".into(),
                input: json!({"file_path": project.join("hello.txt")}),
            },
        ]),
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_e2e_2".into(),
            name: "Read".into(),
            input: json!({"file_path": outside}),
        }]),
        ScriptedTurn::text("Final answer: I read one file; you refused the other."),
    ]))
    .await
    .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;

    send_prompt(&client, "Read hello.txt and the file outside").await;

    wait_for_text(&client, "[data-testid=approval-dialog]", "outside.txt").await;
    client
        .find(Locator::Css("[data-testid=approval-deny]"))
        .await
        .expect("No")
        .click()
        .await
        .expect("click");

    wait_for_text(&client, "[data-testid=assistant-text]", "Final answer").await;
    let calls = client
        .find_all(Locator::Css("[data-testid=tool-call]"))
        .await
        .expect("calls");
    let mut outcomes = Vec::new();
    for call in &calls {
        outcomes.push(
            call.attr("data-outcome")
                .await
                .expect("attr")
                .unwrap_or_default(),
        );
    }
    assert!(outcomes.contains(&"success".to_string()), "{outcomes:?}");
    assert!(outcomes.contains(&"denied".to_string()), "{outcomes:?}");
    if let Ok(dir) = std::env::var("TANDEM_E2E_SCREENSHOT_DIR")
        && let Ok(png) = client.screenshot().await
    {
        let _ = std::fs::write(Path::new(&dir).join("e2e-transcript.png"), png);
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let refused = &requests[2].body["messages"][4]["content"][0];
    assert_eq!(refused["tool_use_id"], "toolu_e2e_2");
    assert_eq!(refused["is_error"], true);
    let log = dir.path().join("home/.local/share/tandem/logs/tandem.log");
    wait_for_log(
        &log,
        &[
            "open_session{path=",
            "demo-project",
            "answer_approval{request_id=",
            "choice=Deny",
        ],
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn an_edit_is_accepted_in_the_diff_dialog_and_another_rejected() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let file = project.join("greeting.py");
    std::fs::write(&file, "def greet():\n    return \"hello\"\n").expect("write");
    let edit = |id: &str, old: &str, new: &str| ScriptBlock::ToolUse {
        id: id.into(),
        name: "Edit".into(),
        input: json!({"file_path": file, "old_string": old, "new_string": new}),
    };
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_read".into(),
            name: "Read".into(),
            input: json!({"file_path": file}),
        }]),
        ScriptedTurn::new(vec![edit("toolu_accept", "\"hello\"", "\"hello, world\"")]),
        ScriptedTurn::new(vec![edit("toolu_reject", "def greet", "def shout")]),
        ScriptedTurn::text("Final answer: one change made, one refused."),
    ]))
    .await
    .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;

    send_prompt(&client, "Make the greeting friendlier").await;

    wait_for_text(&client, "[data-testid=diff-dialog]", "greeting.py").await;
    if let Ok(dir) = std::env::var("TANDEM_E2E_SCREENSHOT_DIR")
        && let Ok(png) = client.screenshot().await
    {
        let _ = std::fs::write(Path::new(&dir).join("e2e-diff-dialog.png"), png);
    }
    client
        .find(Locator::Css("[data-testid=diff-accept]"))
        .await
        .expect("Accept")
        .click()
        .await
        .expect("click");

    // The second edit's dialog replaces the first.
    wait_for_text(&client, "[data-testid=diff-dialog]", "shout").await;
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "def greet():\n    return \"hello, world\"\n",
        "the accepted edit is on disk"
    );
    client
        .find(Locator::Css("[data-testid=diff-reject]"))
        .await
        .expect("Reject")
        .click()
        .await
        .expect("click");

    wait_for_text(&client, "[data-testid=assistant-text]", "Final answer").await;
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "def greet():\n    return \"hello, world\"\n",
        "the rejected edit left the file as it was"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    let refused = &requests[3].body["messages"]
        .as_array()
        .expect("messages")
        .last()
        .expect("last")["content"][0];
    assert_eq!(refused["tool_use_id"], "toolu_reject");
    assert_eq!(refused["is_error"], true);
    client.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn a_rule_saved_with_dont_ask_again_applies_at_once_and_after_a_restart_once_trusted() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let touch = |id: &str| ScriptBlock::ToolUse {
        id: id.into(),
        name: "Bash".into(),
        input: json!({"command": "touch made-by-agent.txt"}),
    };
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_ls".into(),
            name: "Bash".into(),
            input: json!({"command": "ls"}),
        }]),
        ScriptedTurn::new(vec![touch("toolu_touch_1")]),
        ScriptedTurn::new(vec![touch("toolu_touch_2")]),
        ScriptedTurn::text("Final answer: the file exists."),
        ScriptedTurn::new(vec![touch("toolu_touch_3")]),
        ScriptedTurn::text("Final answer: touched again after the restart."),
    ]))
    .await
    .expect("fake server");
    let (driver, client) = launch_untrusted(&server, dir.path(), &project).await;

    // An untrusted folder whose settings grant nothing is not asked about; the person's grants apply.
    wait_for_text(&client, "[data-testid=trust-badge]", "Untrusted").await;
    assert!(
        client
            .find_all(Locator::Css("[data-testid=trust-dialog]"))
            .await
            .expect("query")
            .is_empty(),
        "nothing to trust, no question"
    );
    send_prompt(&client, "Create the file").await;

    // `ls` is read-only and runs without a question; `touch` asks, with the rule it would save.
    wait_for_text(
        &client,
        "[data-testid=approval-dialog]",
        "touch made-by-agent.txt",
    )
    .await;
    wait_for_text(
        &client,
        "[data-testid=approval-allow-always]",
        "Bash(touch made-by-agent.txt)",
    )
    .await;
    if let Ok(dir) = std::env::var("TANDEM_E2E_SCREENSHOT_DIR")
        && let Ok(png) = client.screenshot().await
    {
        let _ = std::fs::write(Path::new(&dir).join("e2e-bash-approval.png"), png);
    }
    click(&client, "approval-allow-always").await;

    // The same command again in the same turn runs without asking: the saved rule applies at once.
    wait_for_text(&client, "[data-testid=assistant-text]", "Final answer").await;
    assert!(
        project.join("made-by-agent.txt").exists(),
        "the approved command ran"
    );
    let saved = std::fs::read_to_string(project.join(".claude/settings.local.json"))
        .expect("the rule was saved");
    let saved: serde_json::Value = serde_json::from_str(&saved).expect("valid JSON");
    assert_eq!(
        saved["permissions"]["allow"],
        json!(["Bash(touch made-by-agent.txt)"])
    );
    let log = dir.path().join("home/.local/share/tandem/logs/tandem.log");
    wait_for_log(&log, &["answer_approval{request_id="]).await;
    let asked = |log: &Path| {
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .matches("answer_approval{request_id=")
            .count()
    };
    assert_eq!(asked(&log), 1, "only the first touch asked");
    client.close().await.expect("close");
    drop(driver);

    // After a restart the folder is still untrusted, so the question comes again; trusted, the rule in the
    // folder's local settings applies and the command runs without asking.
    let (_driver, client) = launch_untrusted(&server, dir.path(), &project).await;
    wait_for_text(
        &client,
        "[data-testid=trust-dialog]",
        "Bash(touch made-by-agent.txt)",
    )
    .await;
    click(&client, "trust-accept").await;
    wait_gone(&client, "[data-testid=trust-dialog]").await;
    wait_for_text(&client, "[data-testid=trust-badge]", "Trusted").await;
    send_prompt(&client, "Touch it again").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "after the restart").await;
    assert_eq!(asked(&log), 1, "nothing asked after the restart");
    let requests = server.requests();
    assert_eq!(requests.len(), 6);
    assert!(requests.iter().all(|r| r.rejected.is_none()));
    let trust = std::fs::read_to_string(dir.path().join("home/.local/share/tandem/trust.json"))
        .expect("trust recorded");
    assert!(trust.contains(&project.display().to_string()), "{trust}");
    client.close().await.expect("close");
}

/// Waits until the status bar's mode switcher shows `mode`.
pub(super) async fn wait_for_mode(client: &Client, mode: &str) {
    let start = Instant::now();
    loop {
        if let Ok(switcher) = client
            .find(Locator::Css("[data-testid=mode-switcher]"))
            .await
            && switcher.attr("data-mode").await.ok().flatten().as_deref() == Some(mode)
        {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "timed out waiting for mode {mode}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn a_plan_is_approved_and_a_question_answered_in_the_window() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let tool = |id: &str, name: &str, input: serde_json::Value| {
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: id.into(),
            name: name.into(),
            input,
        }])
    };
    let server = FakeServer::start(Script::turns([
        tool("toolu_enter", "EnterPlanMode", json!({})),
        tool(
            "toolu_exit",
            "ExitPlanMode",
            json!({"plan": "# Cache plan\n\n1. Add a cache module\n2. Test it"}),
        ),
        tool(
            "toolu_ask",
            "AskUserQuestion",
            json!({"questions": [{"question": "Which store should the cache use?", "header": "Store",
                "multiSelect": false, "options": [
                    {"label": "SQLite", "description": "A file beside the app"},
                    {"label": "Redis", "description": "A server to run"}]}]}),
        ),
        ScriptedTurn::text("Final answer: planned, approved and asked."),
    ]))
    .await
    .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;
    send_prompt(&client, "Plan a cache").await;

    // Entering plan mode asks like any tool; allowed, the mode switches.
    wait_for_text(&client, "[data-testid=approval-dialog]", "EnterPlanMode").await;
    click(&client, "approval-allow").await;
    wait_for_mode(&client, "plan").await;

    wait_for_text(&client, "[data-testid=plan-dialog]", "Add a cache module").await;
    if let Ok(dir) = std::env::var("TANDEM_E2E_SCREENSHOT_DIR")
        && let Ok(png) = client.screenshot().await
    {
        let _ = std::fs::write(Path::new(&dir).join("e2e-plan-dialog.png"), png);
    }
    click(&client, "plan-approve").await;
    wait_for_mode(&client, "default").await;

    wait_for_text(&client, "[data-testid=question-dialog]", "Which store").await;
    let options = client
        .find_all(Locator::Css("[data-testid=question-option]"))
        .await
        .expect("options");
    options[0].click().await.expect("pick SQLite");
    click(&client, "question-submit").await;

    wait_for_text(&client, "[data-testid=assistant-text]", "Final answer").await;
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    let last = requests[3].body["messages"]
        .as_array()
        .expect("messages")
        .last()
        .expect("last")
        .to_string();
    assert!(
        last.contains("SQLite"),
        "the answer reaches the model: {last}"
    );
    let approved = requests[2].body["messages"].to_string();
    assert!(
        approved.contains("toolu_exit"),
        "the plan's result is in the conversation"
    );
    client.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn the_content_security_policy_stops_remote_loads_and_inline_scripts() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("unused")]))
        .await
        .expect("fake server");
    // A host the page might be tricked into reaching; it must never see a connection.
    let bait = std::net::TcpListener::bind("127.0.0.1:0").expect("bait");
    bait.set_nonblocking(true).expect("nonblocking");
    let bait_url = format!("http://{}", bait.local_addr().expect("addr"));
    let (_driver, client) = launch(&server, dir.path(), &project).await;
    wait_for_text(&client, "[data-testid=folder-name]", "demo-project").await;

    let outcome = client
        .execute_async(
            r#"
            const [url, done] = arguments;
            const image = new Image();
            const imageDone = new Promise((resolve) => {
              image.onload = () => resolve('loaded');
              image.onerror = () => resolve('blocked');
            });
            image.src = url + '/pixel.png';
            const fetched = fetch(url + '/data').then(() => 'loaded', () => 'blocked');
            const script = document.createElement('script');
            script.textContent = 'window.__inlineRan = true';
            document.head.appendChild(script);
            Promise.all([imageDone, fetched]).then(([image, fetch]) =>
              done({ image, fetch, inline: window.__inlineRan === true }));
            "#,
            vec![json!(bait_url)],
        )
        .await
        .expect("script");

    assert_eq!(
        outcome,
        json!({"image": "blocked", "fetch": "blocked", "inline": false})
    );
    assert!(
        bait.accept().is_err(),
        "the remote host saw a connection from the window"
    );
    client.close().await.expect("close");
}

/// The titles of the stored sessions of `project` in the app's store under `dir`.
fn stored_titles(dir: &Path, project: &Path) -> Vec<String> {
    let db = dir.join("home/.local/share/tandem/sessions.db");
    if !db.exists() {
        return Vec::new();
    }
    let store = tandem_engine::store::SessionStore::open(&db).expect("the app's store");
    store
        .list_sessions(project)
        .expect("sessions")
        .into_iter()
        .map(|s| s.record.title)
        .collect()
}

/// The texts of the prompt rows the transcript shows.
async fn prompt_rows(client: &Client) -> Vec<String> {
    let mut texts = Vec::new();
    for row in client
        .find_all(Locator::Css("[data-testid=user-prompt]"))
        .await
        .expect("prompt rows")
    {
        texts.push(row.text().await.unwrap_or_default());
    }
    texts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn no_empty_session_is_stored_suggestions_stay_narrow_and_a_reopened_session_shows_what_the_model_sees()
 {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    std::fs::create_dir_all(project.join("build")).expect("build dir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_unittest".into(),
            name: "Bash".into(),
            input: json!({"command": "python3 -m unittest discover -s tests"}),
        }]),
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_rm".into(),
            name: "Bash".into(),
            input: json!({"command": "rm -rf build"}),
        }]),
        ScriptedTurn::text("Answer one: cleaned."),
        ScriptedTurn::text("Answer two."),
        ScriptedTurn::text("Answer three, after the restart."),
    ]))
    .await
    .expect("fake server");

    // Opening the folder twice without sending anything stores no session.
    for _ in 0..2 {
        let (driver, client) = launch(&server, dir.path(), &project).await;
        wait_for_text(&client, "[data-testid=folder-name]", "demo-project").await;
        wait_for_text(&client, "[data-testid=session-item]", "").await;
        client.close().await.expect("close");
        drop(driver);
    }
    assert_eq!(stored_titles(dir.path(), &project), Vec::<String>::new());

    let (driver, client) = launch(&server, dir.path(), &project).await;
    send_prompt(&client, "First question").await;
    // A module run offers the narrow prefix rule, not every python3 command.
    wait_for_text(
        &client,
        "[data-testid=approval-allow-always]",
        "Bash(python3 -m unittest",
    )
    .await;
    click(&client, "approval-deny").await;
    // A removal offers no rule to save at all: "Yes" only.
    wait_for_text(&client, "[data-testid=approval-dialog]", "rm -rf build").await;
    assert!(
        client
            .find_all(Locator::Css("[data-testid=approval-allow-always]"))
            .await
            .expect("query")
            .is_empty(),
        "rm must not offer a reusable rule"
    );
    click(&client, "approval-allow").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "Answer one").await;
    assert!(!project.join("build").exists(), "the approved rm ran");
    assert_eq!(stored_titles(dir.path(), &project).len(), 1);

    // The second prompt is rewound away (conversation only): the screen and the model lose it.
    let input = find_shown(&client, "prompt-input").await;
    input.send_keys("Second question").await.expect("type");
    click(&client, "send-button").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "Answer two").await;
    input.send_keys("/rewind").await.expect("type");
    // The menu lists /rewind; Escape closes it so Enter sends the command.
    input.send_keys("\u{e00c}").await.expect("escape");
    click(&client, "send-button").await;
    wait_for_text(&client, "[data-testid=rewind-prompt]", "Second question").await;
    click(&client, "rewind-conversation").await;
    wait_gone(&client, "[data-testid=rewind-dialog]").await;
    client.close().await.expect("close");
    drop(driver);

    // Reopened after a restart, the session shows the first prompt only, and the model gets the same.
    let (_driver, client) = launch(&server, dir.path(), &project).await;
    // The sidebar lists the stored session (its row's title attribute holds the whole title); open it.
    let start = Instant::now();
    'open: loop {
        for item in client
            .find_all(Locator::Css("[data-testid=session-item]"))
            .await
            .expect("rows")
        {
            let title = item.attr("title").await.ok().flatten().unwrap_or_default();
            if title.contains("First question") {
                item.click().await.expect("open the stored session");
                break 'open;
            }
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the stored session is not listed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    wait_for_text(&client, "[data-testid=user-prompt]", "First question").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "Answer one").await;
    let rows = prompt_rows(&client).await;
    assert!(
        rows.iter().all(|row| !row.contains("Second question")),
        "a rewound prompt came back: {rows:?}"
    );
    // The stored session opened in a tab of its own, beside the new session's.
    let input = find_shown(&client, "prompt-input").await;
    // The rewound prompt may wait in the box as a draft: replace it.
    input
        .send_keys("\u{e009}a\u{e009}\u{e003}Third question")
        .await
        .expect("type");
    click(&client, "send-button").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "after the restart").await;
    let last = server.requests().last().cloned().expect("a request");
    let sent = serde_json::to_string(&last.body["messages"]).expect("json");
    assert!(
        sent.contains("First question") && sent.contains("Third question"),
        "{sent}"
    );
    assert!(
        !sent.contains("Second question"),
        "the model still sees the rewound prompt: {sent}"
    );
    assert_eq!(
        stored_titles(dir.path(), &project).len(),
        1,
        "no empty session piled up"
    );
    client.close().await.expect("close");
}
