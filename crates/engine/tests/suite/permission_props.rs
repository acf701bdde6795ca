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
