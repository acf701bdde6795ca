//! What TerminalCapture gives the model: a heading (the shell, the size, what runs in it, where the cursor is) and
//! the panel's text exactly as it shows, escapes interpreted, without the empty rows below the last written one.

use crate::tools::tungsten::terminal::{Snapshot, describe_exit};

/// What the panel's lines are: the visible screen, or the last lines of scrollback and screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Screen,
    Last { asked: usize },
}

/// The model's text for the panel running `shell`, whose screen is `snapshot`, what runs in its foreground
/// `running`, and the `lines` shown.
pub fn render(
    shell: &str,
    snapshot: &Snapshot,
    running: Option<&str>,
    shown: Shown,
    lines: &[String],
) -> String {
    let (rows, cols) = snapshot.size;
    let (row, col) = snapshot.cursor;
    let state = match (&snapshot.exit, running) {
        (Some(exit), _) => format!("the shell has exited ({})", describe_exit(exit)),
        (None, Some(program)) => format!("`{program}` is running in it"),
        (None, None) => "the shell waits at its prompt".to_string(),
    };
    let alternate = if snapshot.alternate {
        ", full-screen (alternate screen)"
    } else {
        ""
    };
    let mut text = format!(
        "The person's terminal panel (`{shell}`), {rows}x{cols}{alternate}: {state}; cursor at row {row}, column {col}.\n"
    );
    let used = lines
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(0, |i| i + 1);
    let lines = &lines[..used];
    match shown {
        Shown::Screen if lines.is_empty() => text.push_str("The screen is empty.\n"),
        Shown::Screen => text.push_str(&format!(
            "The visible screen (rows 1-{used} of {rows}; rows below are empty):\n"
        )),
        Shown::Last { .. } if lines.is_empty() => text.push_str("The terminal is empty.\n"),
        Shown::Last { asked } if lines.len() < asked => text.push_str(&format!(
            "All {} lines kept (scrollback, then the screen):\n",
            lines.len()
        )),
        Shown::Last { .. } => text.push_str(&format!(
            "The last {} lines (scrollback, then the screen):\n",
            lines.len()
        )),
    }
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::bash::Exit;

    fn snapshot(exit: Option<Exit>) -> Snapshot {
        Snapshot {
            rows: Vec::new(),
            cursor: (2, 3),
            size: (4, 20),
            alternate: false,
            exit,
        }
    }

    #[test]
    fn the_heading_says_what_runs_and_the_lines_follow_unchanged() {
        let lines: Vec<String> = vec!["$ ls".into(), "  a  b".into(), String::new()];
        let cases: &[(Option<Exit>, Option<&str>, Shown, &str)] = &[
            (
                None,
                None,
                Shown::Screen,
                "The person's terminal panel (`bash`), 4x20: the shell waits at its prompt; cursor at row 2, \
                 column 3.\nThe visible screen (rows 1-2 of 4; rows below are empty):\n$ ls\n  a  b\n",
            ),
            (
                None,
                Some("vim"),
                Shown::Last { asked: 2 },
                "The person's terminal panel (`bash`), 4x20: `vim` is running in it; cursor at row 2, column 3.\n\
                 The last 2 lines (scrollback, then the screen):\n$ ls\n  a  b\n",
            ),
            (
                Some(Exit::Code(0)),
                None,
                Shown::Last { asked: 10 },
                "The person's terminal panel (`bash`), 4x20: the shell has exited (exit code 0); cursor at row 2, \
                 column 3.\nAll 2 lines kept (scrollback, then the screen):\n$ ls\n  a  b\n",
            ),
        ];
        for (exit, running, shown, want) in cases {
            let got = render("bash", &snapshot(exit.clone()), *running, *shown, &lines);
            assert_eq!(got, *want);
        }
        let empty = render(
            "bash",
            &snapshot(None),
            None,
            Shown::Screen,
            &[String::new()],
        );
        assert!(empty.ends_with("The screen is empty.\n"), "{empty}");
    }
}
