//! The person's own settings: the connection and looks saved from the window, the API key kept outside the file
//! (owner-only), the environment winning, bad values refused without writing, and a model change reaching an open
//! session's next request.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::settings::{AppSettingsError, AppSettingsFile, CredentialStore};
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    AppSettingsUpdate, ApprovalChoice, BudgetAction, BudgetLimits, KeySource, Theme,
};

use super::common::{fake_config, server, session};

fn settings_in(dir: &Path) -> AppSettingsFile {
    AppSettingsFile::new(
        dir.join("settings.json"),
        CredentialStore::in_file(dir.join("credentials.json")),
    )
}

fn update(provider: &str, key: Option<&str>) -> AppSettingsUpdate {
    AppSettingsUpdate {
        provider: provider.into(),
        base_url: "http://127.0.0.1:9/v1/".into(),
        model: "qwen3".into(),
        api_key: key.map(str::to_string),
        theme: Theme::Light,
        font_size: 16,
        notifications: None,
        budget: None,
    }
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn saving_keeps_other_keys_and_puts_the_key_in_an_owner_only_file() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"maxTokens": 4096, "apiKey": "sk-old"}"#,
    )
    .expect("write");
    let file = settings_in(dir.path());

    file.save(&update("openai", Some("sk-new"))).expect("save");

    let saved = json_of(&dir.path().join("settings.json"));
    assert_eq!(
        saved["maxTokens"], 4096,
        "keys the window does not edit stay"
    );
    assert!(
        saved.get("apiKey").is_none(),
        "the key moved out of the file"
    );
    assert_eq!(saved["provider"], "openai");
    assert_eq!(saved["theme"], "light");
    assert_eq!(saved["fontSize"], 16);
    let credentials = dir.path().join("credentials.json");
    assert_eq!(json_of(&credentials)["openai"], "sk-new");
    let mode = std::fs::metadata(&credentials)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    let shown = file.read(no_env).expect("read");
    assert_eq!(shown.provider, "openai");
    assert_eq!(shown.model, "qwen3");
    assert_eq!(shown.key_source, KeySource::CredentialsFile);
    assert_eq!(shown.theme, Theme::Light);
    assert_eq!(shown.font_size, 16);

    let (config, problem) = file.model_config(no_env);
    assert_eq!(problem, None);
    assert_eq!(config.api_key.as_deref(), Some("sk-new"));
    assert_eq!(config.base_url, "http://127.0.0.1:9/v1");
    assert_eq!(config.model, "qwen3");
}

#[test]
fn the_environment_wins_and_is_named() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    file.save(&update("anthropic", Some("sk-saved")))
        .expect("save");
    let env = |k: &str| (k == "ANTHROPIC_API_KEY").then(|| "sk-env".to_string());

    let (config, _) = file.model_config(env);
    assert_eq!(config.api_key.as_deref(), Some("sk-env"));
    let shown = file.read(env).expect("read");
    assert_eq!(shown.key_source, KeySource::Environment);
    assert_eq!(
        shown.overridden_by_env,
        vec!["ANTHROPIC_API_KEY".to_string()]
    );
}

#[test]
fn the_window_is_told_what_is_in_use_and_whether_a_key_is_saved_when_the_environment_sets_them() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    let env = |k: &str| match k {
        "ANTHROPIC_API_KEY" => Some("sk-env".to_string()),
        "ANTHROPIC_BASE_URL" => Some("http://127.0.0.1:9".to_string()),
        _ => None,
    };
    // Nothing saved: the environment's URL is the one in use, and there is no saved key to keep.
    let shown = file.read(env).expect("read");
    assert_eq!(shown.base_url, "");
    assert_eq!(shown.base_url_in_use, "http://127.0.0.1:9");
    assert_eq!(shown.key_source, KeySource::Environment);
    assert!(!shown.key_saved);

    file.save(&update("anthropic", Some("sk-saved")))
        .expect("save");
    let shown = file.read(env).expect("read");
    assert_eq!(shown.key_source, KeySource::Environment);
    assert!(shown.key_saved);
    // Without the environment, the saved URL is the one in use; with nothing saved, the provider's default.
    assert_eq!(
        file.read(no_env).expect("read").base_url_in_use,
        "http://127.0.0.1:9/v1/"
    );
    let fresh = tempfile::tempdir().expect("dir");
    assert_eq!(
        settings_in(fresh.path())
            .read(no_env)
            .expect("read")
            .base_url_in_use,
        "https://api.anthropic.com"
    );
}

