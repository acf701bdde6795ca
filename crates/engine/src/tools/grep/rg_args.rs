//! The `rg` command line that searches exactly what a Grep call searches, for tests and benchmarks that hold the
//! tool to ripgrep's answers, and for people who want to repeat a search in a terminal.

use super::GrepInput;
use super::search::VCS_DIRS;

/// The arguments (without `rg` itself) of the equivalent ripgrep search, given the path to search.
pub fn rg_args(input: &GrepInput, path: &str) -> Vec<String> {
    let mut args: Vec<String> = vec!["--hidden".into()];
    for dir in VCS_DIRS {
        args.push("--glob".into());
        args.push(format!("!{dir}"));
    }
    if input.case_insensitive == Some(true) {
        args.push("-i".into());
    }
    if input.multiline == Some(true) {
        args.push("-U".into());
        args.push("--multiline-dotall".into());
    }
    for glob in super::split_globs(input.glob.as_deref()) {
        args.push("--glob".into());
        args.push(glob);
    }
    if let Some(t) = &input.file_type {
        args.push("--type".into());
        args.push(t.clone());
    }
    match input.output_mode.unwrap_or_default() {
        super::OutputMode::FilesWithMatches => args.push("--files-with-matches".into()),
        super::OutputMode::Count => {
            args.push("--count".into());
            args.push("--with-filename".into());
        }
        super::OutputMode::Content => {
            args.push("--no-heading".into());
            args.push("--with-filename".into());
            if input.line_numbers != Some(false) {
                args.push("-n".into());
            }
            let (before, after) = input.context();
            if before > 0 {
                args.push(format!("-B{before}"));
            }
            if after > 0 {
                args.push(format!("-A{after}"));
            }
        }
    }
    args.push("-e".into());
    args.push(input.pattern.clone());
    args.push(path.to_string());
    args
}
