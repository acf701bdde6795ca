//! Auto mode sets aside allow rules broad enough to let any code run (`Bash`, `Bash(*)`, `Bash(python3 *)`,
//! `Bash(sh:*)`, `Bash(npx *)`, …), so that those calls reach the classifier instead of running on the rule. The
//! rules stay written where they are; leaving auto mode brings them back.

use super::rule::{ParsedRule, RuleBehavior, Specifier};
use crate::shell::is_shell;
use crate::tool::names;

/// Programs (and program-plus-subcommand pairs) that run whatever code or command their arguments name: a rule
/// allowing any arguments to one of them allows anything. Shells count too ([`is_shell`]).
const CODE_RUNNERS: &[&str] = &[
    // interpreters
    "python",
    "pypy",
    "node",
    "nodejs",
    "deno",
    "bun",
    "tsx",
    "ts-node",
    "ruby",
    "irb",
    "perl",
    "php",
    "lua",
    "luajit",
    "rscript",
    "julia",
    "tclsh",
    "osascript",
    "pwsh",
    "powershell",
    // runners of other commands or packages
    "eval",
    "exec",
    "env",
    "xargs",
    "sudo",
    "doas",
    "su",
    "ssh",
    "nohup",
    "nice",
    "time",
    "timeout",
    "watch",
    "command",
    "builtin",
    "npx",
    "bunx",
    "pnpx",
    "uvx",
    "npm exec",
    "npm run",
    "yarn run",
    "yarn dlx",
    "pnpm run",
    "pnpm exec",
    "pnpm dlx",
    "bun run",
    "bun x",
    "uv run",
    "poetry run",
    "pipx run",
];

/// Why auto mode sets `rule` (an allow rule written as `text`) aside, or `None` when it stays in force.
pub fn set_aside_reason(text: &str, behavior: RuleBehavior, rule: &ParsedRule) -> Option<String> {
    if behavior != RuleBehavior::Allow || !rule.tool.matches(names::BASH) {
        return None;
    }
    let spec = match &rule.spec {
        Specifier::Any => {
            return Some("it allows every command; in auto mode the classifier judges them".into());
        }
        Specifier::Bash(_) => specifier(text)?,
        _ => return None,
    };
    let spec = spec.to_ascii_lowercase();
    if spec.starts_with('*') {
        return Some(
            "it allows any program to run; in auto mode the classifier judges these commands"
                .into(),
        );
    }
    let first = spec.split([' ', '*']).next().unwrap_or_default();
    let shell = is_shell(first).then_some(first);
    let runner = shell
        .into_iter()
        .chain(CODE_RUNNERS.iter().copied())
        .find(|runner| runs_anything(&spec, runner))?;
    Some(format!(
        "`{runner}` with any arguments runs any code; in auto mode the classifier judges these commands"
    ))
}

/// The specifier as written (`python3 *` of `Bash(python3 *)`), with the legacy `:*` read as ` *`.
fn specifier(text: &str) -> Option<String> {
    let open = text.find('(')?;
    let inner = text[open + 1..].trim().strip_suffix(')')?.trim();
    Some(match inner.strip_suffix(":*") {
        Some(head) => format!("{} *", head.trim_end()),
        None => inner.to_string(),
    })
}

/// Whether the Bash pattern `spec` (lower case) lets `runner` run with any arguments: the runner alone, or followed
/// by a wildcard, or by options and then a wildcard (`python3 -u *`). A version suffix counts as the same runner
/// (`python3.12 *`).
fn runs_anything(spec: &str, runner: &str) -> bool {
    let Some(rest) = spec.strip_prefix(runner) else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if rest.is_empty() || rest == "*" || rest == " *" {
        return true;
    }
    let Some(args) = rest.strip_prefix(' ') else {
        return false;
    };
    // Options, then a wildcard: the wildcard still reaches the code or command the runner is given.
    args.ends_with('*')
        && args
            .trim_end_matches('*')
            .split_whitespace()
            .all(|word| word.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::super::rule::parse_rule;
    use super::*;

    fn reason(text: &str) -> Option<String> {
        let parsed = parse_rule(text, RuleBehavior::Allow).expect("a valid rule");
        set_aside_reason(text, RuleBehavior::Allow, &parsed)
    }

    #[test]
    fn rules_that_let_any_code_run_are_set_aside() {
        let set_aside = [
            "Bash",
            "Bash()",
            "Bash(*)",
            "Bash(python3 *)",
            "Bash(python:*)",
            "Bash(python3.12 *)",
            "Bash(python3)",
            "Bash(python3 -u *)",
            "Bash(node *)",
            "Bash(bash:*)",
            "Bash(sh *)",
            "Bash(zsh*)",
            "Bash(npx *)",
            "Bash(npm run *)",
            "Bash(env *)",
            "Bash(xargs *)",
            "Bash(sudo *)",
            "Bash(ssh *)",
            "Bash(eval *)",
            "Bash(* --version)",
            "Bash(PYTHON3 *)",
        ];
        for rule in set_aside {
            assert!(reason(rule).is_some(), "{rule} should be set aside");
        }
    }

    #[test]
    fn narrow_rules_stay() {
        let kept = [
            "Bash(npm test *)",
            "Bash(python3 manage.py test *)",
            "Bash(git status)",
            "Bash(pythonic *)",
            "Bash(shellcheck *)",
            "Bash(node --version)",
            "Bash(envsubst *)",
            "Bash(makepkg)",
            "Read",
            "Edit(src/**)",
            "WebFetch",
            "mcp__server",
        ];
        for rule in kept {
            assert_eq!(reason(rule), None, "{rule} should stay in force");
        }
    }

    #[test]
    fn deny_and_ask_rules_are_never_set_aside() {
        for behavior in [RuleBehavior::Deny, RuleBehavior::Ask] {
            let parsed = parse_rule("Bash(python3 *)", behavior).expect("valid");
            assert_eq!(set_aside_reason("Bash(python3 *)", behavior, &parsed), None);
        }
    }
}
