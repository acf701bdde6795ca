//! Workflow files: `.claude/workflows/<name>.yaml` (or `.yml`, `.json`) in the project, then in the person's home
//! (the project's wins). A workflow has a description, named inputs (with defaults, or required) and steps run in
//! order; a step is a shell command (`run`) or any tool with its input (`tool`, `input`). `{{name}}` in a step's
//! text is replaced by the input's value.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use yaml_rust2::YamlLoader;

use crate::tool::names;

/// Where workflows are kept, below a project or the home folder.
pub const WORKFLOWS_DIR: &str = ".claude/workflows";
/// File endings read as workflows.
const EXTENSIONS: &[&str] = &["yaml", "yml", "json"];
/// A workflow file larger than this is refused.
const MAX_FILE_BYTES: u64 = 256 * 1024;

/// One workflow as its file says it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    /// What it does (shown to the model in the tool's description).
    #[serde(default)]
    pub description: String,
    /// Its inputs by name.
    #[serde(default)]
    pub inputs: BTreeMap<String, InputSpec>,
    pub steps: Vec<Step>,
}

/// One input of a workflow.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    #[serde(default)]
    pub description: String,
    /// The value when the call gives none; without one, the input is required.
    pub default: Option<String>,
}

/// One step: a shell command or a tool call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The step's name (shown in the result and the window); `step N` when absent.
    pub name: Option<String>,
    /// A shell command (a Bash call).
    pub run: Option<String>,
    /// A tool to call, with `input`.
    pub tool: Option<String>,
    /// The tool's input object.
    pub input: Option<Value>,
    /// Milliseconds a `run` step may take (Bash's `timeout`).
    pub timeout: Option<u64>,
    /// The workflow goes on after this step fails.
    #[serde(default)]
    pub continue_on_error: bool,
}

/// A step ready to run: its name, the tool and the input with the workflow's inputs filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedStep {
    pub name: String,
    pub tool: String,
    pub input: Value,
    pub continue_on_error: bool,
}

/// A workflow file found on disk.
#[derive(Debug, Clone)]
pub struct Found {
    pub name: String,
    pub path: PathBuf,
}

/// The workflows of `project` and `home` by name (the project's first), each with its file.
pub fn list(project: &Path, home: Option<&Path>) -> Vec<Found> {
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    for root in home.into_iter().chain(std::iter::once(project)) {
        let Ok(entries) = std::fs::read_dir(root.join(WORKFLOWS_DIR)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let (Some(stem), Some(ext)) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            if EXTENSIONS.contains(&ext) && valid_name(stem) && path.is_file() {
                // The project is read last, so its file replaces the home folder's.
                found.insert(stem.to_string(), path);
            }
        }
    }
    found
        .into_iter()
        .map(|(name, path)| Found { name, path })
        .collect()
}

/// Whether `name` can name a workflow: letters, digits, `-`, `_` and `.` (not first).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Reads and checks the workflow file at `path`. `Err` says what is wrong, naming the file.
pub fn load(path: &Path) -> Result<Workflow, String> {
    let shown = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{shown}: {e}"))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{shown} is {size} bytes; a workflow file may have at most {MAX_FILE_BYTES}"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    parse(&text).map_err(|why| format!("{shown}: {why}"))
}

/// Reads a workflow from YAML (or JSON) text and checks its steps.
pub fn parse(text: &str) -> Result<Workflow, String> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| format!("not valid YAML: {e}"))?;
    let [doc] = docs.as_slice() else {
        return Err("a workflow file holds exactly one YAML document".into());
    };
    let workflow: Workflow = serde_json::from_value(crate::frontmatter::to_json(doc))
        .map_err(|e| format!("not a workflow: {e}"))?;
    if workflow.steps.is_empty() {
        return Err("it has no steps".into());
    }
    for (n, step) in workflow.steps.iter().enumerate() {
        let label = step_label(step, n);
        match (&step.run, &step.tool) {
            (Some(_), Some(_)) => {
                return Err(format!("{label} has both `run` and `tool`; give one"));
            }
            (None, None) => {
                return Err(format!("{label} needs `run` (a command) or `tool`"));
            }
            (Some(_), None) if step.input.is_some() => {
                return Err(format!("{label}: `input` goes with `tool`, not `run`"));
            }
            (None, Some(tool)) if tool == names::WORKFLOW => {
                return Err(format!("{label}: a workflow cannot run a workflow"));
            }
            (None, Some(_)) if !matches!(step.input, None | Some(Value::Object(_))) => {
                return Err(format!("{label}: `input` must be a mapping"));
            }
            (None, Some(_)) if step.timeout.is_some() => {
                return Err(format!(
                    "{label}: `timeout` goes with `run`; put a tool's own timeout in its `input`"
                ));
            }
            _ => {}
        }
    }
    Ok(workflow)
}

fn step_label(step: &Step, n: usize) -> String {
    match &step.name {
        Some(name) => format!("step {} ({name})", n + 1),
        None => format!("step {}", n + 1),
    }
}

