//! What the command line prints on a terminal: model text with its terminal control sequences removed, so that a
//! model cannot move the cursor, retitle the window or write the clipboard (OSC 52) of the person's terminal.

use std::io::IsTerminal;

/// `text` as it may be printed on standard output: unchanged when stdout is not a terminal (a pipe or a file gets
/// the exact text), else without escape sequences and control characters other than newline and tab.
pub fn for_stdout(text: &str) -> String {
    if std::io::stdout().is_terminal() {
        sanitize(text)
    } else {
        text.to_string()
    }
}

/// `text` without terminal escape sequences (CSI, OSC, …) and without other control characters but `\n` and `\t`.
pub fn sanitize(text: &str) -> String {
    // The stripper drops tabs too: strip between them.
    text.split('\t')
        .map(|piece| {
            strip_ansi_escapes::strip_str(piece)
                .chars()
                .filter(|c| !c.is_control() || *c == '\n')
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\t")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_control_characters_are_removed() {
        let clipboard = "before\x1b]52;c;ZWNobyBwd25lZA==\x07after";
        assert_eq!(sanitize(clipboard), "beforeafter");
        assert_eq!(sanitize("\x1b[2J\x1b[Hred \x1b[31mtext\x1b[0m"), "red text");
        assert_eq!(
            sanitize("bell\x07 and \x1b]0;title\x1b\\ back\rspace\x08"),
            "bell and  backspace"
        );
        assert_eq!(
            sanitize("keeps\ttabs\nand lines — ünïcode"),
            "keeps\ttabs\nand lines — ünïcode"
        );
    }
}
