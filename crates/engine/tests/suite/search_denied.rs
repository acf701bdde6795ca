//! Searches never show what a deny rule forbids reading: Grep leaves denied files out and says how many.

use serde_json::json;
use tandem_engine::testing::{Project, TestRuntime, call};
use tandem_protocol::PermissionMode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_skips_files_a_read_deny_rule_covers_and_says_so() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join(".env"), "API_TOKEN=hunter2\n").expect("write");
    std::fs::create_dir_all(p.root.join("secrets")).expect("mkdir");
    std::fs::write(p.root.join("secrets/prod.txt"), "API_TOKEN=prod-secret\n").expect("write");
    std::fs::write(
        p.root.join("config.txt"),
        "API_TOKEN is read from the environment\n",
    )
    .expect("write");
    let ctx = p.ctx(
        &[("deny", "Read(.env)"), ("deny", "Read(secrets/**)")],
        PermissionMode::Default,
    );
    let rt = TestRuntime::new(&p.root).permissions(ctx).build();

    for mode in ["content", "files_with_matches", "count"] {
        let r = call(
            &rt,
            "Grep",
            &json!({"pattern": "API_TOKEN", "output_mode": mode}),
        )
        .await;

        assert!(r.ok, "{mode}: {}", r.text);
        assert!(r.text.contains("config.txt"), "{mode}: {}", r.text);
        assert!(
            !r.text.contains("hunter2") && !r.text.contains(".env") && !r.text.contains("prod"),
            "{mode}: a denied file was shown: {}",
            r.text
        );
        assert!(
            r.text.contains("2 files were not searched"),
            "{mode}: {}",
            r.text
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_deny_rules_nothing_is_skipped() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join(".env"), "API_TOKEN=dev\n").expect("write");
    let rt = TestRuntime::new(&p.root)
        .permissions(p.ctx(&[], PermissionMode::Default))
        .build();

    let r = call(
        &rt,
        "Grep",
        &json!({"pattern": "API_TOKEN", "output_mode": "content"}),
    )
    .await;

    assert!(r.text.contains("API_TOKEN=dev"), "{}", r.text);
    assert!(!r.text.contains("not searched"), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn glob_never_lists_what_a_read_deny_rule_covers_in_the_project_or_the_home_folder() {
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join("secrets")).expect("mkdir");
    std::fs::write(p.root.join("secrets/prod.pem"), "k").expect("write");
    std::fs::write(p.root.join("src/app.pem"), "public").expect("write");
    std::fs::create_dir_all(p.home.join("keys")).expect("mkdir");
    std::fs::write(p.home.join("keys/id.pem"), "k").expect("write");
    std::fs::write(p.home.join("notes.pem"), "n").expect("write");
    let rules = [("deny", "Read(secrets/**)"), ("deny", "Read(~/keys/**)")];
    let ctx = p.ctx(&rules, PermissionMode::BypassPermissions);
    let rt = TestRuntime::new(&p.root).permissions(ctx.clone()).build();

    let r = call(&rt, "Glob", &json!({"pattern": "**/*.pem"})).await;
    assert!(r.ok, "{}", r.text);
    assert!(r.text.contains("app.pem"), "{}", r.text);
    assert!(
        !r.text.contains("prod.pem"),
        "a denied path was listed: {}",
        r.text
    );
    assert!(r.text.contains("not listed: a deny rule"), "{}", r.text);

    let home = p.home.display().to_string();
    let r = call(&rt, "Glob", &json!({"pattern": "**/*.pem", "path": home})).await;
    assert!(r.ok, "{}", r.text);
    assert!(r.text.contains("notes.pem"), "{}", r.text);
    assert!(
        !r.text.contains("id.pem"),
        "a denied path was listed: {}",
        r.text
    );

    // The decisions name the deny that limits the search; a search aimed at the covered folder is denied.
    let answer = tandem_engine::testing::check(&ctx, "Glob", json!({"pattern": "**/*.pem"}));
    assert!(
        answer.reason.contains("Read(secrets/**)"),
        "{}",
        answer.reason
    );
    let answer = tandem_engine::testing::check(&ctx, "Grep", json!({"pattern": "k"}));
    assert!(
        answer.reason.contains("Read(secrets/**)"),
        "{}",
        answer.reason
    );
    let answer = tandem_engine::testing::check(
        &ctx,
        "Glob",
        json!({"pattern": "*", "path": p.path("secrets")}),
    );
    assert_eq!(
        answer.decision,
        tandem_protocol::DecisionBehavior::Deny,
        "{}",
        answer.reason
    );
}
