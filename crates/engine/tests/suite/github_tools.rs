//! The GitHub tools against a loopback stand-in for GitHub's REST API (github_fake.rs; the only faked service,
//! there being no network), real git repositories (a bare `origin` for pushes) and the fake model server:
//! SubscribePR wakes the agent with a pull request's changes between polls, stays quiet on `304`s, backs off on a
//! rate-limit answer and refuses to start without a token; SuggestBackgroundPR asks, runs a background agent on a
//! fresh worktree, pushes its commit to the bare origin and opens the pull request; the tools are offered only
//! with their switches on, and the permission rules treat them as documented.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelRequest, ModelStream};
use tandem_engine::permission::check_call;
use tandem_engine::registry::checking_tools;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    Project, Script, ScriptedApprover, ScriptedTurn, TestRuntime, Workspace, call,
};
use tandem_engine::tool::{Mailbox, erase};
use tandem_engine::tools::features::Features;
use tandem_engine::tools::github::{
    GithubConfig, GithubSource, SubscribePrTool, SuggestBackgroundPrTool,
};
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode};

use super::common::{fake_config, offered, server};
use super::github_fake::FakeGithub;

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Makes `dir` a repository on `main` with one commit whose `origin` is acme/widgets on GitHub, pushed to `bare`
/// (a local bare repository) when given.
fn github_repo(dir: &Path, bare: Option<&Path>) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "Test"]);
    git(dir, &["config", "user.email", "test@example.com"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "start"]);
    git(
        dir,
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/acme/widgets.git",
        ],
    );
    if let Some(bare) = bare {
        git(
            dir,
            &[
                "config",
                "remote.origin.pushurl",
                &bare.display().to_string(),
            ],
        );
    }
}

fn config(fake: &FakeGithub, token: Option<&str>) -> GithubConfig {
    GithubConfig {
        api_url: fake.url.clone(),
        server_url: Some("https://github.com".into()),
        token: token.map(str::to_string),
        poll_interval: Duration::from_millis(10),
    }
}

/// A runtime holding SubscribePR (allowed by a rule) on `fake`, and the agent's mailbox.
fn subscribe_runtime(
    p: &Project,
    fake: &FakeGithub,
    token: Option<&str>,
) -> (tandem_engine::exec::ToolRuntime, Arc<Mailbox>) {
    let mailbox = Arc::new(Mailbox::default());
    let rt = TestRuntime::new(&p.root)
        .permissions(p.ctx(&[("allow", "SubscribePR")], PermissionMode::Default))
        .tools(vec![erase(SubscribePrTool::new(GithubSource::Fixed(
            config(fake, token),
        )))])
        .build();
    (
        tandem_engine::exec::ToolRuntime {
            mailbox: Some(mailbox.clone()),
            ..rt
        },
        mailbox,
    )
}

