//! The script given to `bash -c`: the model's command with standard input emptied and, for foreground runs, the
//! final working directory written to a side file when the shell exits.

use std::path::Path;

/// Quotes `s` for the shell with single quotes.
pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The script for `command`. When `cwd_file` is given, the shell writes its physical working directory there on
/// exit (also after `exit N`; not when the command `exec`s another program). The prefix stays on one line so that
/// the command's own line numbers in error messages are off by one only.
pub fn wrap(command: &str, cwd_file: Option<&Path>) -> String {
    let mut script = String::new();
    if let Some(file) = cwd_file {
        script.push_str(&format!(
            "__tandem_cwd_file={}; trap 'pwd -P >| \"$__tandem_cwd_file\"' EXIT; ",
            quote(&file.to_string_lossy())
        ));
    }
    script.push_str("exec </dev/null\n");
    script.push_str(command);
    script.push('\n');
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_single_quotes() {
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
