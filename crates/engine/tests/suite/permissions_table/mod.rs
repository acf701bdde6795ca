//! The permission tables: every row of `tests/tables/permissions.txt` (its syntax is at its top) and of
//! `tests/tables/attacks.txt` (commands built to slip past the checks, same syntax) checked against `check_call`,
//! each section in a fresh project. Every failing row is reported with its table and line number.

mod table;

use std::path::PathBuf;

use regex::Regex;
use serde_json::{Value, json};
use tandem_engine::permission::CheckAnswer;
use tandem_engine::testing::{Project, check};
use tandem_protocol::PermissionMode;

use table::{Case, Setup};

const TABLES: &[(&str, &str)] = &[
    (
        "permissions.txt",
        include_str!("../../tables/permissions.txt"),
    ),
    ("attacks.txt", include_str!("../../tables/attacks.txt")),
];

/// Replaces the placeholders of the table's syntax.
struct Placeholders<'a> {
    project: &'a Project,
    repeat: Regex,
}

impl<'a> Placeholders<'a> {
    fn new(project: &'a Project) -> Self {
        let repeat = Regex::new(r"\{repeat:(\d+):([^}]*)\}").expect("regex");
        Self { project, repeat }
    }

    fn expand(&self, text: &str) -> String {
        let text = text
            .replace("{root}", &self.project.root.display().to_string())
            .replace("{home}", &self.project.home.display().to_string())
            .replace("{outside}", &self.project.outside.display().to_string());
        self.repeat
            .replace_all(&text, |c: &regex::Captures<'_>| {
                c[2].repeat(c[1].parse().expect("a count"))
            })
            .into_owned()
    }

    fn path(&self, text: &str) -> PathBuf {
        let text = self.expand(text);
        if text.starts_with('/') {
            PathBuf::from(text)
        } else {
            self.project.root.join(text)
        }
    }
}

fn set_up(places: &Placeholders<'_>, setup: &Setup) {
    match setup {
        Setup::File { path, content } => {
            let path = places.path(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, content).expect("write");
        }
        Setup::Dir(path) => std::fs::create_dir_all(places.path(path)).expect("mkdir"),
        Setup::Link { path, target } => {
            std::os::unix::fs::symlink(places.path(target), places.path(path)).expect("symlink")
        }
    }
}

/// The tool input a row stands for.
fn input(case: &Case, text: &str) -> Result<Value, String> {
    let json_like = text == "{}" || text.starts_with("{\"");
    Ok(match case.tool.as_str() {
        "Bash" => json!({ "command": text }),
        _ if json_like => serde_json::from_str(text).map_err(|e| format!("bad JSON input: {e}"))?,
        "Read" => json!({ "file_path": text }),
        "Edit" => json!({ "file_path": text, "old_string": "a", "new_string": "b" }),
        "Write" => json!({ "file_path": text, "content": "x" }),
        "WebFetch" => json!({ "url": text, "prompt": "x" }),
        other => return Err(format!("{other} takes its input as JSON")),
    })
}

/// What is wrong with `answer` for `case`, if anything.
fn mismatch(case: &Case, answer: &CheckAnswer) -> Option<String> {
    let expect = &case.expect;
    let mut wrong = Vec::new();
    if answer.decision != expect.decision {
        wrong.push(format!("answered {:?}", answer.decision));
    }
    if answer.reason.is_empty() {
        wrong.push("gave no reason".to_string());
    }
    if let Some(rule) = &expect.rule
        && answer.rule.as_deref() != Some(rule.as_str())
    {
        wrong.push(format!("decided by rule {:?}", answer.rule));
    }
    if let Some(source) = &expect.source_has
        && !answer.source.as_deref().is_some_and(|s| s.contains(source))
    {
        wrong.push(format!("rule source {:?}", answer.source));
    }
    if let Some(reason) = &expect.reason_has
        && !answer.reason.contains(reason.as_str())
    {
        wrong.push("has another reason".to_string());
    }
    (!wrong.is_empty()).then(|| format!("{} ({})", wrong.join(", "), answer.reason))
}

/// Checks every row of one table; the failures, each with its line.
fn run_table(name: &str, text: &str) -> (usize, Vec<String>) {
    let sections = match table::parse(text) {
        Ok(sections) => sections,
        Err(errors) => panic!("{name} does not parse:\n{}", errors.join("\n")),
    };
    let mut failures = Vec::new();
    let mut rows = 0;
    for section in &sections {
        let project = Project::new().expect("project");
        let places = Placeholders::new(&project);
        for setup in &section.setup {
            set_up(&places, setup);
        }
        for case in &section.cases {
            rows += 1;
            let rules: Vec<(String, String)> = case
                .rules
                .iter()
                .map(|(b, r)| (b.to_string(), places.expand(r)))
                .collect();
            let rules: Vec<(&str, &str)> = rules
                .iter()
                .map(|(b, r)| (b.as_str(), r.as_str()))
                .collect();
            let ctx = project.ctx(&rules, case.mode);
            let verdict = input(case, &places.expand(&case.input))
                .map(|input| check(&ctx, &case.tool, input))
                .map(|answer| mismatch(case, &answer));
            match verdict {
                Ok(None) => {}
                Ok(Some(why)) | Err(why) => failures.push(format!(
                    "{name} line {}: {}\n    {why}",
                    case.line, case.text
                )),
            }
        }
    }
    (rows, failures)
}

#[test]
fn every_row_of_the_permission_tables() {
    for (name, text) in TABLES {
        let (rows, failures) = run_table(name, text);
        assert!(rows > 0, "{name} has no rows");
        assert!(
            failures.is_empty(),
            "{} of {rows} rows of tests/tables/{name} fail:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

#[test]
fn a_deny_of_a_whole_tool_hides_it_and_a_narrower_deny_does_not() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[("deny", "WebFetch")], PermissionMode::Default);
    assert!(ctx.rules.hides("WebFetch"));
    let ctx = p.ctx(&[("deny", "WebFetch(domain:*)")], PermissionMode::Default);
    assert!(!ctx.rules.hides("WebFetch"));
}