const PULL: &str = "/repos/acme/widgets/pulls/7";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_request_change_between_polls_wakes_the_agent_with_it_until_the_merge() {
    let p = Project::new().expect("project");
    github_repo(&p.root, None);
    let fake = FakeGithub::start().await;
    fake.open_pr("acme", "widgets", 7, "aaaaaaa111");
    let (rt, mailbox) = subscribe_runtime(&p, &fake, Some("sekrit"));

    // `#7` is the folder's origin repository.
    let r = call(&rt, "SubscribePR", &json!({"pr": "#7"})).await;
    assert!(r.ok, "{}", r.text);
    assert!(
        r.text
            .contains("Subscribed (pr_1) to pull request acme/widgets#7"),
        "{}",
        r.text
    );
    assert!(r.text.contains("Make the widgets faster"), "{}", r.text);
    assert!(
        fake.seen()
            .iter()
            .all(|s| s.authorization.as_deref() == Some("Bearer sekrit")),
        "{:?}",
        fake.seen()
    );

    fake.set(
        "/repos/acme/widgets/pulls/7/reviews",
        json!([{"id": 1, "user": {"login": "ann"}, "state": "CHANGES_REQUESTED", "body": "rename it"}]),
    );
    fake.set(
        "/repos/acme/widgets/pulls/7/comments",
        json!([{"id": 2, "user": {"login": "bo"}, "path": "src/fast.rs", "body": "why unsafe?"}]),
    );
    fake.set(
        "/repos/acme/widgets/commits/aaaaaaa111/check-runs",
        json!({"check_runs": [{"id": 900, "name": "ci", "conclusion": "failure"}]}),
    );
    until(|| mailbox.has_mail()).await;
    let mail = mailbox.take().join("\n");
    assert!(mail.contains("<github-pr-notification>"), "{mail}");
    assert!(mail.contains("pr_1"), "{mail}");
    // The three changes may come in one poll or two; each is told once.
    let mut told = mail;
    while !(told.contains("Review by @ann (CHANGES_REQUESTED): rename it")
        && told.contains("Review comment by @bo on src/fast.rs: why unsafe?")
        && told.contains("Check run `ci` concluded: failure."))
    {
        until(|| mailbox.has_mail()).await;
        told.push_str(&mailbox.take().join("\n"));
    }
    assert_eq!(told.matches("rename it").count(), 1, "{told}");

    fake.set(
        "/repos/acme/widgets/issues/7/comments",
        json!([{"id": 3, "user": {"login": "cy"}, "body": "merging"}]),
    );
    fake.set(
        PULL,
        json!({
            "number": 7, "title": "Make the widgets faster", "state": "closed", "merged": true,
            "html_url": "https://github.com/acme/widgets/pull/7", "head": {"sha": "aaaaaaa111"},
        }),
    );
    let mut told = String::new();
    while !told.contains("The pull request was merged.") {
        until(|| mailbox.has_mail()).await;
        told.push_str(&mailbox.take().join("\n"));
    }
    assert!(told.contains("The subscription has ended."), "{told}");
    let listed = call(&rt, "SubscribePR", &json!({"action": "list"})).await;
    assert!(
        listed.text.contains("no pull request subscriptions"),
        "{}",
        listed.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_subscribed_through_its_settings_is_woken_by_a_new_review() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = FakeGithub::start().await;
    fake.open_pr("acme", "widgets", 7, "aaaaaaa111");
    settings_env(
        &ws,
        json!({"GITHUB_API_URL": fake.url, "GITHUB_TOKEN": "t", "TANDEM_GITHUB_POLL_INTERVAL_MS": "10"}),
    );
    let model = server(Script::turns([
        ScriptedTurn::tool_use("p1", "SubscribePR", json!({"pr": "acme/widgets#7"})),
        ScriptedTurn::text("watching"),
        ScriptedTurn::text("ann approved"),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let features = Features {
        subscribe_pr: true,
        ..Features::default()
    };
    let client: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&model.url())).expect("client"));
    let s = Arc::new(open_session(
        &ws.root(),
        client,
        &model.url(),
        PermissionMode::Default,
        approver.clone(),
        &events,
        Some(features),
    ));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("tell me when the PR is reviewed")
        .await
        .expect("turn");
    // Subscribing asked (default mode, no rule).
    assert!(
        approver
            .asked()
            .iter()
            .any(|a| a.tool_name == "SubscribePR"),
        "{:?}",
        approver.asked()
    );
    let before = model.requests().len();
    fake.set(
        "/repos/acme/widgets/pulls/7/reviews",
        json!([{"id": 1, "user": {"login": "ann"}, "state": "APPROVED", "body": "ship it"}]),
    );
    until(|| {
        model.requests().iter().skip(before).any(|r| {
            r.body["messages"]
                .to_string()
                .contains("Review by @ann (APPROVED): ship it")
        })
    })
    .await;
    drop(s);
    waker.await.expect("the waker ends with the session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unchanged_answers_are_not_modified_and_wake_nobody() {
    let p = Project::new().expect("project");
    let fake = FakeGithub::start().await;
    fake.open_pr("acme", "widgets", 7, "aaaaaaa111");
    let (rt, mailbox) = subscribe_runtime(&p, &fake, Some("t"));
    let r = call(&rt, "SubscribePR", &json!({"pr": "acme/widgets#7"})).await;
    assert!(r.ok, "{}", r.text);
    // Three more polls of all five endpoints, each answered 304 to its ETag.
    until(|| {
        fake.seen()
            .iter()
            .filter(|s| s.status == 304 && s.if_none_match.is_some())
            .count()
            >= 15
    })
    .await;
    assert!(!mailbox.has_mail(), "{:?}", mailbox.take());
    let listed = call(&rt, "SubscribePR", &json!({"action": "list"})).await;
    assert!(
        listed.text.contains("pr_1 acme/widgets#7: watching"),
        "{}",
        listed.text
    );
    let gone = call(
        &rt,
        "SubscribePR",
        &json!({"action": "unsubscribe", "subscription_id": "pr_1"}),
    )
    .await;
    assert!(
        gone.ok && gone.text.contains("Unsubscribed pr_1"),
        "{}",
        gone.text
    );
    let listed = call(&rt, "SubscribePR", &json!({"action": "list"})).await;
    assert!(
        listed.text.contains("no pull request subscriptions"),
        "{}",
        listed.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_answer_makes_the_subscription_wait_as_asked() {
    let p = Project::new().expect("project");
    let fake = FakeGithub::start().await;
    fake.open_pr("acme", "widgets", 7, "aaaaaaa111");
    fake.open_pr("acme", "widgets", 8, "bbbbbbb222");
    let (rt, mailbox) = subscribe_runtime(&p, &fake, Some("t"));
    for pr in ["acme/widgets#7", "acme/widgets#8"] {
        let r = call(&rt, "SubscribePR", &json!({"pr": pr})).await;
        assert!(r.ok, "{}", r.text);
    }
    fake.rate_limit(PULL, 3600);
    until(|| fake.seen_at(PULL).iter().any(|s| s.status == 403)).await;
    let listed = || async {
        call(&rt, "SubscribePR", &json!({"action": "list"}))
            .await
            .text
    };
    let mut text = listed().await;
    while !text.contains("waiting 3600 s for GitHub's rate limit") {
        tokio::time::sleep(Duration::from_millis(5)).await;
        text = listed().await;
    }
    assert!(
        text.contains("pr_1 acme/widgets#7: waiting 3600 s"),
        "{text}"
    );
    // The other subscription polls on; the limited one asks nothing more meanwhile.
    let asked = fake.seen_at(PULL).len();
    let other = "/repos/acme/widgets/pulls/8";
    let before = fake.seen_at(other).len();
    until(|| fake.seen_at(other).len() >= before + 3).await;
    assert_eq!(fake.seen_at(PULL).len(), asked);
    assert!(!mailbox.has_mail());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_or_with_an_unknown_pull_request_nothing_is_subscribed() {
    let p = Project::new().expect("project");
    let fake = FakeGithub::start().await;
    let (rt, _mailbox) = subscribe_runtime(&p, &fake, None);
    let r = call(&rt, "SubscribePR", &json!({"pr": "acme/widgets#7"})).await;
    assert!(!r.ok, "{}", r.text);
    assert!(
        r.text.contains("no GitHub token: set GITHUB_TOKEN"),
        "{}",
        r.text
    );
    assert!(fake.seen().is_empty(), "{:?}", fake.seen());

    let (rt, _mailbox) = subscribe_runtime(&p, &fake, Some("t"));
    let cases: &[(Value, &str)] = &[
        (json!({"pr": "acme/widgets#9"}), "404"),
        (json!({"pr": "#9"}), "no `origin` remote"),
        (json!({"pr": "acme/widgets#x"}), "is not a pull request"),
        (json!({}), "give pr"),
        (
            json!({"action": "unsubscribe", "subscription_id": "pr_5"}),
            "no such subscription",
        ),
    ];
    for (input, want) in cases {
        let r = call(&rt, "SubscribePR", input).await;
        assert!(!r.ok, "{input}: {}", r.text);
        assert!(r.text.contains(want), "{input}: {}", r.text);
    }
    let listed = call(&rt, "SubscribePR", &json!({"action": "list"})).await;
    assert!(
        listed.text.contains("no pull request subscriptions"),
        "{}",
        listed.text
    );
}

/// The fake server's models: the background agent's requests go to `child`, the others to `parent`.
struct Routed {
    parent: AnthropicModel,
    child: AnthropicModel,
}

impl Model for Routed {
    fn model_name(&self) -> &str {
        self.parent.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        let child = request
            .messages
            .first()
            .is_some_and(|m| format!("{m:?}").contains("fresh git worktree on the new branch"));
        if child {
            self.child.stream(request)
        } else {
            self.parent.stream(request)
        }
    }
}

fn open_session(
    root: &Path,
    model: Arc<dyn Model>,
    url: &str,
    mode: PermissionMode,
    approver: Arc<ScriptedApprover>,
    events: &RecordingSink,
    features: Option<Features>,
) -> Session {
    let builder = Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config(url))
        .mode(mode)
        .approver(approver)
        .events(Arc::new(events.clone()));
    match features {
        Some(features) => builder.features(features),
        None => builder,
    }
    .build()
    .expect("session")
}

fn settings_env(ws: &Workspace, env: Value) {
    ws.write(".claude/settings.json", &json!({"env": env}).to_string())
        .expect("settings");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_background_pr_is_committed_pushed_and_opened() {
    let ws = Workspace::new(&[("README.md", "widgets\n")]).expect("workspace");
    let root = ws.root();
    let origin = tempfile::tempdir().expect("origin");
    git(origin.path(), &["init", "-q", "--bare", "-b", "main"]);
    github_repo(&root, Some(origin.path()));
    let fake = FakeGithub::start().await;
    settings_env(
        &ws,
        json!({"GITHUB_API_URL": fake.url, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_TOKEN": "t0k"}),
    );
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "settings"]);
    let parent = server(Script::turns([
        ScriptedTurn::tool_use(
            "s1",
            "SuggestBackgroundPR",
            json!({"title": "Make the widgets faster", "body": "Write speed.txt saying fast.", "branch": "perf/fast-widgets"}),
        ),
        ScriptedTurn::text("proposed"),
        // Woken by the background agent's end and by the pull request (together or one after the other).
        ScriptedTurn::text("the pull request is open"),
        ScriptedTurn::text("noted"),
        ScriptedTurn::text("noted"),
    ]))
    .await;
    let child = server(Script::turns([
        ScriptedTurn::tool_use(
            "c1",
            "Bash",
            json!({"command": "echo fast > speed.txt && git add speed.txt && git commit -q -m 'Write speed.txt'"}),
        ),
        ScriptedTurn::text("Wrote speed.txt and committed it."),
    ]))
    .await;
    let model: Arc<dyn Model> = Arc::new(Routed {
        parent: AnthropicModel::new(fake_config(&parent.url())).expect("client"),
        child: AnthropicModel::new(fake_config(&child.url())).expect("client"),
    });
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let features = Features {
        background_pr: true,
        ..Features::default()
    };
    let s = Arc::new(open_session(
        &root,
        model,
        &parent.url(),
        PermissionMode::BypassPermissions,
        approver.clone(),
        &events,
        Some(features),
    ));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("do it in the background").await.expect("turn");
    // Asked even in bypassPermissions mode.
    assert!(
        approver
            .asked()
            .iter()
            .any(|a| a.tool_name == "SuggestBackgroundPR"),
        "{:?}",
        approver.asked()
    );

    until(|| fake.seen().iter().any(|s| s.method == "POST")).await;
    let post = fake
        .seen()
        .into_iter()
        .find(|s| s.method == "POST")
        .expect("the pull request");
    assert_eq!(post.path, "/repos/acme/widgets/pulls");
    // The settings file's token (unless the environment sets one: it wins).
    assert!(
        post.authorization
            .as_deref()
            .is_some_and(|a| a.starts_with("Bearer ")),
        "{post:?}"
    );
    assert_eq!(post.body["head"], "perf/fast-widgets");
    assert_eq!(post.body["base"], "main");
    assert_eq!(post.body["title"], "Make the widgets faster");
    assert_eq!(post.body["body"], "Write speed.txt saying fast.");
    // The branch reached the bare origin with the agent's commit.
    let pushed = git(origin.path(), &["log", "--format=%s", "perf/fast-widgets"]);
    assert!(pushed.starts_with("Write speed.txt\n"), "{pushed}");
    assert_eq!(
        git(origin.path(), &["show", "perf/fast-widgets:speed.txt"]),
        "fast\n"
    );
    // The outcome wakes the session.
    until(|| {
        parent.requests().iter().any(|r| {
            r.body["messages"]
                .to_string()
                .contains("pull request #42 was opened")
        })
    })
    .await;
    // Its work is on origin: the worktree is gone, the local branch stays.
    let worktrees = git(&root, &["worktree", "list", "--porcelain"]);
    assert!(!worktrees.contains("perf/fast-widgets"), "{worktrees}");
    assert!(
        !git(&root, &["branch", "--list", "perf/fast-widgets"])
            .trim()
            .is_empty()
    );
    drop(s);
    waker.await.expect("the waker ends with the session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_or_a_github_origin_no_background_work_starts() {
    let p = Project::new().expect("project");
    let root = &p.root;
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["config", "user.name", "Test"]);
    git(root, &["config", "user.email", "test@example.com"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "start"]);
    let fake = FakeGithub::start().await;
    let runtime = |token: Option<&str>| {
        TestRuntime::new(root)
            .permissions(p.ctx(&[("allow", "SuggestBackgroundPR")], PermissionMode::Default))
            .tools(vec![erase(SuggestBackgroundPrTool::new(
                GithubSource::Fixed(config(&fake, token)),
            ))])
            .build()
    };
    let input = json!({"title": "T", "body": "Do it.", "branch": "work/x"});
    let cases: &[(Option<&str>, Option<&str>, &str)] = &[
        (
            None,
            Some("https://github.com/acme/widgets.git"),
            "no GitHub token",
        ),
        (Some("t"), None, "has no `origin` remote"),
        (
            Some("t"),
            Some("/srv/git/widgets.git"),
            "is not a repository on github.com",
        ),
    ];
    for (token, origin, want) in cases {
        let _ = Command::new("git")
            .args(["remote", "remove", "origin"])
            .current_dir(root)
            .output();
        if let Some(url) = origin {
            git(root, &["remote", "add", "origin", url]);
        }
        let r = call(&runtime(*token), "SuggestBackgroundPR", &input).await;
        assert!(!r.ok, "{origin:?}: {}", r.text);
        assert!(r.text.contains(want), "{origin:?}: {}", r.text);
        assert!(
            r.text.contains("nothing was started"),
            "{origin:?}: {}",
            r.text
        );
    }
    let refused: &[(Value, &str)] = &[
        (
            json!({"title": "T", "body": "B", "branch": "main"}),
            "already exists",
        ),
        (
            json!({"title": "T", "body": "B", "branch": "a..b"}),
            "not a valid branch name",
        ),
        (
            json!({"title": " ", "body": "B", "branch": "x"}),
            "title must not be empty",
        ),
        (json!({"title": "T", "body": "", "branch": "x"}), "body"),
    ];
    for (input, want) in refused {
        let r = call(&runtime(Some("t")), "SuggestBackgroundPR", input).await;
        assert!(!r.ok && r.text.contains(want), "{input}: {}", r.text);
    }
    assert!(fake.seen().is_empty());
    assert!(git(root, &["branch", "--list", "work/*"]).trim().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_are_offered_only_with_their_switches_and_named_with_them_otherwise() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("off"),
        ScriptedTurn::text("on"),
        ScriptedTurn::text("settings"),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let model = || -> Arc<dyn Model> {
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"))
    };
    let tools = ["SubscribePR", "SuggestBackgroundPR", "RemoteTrigger"];

    let off = open_session(
        &ws.root(),
        model(),
        &fake.url(),
        PermissionMode::Default,
        approver.clone(),
        &events,
        Some(Features::default()),
    );
    off.send("hello").await.expect("turn");
    let body = fake.requests()[0].body.clone();
    let sent = body.to_string();
    for word in tools
        .iter()
        .chain(&["KAIROS_GITHUB_WEBHOOKS", "AGENT_TRIGGERS_REMOTE"])
    {
        assert!(!sent.contains(word), "the model is told of {word}");
    }
    let listing = off.tool_list();
    for (name, env) in [
        ("SubscribePR", "KAIROS_GITHUB_WEBHOOKS"),
        ("SuggestBackgroundPR", "USER_TYPE=ant"),
        ("RemoteTrigger", "AGENT_TRIGGERS_REMOTE"),
    ] {
        let entry = listing
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} listed: {listing:?}"));
        assert!(!entry.offered, "{entry:?}");
        assert!(
            entry.reason.as_deref().is_some_and(|r| r.contains(env)),
            "{entry:?}"
        );
    }

    let on = Features {
        subscribe_pr: true,
        background_pr: true,
        remote_triggers: true,
        ..Features::default()
    };
    let on = open_session(
        &ws.root(),
        model(),
        &fake.url(),
        PermissionMode::Default,
        approver.clone(),
        &events,
        Some(on),
    );
    on.send("hello").await.expect("turn");
    let sent = fake.requests()[1].body.to_string();
    let names = offered(&fake.requests()[1].body);
    for name in tools {
        // Offered directly or named for ToolSearch, as deferred tools are.
        assert!(
            names.iter().any(|n| n == name) || sent.contains(name),
            "{name}: {names:?}"
        );
    }
    assert!(
        on.tool_list()
            .iter()
            .filter(|t| tools.contains(&t.name.as_str()))
            .all(|t| t.offered)
    );

    settings_env(
        &ws,
        json!({"KAIROS_GITHUB_WEBHOOKS": "1", "AGENT_TRIGGERS_REMOTE": "0", "USER_TYPE": "ant"}),
    );
    let from_settings = open_session(
        &ws.root(),
        model(),
        &fake.url(),
        PermissionMode::Default,
        approver,
        &events,
        None,
    );
    from_settings.send("hello").await.expect("turn");
    let listing = from_settings.tool_list();
    let offered_now = |name: &str| listing.iter().any(|t| t.name == name && t.offered);
    assert!(offered_now("SubscribePR"));
    assert!(offered_now("SuggestBackgroundPR"));
    assert!(!offered_now("RemoteTrigger"));
}

#[test]
fn the_permission_rules_treat_each_action_as_documented() {
    use DecisionBehavior::{Allow, Ask, Deny};
    use PermissionMode::{AcceptEdits, BypassPermissions, Default, DontAsk};
    let p = Project::new().expect("project");
    let tools = checking_tools(&p.root, Some(&p.home));
    let subscribe = json!({"pr": "acme/widgets#1"});
    let suggest = json!({"title": "T", "body": "B", "branch": "work/x"});
    let create =
        json!({"action": "create", "cron": "0 9 * * *", "prompt": "p", "target": "ssh://box/srv"});
    let run = json!({"action": "run", "trigger_id": "abcd1234"});
    type Case<'a> = (
        &'a str,
        &'a Value,
        PermissionMode,
        &'a [(&'a str, &'a str)],
        DecisionBehavior,
    );
    let cases: &[Case<'_>] = &[
        ("SubscribePR", &subscribe, Default, &[], Ask),
        (
            "SubscribePR",
            &subscribe,
            Default,
            &[("allow", "SubscribePR")],
            Allow,
        ),
        (
            "SubscribePR",
            &subscribe,
            Default,
            &[("deny", "SubscribePR")],
            Deny,
        ),
        (
            "SubscribePR",
            &json!({"action": "list"}),
            Default,
            &[],
            Allow,
        ),
        (
            "SubscribePR",
            &json!({"action": "unsubscribe", "subscription_id": "pr_1"}),
            Default,
            &[],
            Allow,
        ),
        ("SuggestBackgroundPR", &suggest, Default, &[], Ask),
        ("SuggestBackgroundPR", &suggest, AcceptEdits, &[], Ask),
        ("SuggestBackgroundPR", &suggest, BypassPermissions, &[], Ask),
        ("SuggestBackgroundPR", &suggest, DontAsk, &[], Deny),
        (
            "SuggestBackgroundPR",
            &suggest,
            Default,
            &[("allow", "SuggestBackgroundPR")],
            Allow,
        ),
        ("RemoteTrigger", &create, Default, &[], Ask),
        ("RemoteTrigger", &create, BypassPermissions, &[], Ask),
        (
            "RemoteTrigger",
            &create,
            Default,
            &[("allow", "RemoteTrigger")],
            Allow,
        ),
        ("RemoteTrigger", &run, BypassPermissions, &[], Ask),
        (
            "RemoteTrigger",
            &json!({"action": "list"}),
            Default,
            &[],
            Allow,
        ),
        (
            "RemoteTrigger",
            &json!({"action": "delete", "trigger_id": "abcd1234"}),
            Default,
            &[],
            Allow,
        ),
        (
            "RemoteTrigger",
            &create,
            Default,
            &[("deny", "RemoteTrigger")],
            Deny,
        ),
    ];
    for (tool, input, mode, rules, want) in cases {
        let ctx = p.ctx(rules, *mode);
        let answer = check_call(&ctx, &tools, tool, input);
        assert_eq!(
            answer.decision, *want,
            "{tool} {input} {mode:?} {rules:?}: {}",
            answer.reason
        );
    }
}