#[test]
fn an_empty_key_removes_the_saved_one_and_no_key_keeps_it() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    file.save(&update("anthropic", Some("sk-1"))).expect("save");
    file.save(&update("anthropic", None))
        .expect("save without a key");
    assert_eq!(file.model_config(no_env).0.api_key.as_deref(), Some("sk-1"));

    file.save(&update("anthropic", Some(""))).expect("remove");
    assert_eq!(file.model_config(no_env).0.api_key, None);
    assert_eq!(file.read(no_env).expect("read").key_source, KeySource::None);
}

/// Whether an error is the one a bad value should give.
type ExpectedError = fn(&AppSettingsError) -> bool;

#[test]
fn the_budget_is_saved_beside_the_other_keys_and_read_back() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"maxTokens": 4096, "budget": {"dailyUsd": 2}}"#,
    )
    .expect("write");
    let file = settings_in(dir.path());
    assert_eq!(file.read(no_env).expect("read").budget.daily_usd, Some(2.0));

    let limits = BudgetLimits {
        daily_usd: None,
        monthly_usd: Some(50.0),
        warn_percent: 90,
        on_limit: BudgetAction::Stop,
    };
    file.save(&AppSettingsUpdate {
        budget: Some(limits),
        ..update("anthropic", None)
    })
    .expect("save");
    let saved = json_of(&dir.path().join("settings.json"));
    assert_eq!(
        saved["budget"],
        json!({"monthlyUsd": 50.0, "warnPercent": 90, "onLimit": "stop"})
    );
    assert_eq!(saved["maxTokens"], 4096);
    assert_eq!(file.read(no_env).expect("read").budget, limits);
    assert_eq!(
        BudgetLimits::from(file.budget()),
        limits,
        "what sessions watch"
    );

    // Saving without a budget keeps the file's.
    file.save(&update("anthropic", None)).expect("save");
    assert_eq!(file.read(no_env).expect("read").budget, limits);
}

#[test]
fn bad_values_and_broken_files_write_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    let cases: Vec<(AppSettingsUpdate, ExpectedError)> = vec![
        (update("gemini", None), |e| {
            matches!(e, AppSettingsError::UnknownProvider(_))
        }),
        (
            AppSettingsUpdate {
                base_url: "ftp://example.test".into(),
                ..update("anthropic", None)
            },
            |e| matches!(e, AppSettingsError::BadUrl(_)),
        ),
        (
            AppSettingsUpdate {
                base_url: "not a url".into(),
                ..update("anthropic", None)
            },
            |e| matches!(e, AppSettingsError::BadUrl(_)),
        ),
        (
            AppSettingsUpdate {
                font_size: 300,
                ..update("anthropic", None)
            },
            |e| matches!(e, AppSettingsError::BadFontSize),
        ),
        (
            AppSettingsUpdate {
                budget: Some(BudgetLimits {
                    daily_usd: Some(-5.0),
                    ..BudgetLimits::default()
                }),
                ..update("anthropic", Some("sk-kept-out"))
            },
            |e| matches!(e, AppSettingsError::Budget(_)),
        ),
    ];
    for (bad, expected) in cases {
        let error = file.save(&bad).expect_err("refused");
        assert!(expected(&error), "{bad:?}: {error}");
        assert!(
            !dir.path().join("settings.json").exists(),
            "{bad:?} wrote the file"
        );
        assert!(!dir.path().join("credentials.json").exists());
    }

    let broken = "{\"model\": \"x\",, }";
    std::fs::write(dir.path().join("settings.json"), broken).expect("write");
    let error = file
        .save(&update("anthropic", Some("sk")))
        .expect_err("refused");
    assert!(
        matches!(error, AppSettingsError::Malformed { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("settings.json"), "{error}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("settings.json")).expect("read"),
        broken,
        "the broken file is left as the person wrote it"
    );
    assert!(!dir.path().join("credentials.json").exists());
    let (_, problem) = file.model_config(no_env);
    assert!(problem.is_some_and(|p| p.contains("settings.json")));
}

#[test]
fn a_malformed_credentials_file_is_reported_not_overwritten() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("credentials.json"), "[1, 2").expect("write");
    let file = settings_in(dir.path());
    let error = file
        .save(&update("anthropic", Some("sk")))
        .expect_err("refused");
    assert!(error.to_string().contains("credentials.json"), "{error}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("credentials.json")).expect("read"),
        "[1, 2"
    );
}