impl Workflow {
    /// The steps with `given` inputs filled in (defaults for those not given). `Err`: an input is missing or unknown.
    pub fn plan(&self, given: &BTreeMap<String, String>) -> Result<Vec<PlannedStep>, String> {
        if let Some(unknown) = given.keys().find(|k| !self.inputs.contains_key(*k)) {
            return Err(format!(
                "the workflow has no input `{unknown}` (its inputs: {})",
                self.input_names()
            ));
        }
        let mut values = BTreeMap::new();
        for (name, spec) in &self.inputs {
            match given.get(name).or(spec.default.as_ref()) {
                Some(value) => {
                    values.insert(name.clone(), value.clone());
                }
                None => return Err(format!("the workflow needs the input `{name}`")),
            }
        }
        Ok(self
            .steps
            .iter()
            .enumerate()
            .map(|(n, step)| {
                let (tool, input) = match (&step.run, &step.tool) {
                    (Some(command), _) => {
                        let mut input = serde_json::json!({ "command": fill(command, &values) });
                        if let Some(ms) = step.timeout {
                            input["timeout"] = ms.into();
                        }
                        (names::BASH.to_string(), input)
                    }
                    (None, tool) => (
                        tool.clone().unwrap_or_default(),
                        fill_value(
                            step.input
                                .clone()
                                .unwrap_or_else(|| Value::Object(Default::default())),
                            &values,
                        ),
                    ),
                };
                PlannedStep {
                    name: step
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("step {}", n + 1)),
                    tool,
                    input,
                    continue_on_error: step.continue_on_error,
                }
            })
            .collect())
    }

    /// The inputs' names, for messages.
    pub fn input_names(&self) -> String {
        if self.inputs.is_empty() {
            return "none".into();
        }
        self.inputs.keys().cloned().collect::<Vec<_>>().join(", ")
    }
}

/// `text` with each `{{name}}` (spaces allowed inside the braces) replaced by that input's value; other text stays.
fn fill(text: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) if values.contains_key(after[..end].trim()) => {
                out.push_str(&values[after[..end].trim()]);
                rest = &after[end + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn fill_value(value: Value, values: &BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) => Value::String(fill(&s, values)),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| fill_value(v, values)).collect())
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, fill_value(v, values)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn given(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn steps_are_planned_with_inputs_filled_in() {
        let workflow = parse(
            "description: Checks\ninputs:\n  pkg:\n    default: core\n  level: {}\nsteps:\n  - name: test\n    run: cargo test -p {{ pkg }} -- {{level}}\n    timeout: 5000\n  - tool: Read\n    input: { file_path: \"{{pkg}}/README.md\", limit: 3 }\n    continue_on_error: true\n",
        )
        .expect("parse");
        assert_eq!(
            workflow.plan(&given(&[])).expect_err("level is required"),
            "the workflow needs the input `level`"
        );
        let steps = workflow.plan(&given(&[("level", "x{{y}}")])).expect("plan");
        assert_eq!(
            steps,
            vec![
                PlannedStep {
                    name: "test".into(),
                    tool: "Bash".into(),
                    input: json!({"command": "cargo test -p core -- x{{y}}", "timeout": 5000}),
                    continue_on_error: false,
                },
                PlannedStep {
                    name: "step 2".into(),
                    tool: "Read".into(),
                    input: json!({"file_path": "core/README.md", "limit": 3}),
                    continue_on_error: true,
                },
            ]
        );
        assert!(
            workflow
                .plan(&given(&[("level", "1"), ("other", "2")]))
                .expect_err("unknown input")
                .contains("no input `other`")
        );
    }

    #[test]
    fn broken_workflows_say_what_is_wrong() {
        for (text, expected) in [
            ("steps: [", "not valid YAML"),
            ("description: x\n", "not a workflow"),
            ("steps: []\n", "no steps"),
            ("steps:\n  - name: a\n", "step 1 (a) needs `run`"),
            (
                "steps:\n  - run: ls\n    tool: Read\n",
                "both `run` and `tool`",
            ),
            ("steps:\n  - tool: Workflow\n", "cannot run a workflow"),
            (
                "steps:\n  - tool: Read\n    input: [1]\n",
                "must be a mapping",
            ),
            (
                "steps:\n  - run: ls\n    input: {a: 1}\n",
                "goes with `tool`",
            ),
            (
                "steps:\n  - run: ls\n    retries: 3\n",
                "unknown field `retries`",
            ),
            (
                "steps:\n  - run: ls\n---\nsteps: []\n",
                "exactly one YAML document",
            ),
        ] {
            let why = parse(text).expect_err(text);
            assert!(why.contains(expected), "{text:?}: {why}");
        }
    }

    #[test]
    fn the_project_s_workflow_replaces_the_home_folder_s() {
        let project = tempfile::tempdir().expect("tempdir");
        let home = tempfile::tempdir().expect("tempdir");
        for (root, name) in [
            (home.path(), "check.yaml"),
            (home.path(), "deploy.yml"),
            (project.path(), "check.json"),
            (project.path(), ".hidden.yaml"),
            (project.path(), "notes.txt"),
        ] {
            let dir = root.join(WORKFLOWS_DIR);
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(dir.join(name), "steps: [{run: ls}]").expect("write");
        }
        let found = list(project.path(), Some(home.path()));
        let names: Vec<(&str, bool)> = found
            .iter()
            .map(|f| (f.name.as_str(), f.path.starts_with(project.path())))
            .collect();
        assert_eq!(names, [("check", true), ("deploy", false)]);
    }
}
