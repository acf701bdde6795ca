//! The screen of a Tungsten terminal as the model reads it: a heading (id, command, size, whether the program still
//! runs, where the cursor is) and the rows, numbered from 1, without the empty rows at the bottom.

use super::terminal::{Snapshot, describe_exit};

/// The screen of terminal `id` running `command`, after `note` (why a wait ended, when it says something).
pub fn render(id: &str, command: &str, snapshot: &Snapshot, note: Option<&str>) -> String {
    let (rows, cols) = snapshot.size;
    let (row, col) = snapshot.cursor;
    let status = match &snapshot.exit {
        None => "running".to_string(),
        Some(exit) => format!("the program has exited ({})", describe_exit(exit)),
    };
    let alternate = if snapshot.alternate {
        ", full-screen (alternate screen)"
    } else {
        ""
    };
    let mut text = String::new();
    if let Some(note) = note {
        text.push_str(note);
        text.push('\n');
    }
    text.push_str(&format!(
        "Terminal {id} (`{command}`), {rows}x{cols}{alternate}, {status}; cursor at row {row}, column {col}.\n"
    ));
    let used = snapshot
        .rows
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(0, |i| i + 1);
    let width = rows.to_string().len();
    for (i, line) in snapshot.rows.iter().take(used).enumerate() {
        text.push_str(&format!("{:>width$}│{line}\n", i + 1));
    }
    if used < snapshot.rows.len() {
        let first = used + 1;
        if first == snapshot.rows.len() {
            text.push_str(&format!("(row {first} is empty)\n"));
        } else {
            text.push_str(&format!(
                "(rows {first}-{} are empty)\n",
                snapshot.rows.len()
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::bash::Exit;

    #[test]
    fn rows_are_numbered_and_the_empty_bottom_is_summed_up() {
        let snapshot = Snapshot {
            rows: vec![">>> 1+41".into(), "42".into(), ">>>".into(), String::new()],
            cursor: (3, 5),
            size: (4, 20),
            alternate: false,
            exit: None,
        };
        let text = render("t1", "python3 -q", &snapshot, None);
        assert_eq!(
            text,
            "Terminal t1 (`python3 -q`), 4x20, running; cursor at row 3, column 5.\n\
             1│>>> 1+41\n2│42\n3│>>>\n(row 4 is empty)\n"
        );
        let ended = Snapshot {
            exit: Some(Exit::Code(0)),
            rows: vec![String::new(); 3],
            ..snapshot
        };
        let text = render("t2", "true", &ended, Some("note"));
        assert!(text.starts_with("note\n"), "{text}");
        assert!(text.contains("exited (exit code 0)"), "{text}");
        assert!(text.contains("(rows 1-3 are empty)"), "{text}");
    }
}
