//! The details Tandem stored before they were typed (plain JSON objects, some without a `type`), read into the
//! typed form so that sessions saved then still show their diffs and facts when reopened.

use serde::Deserialize;
use serde_json::Value;

use super::{DiffHunk, NotebookCellChange, ReadContent, TaskStatus, ToolDetail};
use crate::FileDiff;

/// `{"type": "patch", ...}` from Edit and Write.
#[derive(Deserialize)]
struct Patch {
    path: String,
    created: bool,
    replacements: Option<u32>,
    #[serde(default)]
    hunks: Vec<DiffHunk>,
    diff: Option<FileDiff>,
}

/// `{"type": "notebook_edit", ...}` from NotebookEdit.
#[derive(Deserialize)]
struct NotebookEdit {
    path: String,
    summary: String,
    cell_id: Option<String>,
    diff: Option<FileDiff>,
}

/// `{"exit_code", "cwd", "cwd_reset"}` from a foreground Bash run.
#[derive(Deserialize)]
struct Shell {
    exit_code: Option<u32>,
    cwd: String,
    #[serde(default)]
    cwd_reset: bool,
}

/// `{"background_task_id", "log"}` from a Bash run started in the background.
#[derive(Deserialize)]
struct Started {
    background_task_id: String,
    log: String,
}

/// `{"task_id", "command", "running", "exit_code"}` from TaskOutput.
#[derive(Deserialize)]
struct TaskOutput {
    task_id: String,
    command: String,
    running: bool,
    exit_code: Option<u32>,
}

/// `{"type": "files", ...}` from Glob.
#[derive(Deserialize)]
struct Files {
    files: Vec<String>,
    total: u64,
    truncated: bool,
}

/// `{"type": "search", ...}` from Grep.
#[derive(Deserialize)]
struct Search {
    files: u64,
    matches: u64,
    shown: u64,
    truncated: bool,
}

fn read<T: for<'de> Deserialize<'de>>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

/// The typed form of a detail stored by an older Tandem, if `value` is one.
pub(super) fn upgrade(value: &Value) -> Option<ToolDetail> {
    let tag = value.get("type").and_then(Value::as_str);
    match tag {
        Some("patch") => read::<Patch>(value).map(|p| ToolDetail::FileChange {
            path: p.path,
            created: p.created,
            replacements: p.replacements,
            hunks: p.hunks,
            diff: p.diff,
            cell: None,
            changed_by: None,
            revised: None,
            diagnostics: None,
        }),
        Some("notebook_edit") => read::<NotebookEdit>(value).map(|n| ToolDetail::FileChange {
            path: n.path,
            created: false,
            replacements: None,
            hunks: Vec::new(),
            diff: n.diff,
            cell: Some(NotebookCellChange {
                cell_id: n.cell_id,
                summary: n.summary,
            }),
            changed_by: None,
            revised: None,
            diagnostics: None,
        }),
        Some("files") => read::<Files>(value).map(|f| ToolDetail::FileList {
            files: f.files,
            total: f.total,
            truncated: f.truncated,
        }),
        Some("search") => read::<Search>(value).map(|s| ToolDetail::Search {
            files: s.files,
            matches: s.matches,
            shown: s.shown,
            truncated: s.truncated,
        }),
        Some("text" | "image" | "notebook" | "pdf") => {
            let path = value.get("path")?.as_str()?.to_string();
            let mut content = value.clone();
            let object = content.as_object_mut()?;
            object.remove("path");
            let format = object.remove("type")?;
            object.insert("format".into(), format);
            let content = read::<ReadContent>(&content)?;
            Some(ToolDetail::Read { path, content })
        }
        Some(_) => None,
        None => untagged(value),
    }
}

