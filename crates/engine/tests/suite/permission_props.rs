//! Property tests: rule parsing, shell analysis and whole decisions never panic, whatever the input; and a few
//! invariants (deny beats allow; adding an allow rule never turns a deny into something else).

use proptest::prelude::*;
use serde_json::json;
use tandem_engine::permission::{RuleBehavior, parse_rule};
use tandem_engine::shell::analyse;
use tandem_protocol::{DecisionBehavior, PermissionMode};

use tandem_engine::testing::{Project, check_bash as bash};

fn shellish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "ls",
        "rm",
        "-rf",
        "x",
        "&&",
        "||",
        ";",
        "|",
        "|&",
        "&",
        "\n",
        "$(",
        ")",
        "`",
        "'",
        "\"",
        "\\",
        "$'\\x72m'",
        "${IFS}",
        "<(",
        ">",
        ">>",
        ">|",
        "&>",
        ">&",
        "2>&1",
        "<<EOF\nhi\nEOF\n",
        "{",
        "}",
        "(",
        "for",
        "do",
        "done",
        "if",
        "then",
        "fi",
        "case",
        "esac",
        "eval",
        "bash -c",
        "FOO=1",
        "timeout 5",
        "nohup",
        "xargs",
        "find . -exec",
        "\\;",
        "sed -i",
        "s/a/b/e",
        "~",
        "/etc/passwd",
        "..",
        "*",
        "?",
        "[a]",
        "#",
        "$HOME",
        "{a,b}",
        "\t",
        " ",
    ]);
    prop::collection::vec(atoms, 0..24).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn rule_parsing_never_panics(text in "\\PC{0,60}", b in 0u8..3) {
        let behavior = [RuleBehavior::Allow, RuleBehavior::Deny, RuleBehavior::Ask][b as usize];
        let _ = parse_rule(&text, behavior);
        let _ = parse_rule(&format!("Bash({text})"), behavior);
        let _ = parse_rule(&format!("Read({text})"), behavior);
        let _ = parse_rule(&format!("WebFetch(domain:{text})"), behavior);
        let _ = parse_rule(&format!("mcp__{text}"), behavior);
    }

    #[test]
    fn shell_analysis_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = analyse(&text);
    }

    #[test]
    fn shell_analysis_never_panics_on_shell_like_text(text in shellish()) {
        let a = analyse(&text);
        let _ = a.is_read_only();
    }

    #[test]
    fn decisions_never_panic_and_deny_rules_win(text in shellish(), rule in "[a-z]{1,4}( \\*)?") {
        let p = Project::new().expect("project");
        let deny = format!("Bash({rule})");
        let ctx = p.ctx(&[("deny", deny.as_str()), ("allow", "Bash(*)"), ("allow", "Read")], PermissionMode::BypassPermissions);
        let with_deny = bash(&ctx, &text);
        prop_assert!(!with_deny.reason.is_empty());
        let ctx_more = p.ctx(&[("deny", deny.as_str()), ("allow", "Bash(*)"), ("allow", "Bash(rm *)"), ("allow", "Edit")], PermissionMode::BypassPermissions);
        if with_deny.decision == DecisionBehavior::Deny {
            prop_assert_eq!(bash(&ctx_more, &text).decision, DecisionBehavior::Deny);
        }
        let _ = tandem_engine::testing::check(&ctx, "Edit", json!({"file_path": text, "old_string": "a", "new_string": "b"}));
    }
}

/// Ways a program is made to run a command it is given in an option value, a variable or its arguments; `{}` is
/// where the command goes (as one shell word).
const CARRIERS: &[&str] = &[
    "git rebase --exec {} HEAD~2",
    "git rebase -x {} HEAD~1",
    "git -c core.pager={} log",
    "git -c core.editor={} commit",
    "git -c core.sshCommand={} fetch",
    "git -c diff.external={} diff",
    "git -c sequence.editor={} rebase -i HEAD~1",
    "git grep -O{} x",
    "git grep --open-files-in-pager={} x",
    "git submodule foreach {}",
    "git difftool -y -x {} HEAD",
    "git clone --upload-pack={} repo",
    "ssh -o ProxyCommand={} host",
    "ssh -oLocalCommand={} -oPermitLocalCommand=yes host",
    "scp -S {} a host:b",
    "tar -I {} -cf a.tar src",
    "tar --use-compress-program={} -cf a.tar src",
    "tar --to-command={} -xf a.tar",
    "tar --checkpoint-action=exec={} -cf a.tar src",
    "rsync -e {} a host:b",
    "rsync --rsh={} a host:b",
    "zip -T -TT {} a.zip f",
    "man -P {} ls",
    "sort --compress-program={} -o out big",
    "split --filter={} big",
    "PAGER={} git log",
    "GIT_PAGER={} git log",
    "MANPAGER={} man ls",
    "EDITOR={} git commit",
    "VISUAL={} git commit",
    "GIT_EDITOR={} git commit",
    "GIT_SSH_COMMAND={} git fetch",
    "GIT_EXTERNAL_DIFF={} git diff",
    "GIT_PROXY_COMMAND={} git fetch",
    "LESSOPEN={} less README.md",
    "export GIT_PAGER={}; git log",
    "env EDITOR={} git commit",
    "make CC={}",
    "unbuffer sh -c {}",
    "script -qc {} /dev/null",
    "pee {}",
    "hyperfine {}",
];

/// A denied command with arguments, and the deny rule for it.
fn denied_command() -> impl Strategy<Value = (String, String)> {
    let programs = prop::sample::select(vec!["rm", "curl", "shred", "dd", "kill", "evil-tool"]);
    let args = prop::collection::vec(
        prop::sample::select(vec![
            "-rf",
            "x",
            "/tmp/y",
            "-s",
            "--force",
            "http://e.x",
            "a b",
        ]),
        0..4,
    );
    (programs, args).prop_map(|(p, args)| {
        let mut cmd = p.to_string();
        for a in args {
            cmd.push(' ');
            cmd.push_str(a);
        }
        (cmd, format!("Bash({p} *)"))
    })
}

/// The command as one shell word, quoted one of the ways bash allows.
fn quoted(cmd: &str, how: u8) -> String {
    match how % 3 {
        0 => format!("'{}'", cmd.replace('\'', "'\\''")),
        1 => format!("\"{}\"", cmd.replace('"', "\\\"")),
        _ => format!("$'{}'", cmd.replace('\'', "\\'")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_denied_command_in_an_option_value_or_a_variable_is_never_allowed(
        carrier in prop::sample::select(CARRIERS),
        (command, rule) in denied_command(),
        how in 0u8..3,
        mode in prop::sample::select(PermissionMode::ALL.to_vec()),
        allow_all in any::<bool>(),
    ) {
        let p = Project::new().expect("project");
        let mut rules = vec![("deny", rule.as_str())];
        if allow_all {
            rules.push(("allow", "Bash"));
            rules.push(("allow", "Bash(*)"));
        }
        let ctx = p.ctx(&rules, mode);
        let text = carrier.replace("{}", &quoted(&command, how));
        let answer = bash(&ctx, &text);
        prop_assert_ne!(answer.decision, DecisionBehavior::Allow, "{} in {:?}: {}", text, mode, answer.reason);
        // A literal command is seen for what it is: the deny rule decides.
        prop_assert_eq!(answer.decision, DecisionBehavior::Deny, "{} in {:?}: {}", text, mode, answer.reason);
    }
}
