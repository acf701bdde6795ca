//! Glob and Grep in a folder with parts that cannot be read: what was found is listed, and what could not be read is
//! named, never reported as "No files found"; a command reading such a folder where a deny rule points asks. Permissions are not checked for root, so when the suite runs as root
//! the command runs as `nobody` (with `setpriv`).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::{Value, json};

use super::commands::{run, tandem};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// `tandem ARGS --cwd DIR`, as `nobody` when the suite runs as root: its one JSON line.
async fn as_nobody(dir: &Path, home: &Path, args: &[&str]) -> Value {
    let plain = tandem(None, home);
    let plain = plain.as_std();
    // A file this process made belongs to its effective user.
    let root = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(home).expect("home")) == 0;
    let mut cmd = if root {
        let mut cmd = tokio::process::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(plain.get_program());
        cmd
    } else {
        tokio::process::Command::new(plain.get_program())
    };
    for (key, value) in plain.get_envs() {
        match value {
            Some(value) => cmd.env(key, value),
            None => cmd.env_remove(key),
        };
    }
    cmd.args(args)
        .arg("--cwd")
        .arg(dir)
        .stdin(std::process::Stdio::null());
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(out.stdout.trim()).expect("one JSON line")
}

/// `tandem tool NAME --input INPUT --cwd DIR`, as `nobody` when the suite runs as root.
async fn tool(dir: &Path, home: &Path, name: &str, input: Value) -> Value {
    let input = input.to_string();
    as_nobody(dir, home, &["tool", name, "--input", &input]).await
}

#[tokio::test]
async fn glob_and_grep_name_what_they_could_not_read() {
    let dir = tempfile::tempdir().expect("project");
    let home = tempfile::tempdir().expect("home");
    chmod(dir.path(), 0o755);
    chmod(home.path(), 0o777);
    let open = dir.path().join("open");
    let locked = dir.path().join("locked");
    std::fs::create_dir_all(&open).expect("mkdir");
    std::fs::create_dir_all(&locked).expect("mkdir");
    std::fs::write(open.join("a.txt"), "needle\n").expect("write");
    std::fs::write(locked.join("b.txt"), "needle\n").expect("write");
    std::fs::write(dir.path().join("secret.txt"), "needle\n").expect("write");
    chmod(&open, 0o755);
    chmod(&open.join("a.txt"), 0o644);
    chmod(&locked, 0o000);
    chmod(&dir.path().join("secret.txt"), 0o000);

    let only_locked = tool(
        dir.path(),
        home.path(),
        "Glob",
        json!({"pattern": "*.txt", "path": "locked"}),
    )
    .await;
    let text = only_locked["content"].as_str().unwrap_or_default();
    assert!(
        text.contains("1 path could not be read")
            && text.contains("locked")
            && text.contains("ermission denied"),
        "{text}"
    );

    let glob = tool(
        dir.path(),
        home.path(),
        "Glob",
        json!({"pattern": "**/*.txt"}),
    )
    .await;
    let text = glob["content"].as_str().unwrap_or_default();
    assert!(
        text.contains("a.txt") && text.contains("could not be read") && text.contains("locked"),
        "{text}"
    );

    let grep = tool(
        dir.path(),
        home.path(),
        "Grep",
        json!({"pattern": "needle"}),
    )
    .await;
    let text = grep["content"].as_str().unwrap_or_default();
    assert!(text.contains("a.txt"), "{text}");
    assert!(
        text.contains("2 paths could not be read")
            && text.contains("locked")
            && text.contains("secret.txt"),
        "{text}"
    );
    chmod(&locked, 0o755);
}

#[tokio::test]
async fn a_command_reading_a_folder_this_process_cannot_list_asks_when_a_deny_rule_points_inside() {
    let dir = tempfile::tempdir().expect("project");
    let home = tempfile::tempdir().expect("home");
    chmod(dir.path(), 0o755);
    chmod(home.path(), 0o777);
    let locked = dir.path().join("locked");
    std::fs::create_dir_all(&locked).expect("mkdir");
    std::fs::write(locked.join("secret.txt"), "needle\n").expect("write");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"deny": ["Read(locked/secret.txt)"]}}"#,
    )
    .expect("write");
    chmod(&dir.path().join(".claude"), 0o755);
    chmod(&dir.path().join(".claude/settings.json"), 0o644);
    std::fs::write(dir.path().join("notes.txt"), "needle\n").expect("write");
    chmod(&dir.path().join("notes.txt"), 0o644);
    chmod(&locked, 0o700);
    let check = |command: &str| {
        let input = json!({ "command": command }).to_string();
        let dir = dir.path().to_path_buf();
        let home = home.path().to_path_buf();
        async move {
            as_nobody(
                &dir,
                &home,
                &[
                    "permissions",
                    "check",
                    "Bash",
                    "--mode",
                    "bypassPermissions",
                    "--input",
                    &input,
                ],
            )
            .await
        }
    };

    // The checker cannot look inside `locked`, where the deny rule points; a command with more rights could read
    // it, so reading the whole project asks, naming the rule.
    let answer = check("sudo grep -r needle .").await;
    assert_eq!(answer["decision"], "ask", "{answer}");
    assert!(
        answer["reason"]
            .as_str()
            .is_some_and(|r| r.contains("Read(locked/secret.txt)")),
        "{answer}"
    );
    // Reading what it can tell holds nothing covered is not affected.
    let answer = check("grep needle notes.txt").await;
    assert_eq!(answer["decision"], "allow", "{answer}");
    chmod(&locked, 0o755);
}