/// The Bash and TaskOutput details, which had no `type`.
fn untagged(value: &Value) -> Option<ToolDetail> {
    if let Some(s) = read::<Started>(value) {
        return Some(ToolDetail::BackgroundTask {
            task_id: s.background_task_id,
            command: String::new(),
            log: s.log,
            status: TaskStatus::Running,
            exit_code: None,
        });
    }
    if let Some(t) = read::<TaskOutput>(value) {
        let status = if t.running {
            TaskStatus::Running
        } else {
            TaskStatus::Exited
        };
        return Some(ToolDetail::BackgroundTask {
            task_id: t.task_id,
            command: t.command,
            log: String::new(),
            status,
            exit_code: t.exit_code,
        });
    }
    read::<Shell>(value).map(|s| ToolDetail::Shell {
        exit_code: s.exit_code,
        cwd: s.cwd,
        cwd_reset: s.cwd_reset,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn detail(value: Value) -> ToolDetail {
        serde_json::from_value(value).expect("a detail always reads")
    }

    #[test]
    fn an_old_edit_patch_reads_as_a_file_change_with_its_diff() {
        let old = json!({
            "type": "patch", "path": "/p/a.rs", "created": false, "replacements": 2,
            "hunks": [{"old_start": 1, "old_lines": 1, "new_start": 1, "new_lines": 1, "lines": ["-a", "+b"]}],
            "diff": {"path": "/p/a.rs", "old_text": "a\n", "new_text": "b\n", "is_new_file": false},
        });
        let ToolDetail::FileChange {
            path,
            replacements,
            hunks,
            diff,
            cell,
            ..
        } = detail(old)
        else {
            panic!("not a file change");
        };
        assert_eq!(path, "/p/a.rs");
        assert_eq!(replacements, Some(2));
        assert_eq!(hunks[0].lines, ["-a", "+b"]);
        assert_eq!(diff.expect("diff").new_text, "b\n");
        assert_eq!(cell, None);
    }

    #[test]
    fn an_old_write_without_diff_reads_with_none() {
        let old =
            json!({"type": "patch", "path": "/p/big", "created": true, "hunks": [], "diff": null});
        assert!(matches!(
            detail(old),
            ToolDetail::FileChange {
                created: true,
                diff: None,
                replacements: None,
                ..
            }
        ));
    }

    #[test]
    fn an_old_notebook_edit_keeps_its_cell() {
        let old = json!({
            "type": "notebook_edit", "path": "/p/n.ipynb", "summary": "Replaced cell c1",
            "cell_id": "c1", "new_source": "x", "diff": null,
        });
        let ToolDetail::FileChange { cell, .. } = detail(old) else {
            panic!("not a file change");
        };
        assert_eq!(
            cell,
            Some(NotebookCellChange {
                cell_id: Some("c1".into()),
                summary: "Replaced cell c1".into()
            })
        );
    }

    #[test]
    fn old_reads_keep_their_format() {
        let text =
            json!({"type": "text", "path": "/p/a", "start_line": 3, "lines": 4, "total_lines": 9});
        assert_eq!(
            detail(text),
            ToolDetail::Read {
                path: "/p/a".into(),
                content: ReadContent::Text {
                    start_line: 3,
                    lines: 4,
                    total_lines: 9
                },
            }
        );
        let image = json!({
            "type": "image", "path": "/p/i.png", "media_type": "image/png",
            "original_size": [800, 600], "size": [400, 300], "bytes": 1234,
        });
        assert!(matches!(
            detail(image),
            ToolDetail::Read {
                content: ReadContent::Image {
                    size: [400, 300],
                    ..
                },
                ..
            }
        ));
        let pdf = json!({"type": "pdf", "path": "/p/d.pdf", "pages": [1, 2], "page_count": 7});
        assert!(matches!(
            detail(pdf),
            ToolDetail::Read {
                content: ReadContent::Pdf { page_count: 7, .. },
                ..
            }
        ));
        let notebook = json!({"type": "notebook", "path": "/p/n.ipynb", "cells": 5});
        assert!(matches!(
            detail(notebook),
            ToolDetail::Read {
                content: ReadContent::Notebook { cells: 5 },
                ..
            }
        ));
    }

    #[test]
    fn old_searches_read_as_file_lists_and_searches() {
        let glob = json!({"type": "files", "files": ["a", "b"], "total": 2, "truncated": false});
        assert!(matches!(
            detail(glob),
            ToolDetail::FileList { total: 2, .. }
        ));
        let grep =
            json!({"type": "search", "files": 1, "matches": 3, "shown": 3, "truncated": false});
        assert!(matches!(
            detail(grep),
            ToolDetail::Search { matches: 3, .. }
        ));
    }

    #[test]
    fn old_untagged_shell_details_are_recognised() {
        let run = json!({"exit_code": 0, "cwd": "/p", "cwd_reset": false});
        assert_eq!(
            detail(run),
            ToolDetail::Shell {
                exit_code: Some(0),
                cwd: "/p".into(),
                cwd_reset: false
            }
        );
        let started = json!({"background_task_id": "shell_1", "log": "/tmp/shell_1.log"});
        assert!(matches!(
            detail(started),
            ToolDetail::BackgroundTask { status: TaskStatus::Running, ref task_id, .. } if task_id == "shell_1"
        ));
        let output =
            json!({"task_id": "shell_1", "command": "sleep 1", "running": false, "exit_code": 0});
        assert!(matches!(
            detail(output),
            ToolDetail::BackgroundTask {
                status: TaskStatus::Exited,
                exit_code: Some(0),
                ..
            }
        ));
    }

    #[test]
    fn something_else_stays_as_it_was() {
        let data = json!({"lines": 1});
        assert_eq!(detail(data.clone()), ToolDetail::Other { data });
    }
}
