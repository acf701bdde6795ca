//! Every row of `tests/tables/carriers.txt` (syntax at its top), run twice: against the real program in a
//! temporary folder (does this option or variable really make it run a command, or write a file?) and against the
//! permission engine (does the engine see that command or write?). A row whose program is not installed is skipped
//! and listed; any other mismatch fails, with its line.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tandem_engine::testing::{Project, check_bash};
use tandem_protocol::{DecisionBehavior, PermissionMode};

const TABLE: &str = include_str!("../tables/carriers.txt");

struct Row {
    line: usize,
    program: String,
    tty: bool,
    effect: String,
    command: String,
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for (i, raw) in TABLE.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('[') {
            continue;
        }
        let cells: Vec<&str> = t.splitn(4, '|').map(str::trim).collect();
        assert_eq!(cells.len(), 4, "line {}: four columns: {t}", i + 1);
        assert!(
            matches!(cells[1], "repo" | "tty"),
            "line {}: fixture {}",
            i + 1,
            cells[1]
        );
        assert!(
            matches!(cells[2], "runs" | "code" | "writes" | "none"),
            "line {}: effect {}",
            i + 1,
            cells[2]
        );
        out.push(Row {
            line: i + 1,
            program: cells[0].to_string(),
            tty: cells[1] == "tty",
            effect: cells[2].to_string(),
            command: cells[3].to_string(),
        });
    }
    out
}

fn installed(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git {args:?}");
}

/// A folder with `bin/run-me` (leaves `ran` beside `bin`), `home/`, and `repo/`: two commits of `a.txt` and a
/// manual page `x.1`.
fn fixture(base: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let run = bin.join("run-me");
    std::fs::write(
        &run,
        format!("#!/bin/sh\ntouch '{}'\n", base.join("ran").display()),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let repo = base.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    std::fs::create_dir_all(base.join("home")).expect("mkdir");
    if installed("git") {
        git(&repo, &["init", "-q"]);
        git(&repo, &["config", "user.email", "t@example.com"]);
        git(&repo, &["config", "user.name", "t"]);
        std::fs::write(repo.join("a.txt"), "a\n").expect("write");
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-qm", "one"]);
        std::fs::write(repo.join("a.txt"), "a\nb\n").expect("write");
        git(&repo, &["commit", "-qam", "two"]);
    } else {
        std::fs::write(repo.join("a.txt"), "a\nb\n").expect("write");
    }
    std::fs::write(repo.join("x.1"), ".TH X 1\nhi\n").expect("write");
    (run, repo, base.join("ran"))
}

/// What the real program did: ran `{RUN}`, wrote `{FILE}`.
fn run_for_real(row: &Row) -> (bool, bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let (run, repo, mark) = fixture(&base);
    let file = base.join("written");
    let command = row
        .command
        .replace("{RUN}", &run.display().to_string())
        .replace("{FILE}", &file.display().to_string());
    let mut cmd = Command::new("timeout");
    cmd.arg("30");
    if row.tty {
        cmd.args(["script", "-qec", &command, "/dev/null"]);
    } else {
        cmd.args(["sh", "-c", &command]);
    }
    for var in [
        "PAGER",
        "GIT_PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "GIT_EDITOR",
        "LESSOPEN",
        "BASH_ENV",
    ] {
        cmd.env_remove(var);
    }
    let _ = cmd
        .current_dir(&repo)
        .env("HOME", base.join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("FILTER_BRANCH_SQUELCH_WARNING", "1")
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    (mark.exists(), file.exists())
}

/// What is wrong with the engine's answer for `row`, if anything.
fn engine_mismatch(row: &Row) -> Option<String> {
    let p = Project::new().expect("project");
    let run = p.outside.join("bin/run-me");
    let protected = p.root.join(".git/written");
    let command = row
        .command
        .replace("{RUN}", &run.display().to_string())
        .replace("{FILE}", &protected.display().to_string());
    let ctx = p.ctx(
        &[("deny", "Bash(run-me)"), ("deny", "Bash(run-me *)")],
        PermissionMode::BypassPermissions,
    );
    let a = check_bash(&ctx, &command);
    let expected = match row.effect.as_str() {
        "runs" => DecisionBehavior::Deny,
        "code" | "writes" => DecisionBehavior::Ask,
        _ => DecisionBehavior::Allow,
    };
    (a.decision != expected).then(|| {
        format!(
            "the engine answered {:?}, not {expected:?}: {}",
            a.decision, a.reason
        )
    })
}

#[test]
fn every_carrier_row_matches_the_real_program_and_the_engine() {
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let rows = rows();
    assert!(rows.len() > 40, "the table has {} rows", rows.len());
    for row in &rows {
        if let Some(why) = engine_mismatch(row) {
            failures.push(format!("line {}: {}\n    {why}", row.line, row.command));
        }
        let needs_script = row.tty || row.command.starts_with("script");
        if !installed(&row.program) || (needs_script && !installed("script")) {
            skipped.push(format!(
                "line {}: `{}` is not installed here",
                row.line, row.program
            ));
            continue;
        }
        let (ran, wrote) = run_for_real(row);
        let real_ok = match row.effect.as_str() {
            "runs" | "code" => ran,
            "writes" => wrote,
            _ => !ran && !wrote,
        };
        if !real_ok {
            failures.push(format!(
                "line {}: {}\n    the real program did not do what the table says ({}): ran {ran}, wrote {wrote}",
                row.line, row.command, row.effect
            ));
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "carriers.txt rows not run against the real program:\n{}",
            skipped.join("\n")
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}
