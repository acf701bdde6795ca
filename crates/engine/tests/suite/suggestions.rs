//! "Yes, and don't ask again" offers the narrowest useful rule: each suggestion, once saved, lets the command run
//! and still leaves its dangerous neighbours asking; some commands get no reusable rule at all.

use serde_json::json;
use tandem_engine::permission::{CallView, PermissionSubject, evaluate};
use tandem_engine::testing::{Project, check_bash};
use tandem_protocol::{DecisionBehavior, PermissionMode};

/// (command, the rules offered, neighbours that must still ask once those rules are saved)
const CASES: &[(&str, &[&str], &[&str])] = &[
    ("rm -rf build dist", &[], &[]),
    ("sudo apt install jq", &[], &[]),
    ("xargs -n1 echo < list.txt", &[], &[]),
    (
        "python3 -m unittest discover -s tests",
        &["Bash(python3 -m unittest *)"],
        &[
            "python3 -c 'import os; os.remove(\"x\")'",
            "python3 evil.py",
            "python3 -m http.server",
        ],
    ),
    ("python3 build.py", &[], &[]),
    ("node -e 'require(\"fs\").rmSync(\"x\")'", &[], &[]),
    (
        "sleep 20 && echo built",
        &["Bash(sleep 20)"],
        &["sleep 20 && rm -rf x", "sleep 3600"],
    ),
    (
        "npm run test -- --watch",
        &["Bash(npm run test *)"],
        &["npm run build", "npm publish", "npm install left-pad"],
    ),
    (
        "git commit -m 'fix the parser'",
        &["Bash(git commit *)"],
        &["git push --force origin main", "git reset --hard HEAD~3"],
    ),
    (
        "git push origin main",
        &["Bash(git push origin main)"],
        &[
            "git push --force origin main",
            "git push origin main --delete",
        ],
    ),
    (
        "git reset --hard HEAD~1",
        &["Bash(git reset --hard HEAD~1)"],
        &["git reset --hard HEAD~5"],
    ),
    (
        "cargo build --release",
        &["Bash(cargo build *)"],
        &["cargo publish", "cargo install ripgrep"],
    ),
    (
        "make test && ./scripts/deploy.sh",
        &["Bash(make test *)", "Bash(./scripts/deploy.sh)"],
        &["make clean", "./scripts/deploy.sh --prod"],
    ),
];

#[test]
fn suggestions_are_narrow_and_leave_dangerous_neighbours_asking() {
    let p = Project::new().expect("project");
    let empty = p.ctx(&[], PermissionMode::Default);
    let mut failures = Vec::new();
    for (command, want, neighbours) in CASES {
        let input = json!({ "command": command });
        let subject = PermissionSubject::Shell {
            command: command.to_string(),
        };
        let eval = evaluate(
            &empty,
            &CallView {
                tool_name: "Bash",
                input: &input,
                subject: &subject,
                read_only: false,
            },
        );
        if eval.behavior() != DecisionBehavior::Ask {
            failures.push(format!("{command}: asks first, got {:?}", eval.behavior()));
            continue;
        }
        if eval.suggestions != *want {
            failures.push(format!(
                "{command}: offered {:?}, want {want:?}",
                eval.suggestions
            ));
            continue;
        }
        let rules: Vec<(&str, &str)> = want.iter().map(|r| ("allow", *r)).collect();
        let saved = p.ctx(&rules, PermissionMode::Default);
        if !want.is_empty() {
            let again = check_bash(&saved, command);
            if again.decision != DecisionBehavior::Allow {
                failures.push(format!(
                    "{command}: still {:?} after saving {want:?}",
                    again.decision
                ));
            }
        }
        for neighbour in *neighbours {
            let answer = check_bash(&saved, neighbour);
            if answer.decision == DecisionBehavior::Allow {
                failures.push(format!(
                    "{command}: saving {want:?} also allows `{neighbour}`"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
