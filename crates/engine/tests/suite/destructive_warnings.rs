//! The warnings of the approval dialog for commands that destroy something, through every way a command can be
//! wrapped (`bash -c`, `sudo`, `env`, pipelines, lists), and what carries none; with the `sed -i` preview.

use serde_json::json;
use std::sync::Arc;
use tandem_engine::permission::PermissionContext;
use tandem_engine::shell::destructive_warnings;
use tandem_engine::testing::{Workspace, check};
use tandem_engine::tool::{Tool, ToolContext};
use tandem_engine::tools::bash::{BashTool, ShellSession};
use tandem_protocol::PermissionMode;

#[test]
fn destructive_commands_say_what_they_destroy() {
    let ws = Workspace::new(&[("notes.txt", "keep me\n"), ("empty.txt", "")]).expect("workspace");
    // (command, a phrase the warning must contain; "" = no warning)
    let table: &[(&str, &str)] = &[
        (
            "rm -rf build",
            "deletes build and everything inside, without asking",
        ),
        ("rm -r src/old", "deletes src/old and everything inside"),
        ("rm -R a b", "deletes a, b and everything inside"),
        (
            "rm --recursive --force dist",
            "deletes dist and everything inside, without asking",
        ),
        (
            "rm notes.txt",
            "deletes notes.txt; it does not go to the trash",
        ),
        ("rm -f -- -weird", "deletes -weird, without asking"),
        (
            "sudo rm -rf /var/lib/app",
            "deletes /var/lib/app and everything inside",
        ),
        (
            "bash -c 'rm -rf target'",
            "deletes target and everything inside",
        ),
        (
            "sh -c \"cd x && rm -rf y\"",
            "deletes y and everything inside",
        ),
        (
            "env FOO=1 rm -rf cache",
            "deletes cache and everything inside",
        ),
        ("nice -n 5 rm -r logs", "deletes logs and everything inside"),
        (
            "find . -name x | xargs rm -rf",
            "deletes the paths it reads from its input",
        ),
        (
            "ls && rm -rf out || echo no",
            "deletes out and everything inside",
        ),
        ("(cd sub; rm -rf gen)", "deletes gen and everything inside"),
        (
            "git reset --hard",
            "discards every uncommitted change to tracked files",
        ),
        ("git reset --hard HEAD~3", "moves the branch to HEAD~3"),
        (
            "git -C repo reset --hard origin/main",
            "moves the branch to origin/main",
        ),
        ("sudo git reset --hard", "discards every uncommitted change"),
        ("git reset --soft HEAD~1", ""),
        ("git reset HEAD file", ""),
        (
            "git push --force origin main",
            "overwrites the branch on origin",
        ),
        ("git push -f", "overwrites the branch on the remote"),
        ("git push origin +main", "overwrites the branch on origin"),
        (
            "git push --force-with-lease origin feature",
            "unless it moved since your last fetch",
        ),
        ("git push origin main", ""),
        ("git clean -fd", "deletes untracked files and folders"),
        ("git clean -fdx", "ignored ones included"),
        ("git clean -f -X", "that git ignores"),
        ("git clean -n", ""),
        ("git clean -fn", ""),
        (
            "git checkout -- .",
            "discards the uncommitted changes to every file in the folder",
        ),
        ("git checkout .", "every file in the folder"),
        (
            "git checkout -- src/a.rs",
            "discards the uncommitted changes to src/a.rs",
        ),
        ("git checkout main", ""),
        ("git checkout -b feature", ""),
        (
            "git restore src/a.rs",
            "discards the uncommitted changes to src/a.rs",
        ),
        ("git restore .", "every file in the folder"),
        ("git restore --staged src/a.rs", ""),
        (
            "git restore --staged --worktree x",
            "discards the uncommitted changes to x",
        ),
        ("git branch -D old", "deletes old even if not merged"),
        ("git stash drop", "deletes stashed changes"),
        ("dd if=/dev/zero of=/dev/sda bs=1M", "overwrites /dev/sda"),
        ("sudo dd if=img.iso of=/dev/sdb", "overwrites /dev/sdb"),
        ("dd if=/dev/sda of=/dev/null", ""),
        ("dd if=a", ""),
        (
            "mkfs.ext4 /dev/sdb1",
            "creates a new filesystem on /dev/sdb1",
        ),
        ("sudo mkfs -t ext4 /dev/sdc", "erasing everything on it"),
        ("mke2fs /dev/sdd", "creates a new filesystem on /dev/sdd"),
        (
            "shred secrets.txt",
            "overwrites secrets.txt so that the content cannot be recovered",
        ),
        ("shred -u key.pem", "then deletes it"),
        ("shred -zu key.pem", "then deletes it"),
        ("truncate -s 0 app.log", "changes the size of app.log"),
        ("truncate --size 10 a b", "changes the size of a, b"),
        ("psql -c 'DROP TABLE users'", "DROP TABLE users"),
        ("psql mydb -c \"drop database prod;\"", "DROP DATABASE prod"),
        (
            "mysql -e 'DROP TABLE IF EXISTS orders'",
            "DROP TABLE orders",
        ),
        (
            "mysql -u root -e 'TRUNCATE TABLE sessions'",
            "TRUNCATE on sessions",
        ),
        ("sqlite3 app.db 'DROP TABLE t;'", "DROP TABLE t"),
        ("sqlite3 app.db 'truncate logs'", "TRUNCATE on logs"),
        (
            "sudo -u postgres psql -c 'DROP SCHEMA public CASCADE'",
            "DROP SCHEMA public",
        ),
        ("bash -c \"psql -c 'DROP TABLE x'\"", "DROP TABLE x"),
        ("psql -c 'SELECT * FROM drop_table'", ""),
        ("sqlite3 app.db '.tables'", ""),
        (
            "echo new > notes.txt",
            "replaces the existing file notes.txt",
        ),
        ("cat a >| notes.txt", "replaces the existing file notes.txt"),
        ("echo more >> notes.txt", ""),
        ("echo x > empty.txt", ""),
        ("echo x > fresh.txt", ""),
        ("make 2>/dev/null", ""),
        ("ls > /dev/null 2>&1", ""),
        (
            "bash -c 'echo x > notes.txt'",
            "replaces the existing file notes.txt",
        ),
        ("ls -la", ""),
        ("cargo build && cargo test", ""),
        ("echo rm -rf /", ""),
        ("grep -r 'git push --force' .", ""),
    ];
    let mut wrong = Vec::new();
    for (command, want) in table {
        let got = destructive_warnings(command, &ws.root());
        let right = if want.is_empty() {
            got.is_empty()
        } else {
            got.iter().any(|w| w.contains(want))
        };
        if !right {
            wrong.push(format!("{command}: want {want:?}, got {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        table.len(),
        wrong.join("\n")
    );
}

#[test]
fn permissions_check_reports_the_warnings() {
    let ws = Workspace::new(&[]).expect("workspace");
    let ctx = PermissionContext::new(ws.root(), PermissionMode::Default);
    let a = check(
        &ctx,
        "Bash",
        json!({"command": "git push --force origin main"}),
    );
    assert_eq!(a.warnings.len(), 1, "{a:?}");
    assert!(a.warnings[0].contains("overwrites the branch on origin"));
    let json = serde_json::to_value(&a).expect("json");
    assert!(json["warnings"][0].as_str().is_some(), "{json}");
    let a = check(&ctx, "Bash", json!({"command": "ls"}));
    assert!(a.warnings.is_empty());
}

#[test]
fn sed_in_place_shows_the_diff_it_would_make_without_writing() {
    let ws = Workspace::new(&[("a.txt", "one\ntwo\nthree\n"), ("b.txt", "two two\n")])
        .expect("workspace");
    let tool = BashTool::new(Arc::new(ShellSession::temporary().without_sandbox()));
    let ctx = ToolContext::new(ws.root());
    let input =
        |command: &str| serde_json::from_value(json!({ "command": command })).expect("input");

    let previews = tool.approval_previews(&input("sed -i -E 's/t(wo)/T\\1/g' a.txt b.txt"), &ctx);
    assert_eq!(previews.len(), 2, "{previews:?}");
    assert_eq!(previews[0].path, ws.path("a.txt").display().to_string());
    assert_eq!(previews[0].old_text, "one\ntwo\nthree\n");
    assert_eq!(previews[0].new_text, "one\nTwo\nthree\n");
    assert_eq!(previews[1].new_text, "Two Two\n");
    assert_eq!(
        std::fs::read_to_string(ws.path("a.txt")).expect("read"),
        "one\ntwo\nthree\n",
        "nothing was written"
    );
    assert_eq!(
        tool.approval_previews(&input("cd . && sed -i.bak '2d' a.txt"), &ctx)[0].new_text,
        "one\nthree\n"
    );
    assert!(!ws.path("a.txt.bak").exists());

    for none in [
        "sed -i 's/a/b/w written.txt' a.txt",
        "sed -i '1e touch ran.txt' a.txt",
        "sed -i 's/x/y/' missing.txt",
        "sed -i 's/x/y/' \"$F\"",
        "sed -i -f prog.sed a.txt",
        "sed 's/x/y/' a.txt",
        "sed -i 's/[/' a.txt",
    ] {
        assert!(
            tool.approval_previews(&input(none), &ctx).is_empty(),
            "{none}"
        );
    }
    assert!(!ws.path("written.txt").exists());
    assert!(!ws.path("ran.txt").exists());
}