#[tokio::test]
async fn a_new_model_config_reaches_the_open_sessions_next_request() {
    let ws = Workspace::new(&[]).expect("workspace");
    let first = server(Script::turns([ScriptedTurn::text("from the first")])).await;
    let second = server(Script::turns([ScriptedTurn::text("from the second")])).await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(&ws.root(), &first, approver, RecordingSink::default());
    assert_eq!(
        s.send("one").await.expect("turn").final_text,
        "from the first"
    );

    let mut config = fake_config(&second.url());
    config.model = "another-model".into();
    config.api_key = Some("sk-other".into());
    s.set_model_config(config).expect("switch");

    let outcome = s.send("two").await.expect("turn");
    assert_eq!(outcome.final_text, "from the second");
    assert_eq!(
        first.requests().len(),
        1,
        "nothing more went to the old server"
    );
    let request = &second.requests()[0];
    assert_eq!(request.body["model"], "another-model");
    assert_eq!(request.header("x-api-key"), Some("sk-other"));
    assert_eq!(s.info().model, "another-model");
    let history = request.body["messages"].as_array().expect("messages");
    assert!(
        history
            .iter()
            .any(|m| m.to_string().contains("from the first")),
        "the conversation goes on with the new model: {}",
        json!(history)
    );
}

#[test]
fn keys_of_the_wrong_type_are_named_with_the_type_they_need() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    std::fs::create_dir_all(file.path().parent().expect("folder")).expect("mkdir");
    std::fs::write(
        file.path(),
        r#"{"model": 5, "maxTokens": "8000", "theme": "blue", "fontSize": 99, "baseUrl": "http://127.0.0.1:9",
            "notifications": "off"}"#,
    )
    .expect("write");
    let warnings = file.warnings();
    for wanted in [
        "`model` must be a string, not a number (5)",
        "`maxTokens` must be a positive whole number, not a string (\"8000\")",
        "`theme` must be \"light\", \"dark\" or \"system\", not a string (\"blue\")",
        "`fontSize` must be a whole number of pixels from 10 to 24, not a number (99)",
        "`notifications` must be true or false, not a string (\"off\")",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(wanted)
                && w.contains("settings.json")
                && w.ends_with("it is ignored")),
            "{wanted}: {warnings:?}"
        );
    }
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    assert!(
        file.read(no_env).expect("read").notifications,
        "a bad value leaves them on"
    );
    // The keys of the right type still apply.
    let (config, problem) = file.model_config(no_env);
    assert_eq!(problem, None);
    assert_eq!(config.base_url, "http://127.0.0.1:9");
}

#[test]
fn notifications_are_on_until_turned_off_and_kept_when_an_update_does_not_say() {
    let dir = tempfile::tempdir().expect("dir");
    let file = settings_in(dir.path());
    assert!(
        file.read(no_env).expect("read").notifications,
        "on without a file"
    );
    file.save(&AppSettingsUpdate {
        notifications: Some(false),
        ..update("anthropic", None)
    })
    .expect("save");
    assert_eq!(json_of(file.path())["notifications"], false);
    assert!(!file.read(no_env).expect("read").notifications);
    file.save(&update("anthropic", None))
        .expect("save without saying");
    assert!(!file.read(no_env).expect("read").notifications, "kept off");
    file.save(&AppSettingsUpdate {
        notifications: Some(true),
        ..update("anthropic", None)
    })
    .expect("save");
    assert!(file.read(no_env).expect("read").notifications);
}
