//! `tandem permissions check|list`: answers permission questions without running anything. This file holds the
//! flags and the printing; `check` and `list` the logic.

mod check;
mod list;

use std::path::PathBuf;

use clap::{Args, Subcommand};
use tandem_protocol::PermissionMode;

pub use check::{
    CheckOptions, UNREADABLE_MARK, check, check_batch, check_in, check_with_issues, context_for,
    describe_issue, unreadable_settings,
};
pub use list::{ListAnswer, ListedHook, ListedRule, list};

#[derive(Debug, Subcommand)]
pub enum PermissionsCommand {
    /// Print the decision for one call (or, with --batch, one per JSON line on stdin) as JSON.
    Check(CheckArgs),
    /// Print the effective rules with their sources, and the invalid ones.
    List {
        /// The project folder (default: the current folder).
        #[arg(long)]
        cwd: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The tool to check (not with --batch).
    #[arg(required_unless_present = "batch")]
    pub tool: Option<String>,
    /// The tool input as JSON.
    #[arg(long, required_unless_present = "batch")]
    pub input: Option<String>,
    /// Read {"tool", "input", "cwd"?, "mode"?} lines from stdin and print one answer line each.
    #[arg(long, conflicts_with_all = ["tool", "input"])]
    pub batch: bool,
    /// The project folder (default: the current folder).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// The permission mode (default: the settings' `defaultMode`, else default).
    #[arg(long, value_parser = super::parse_mode)]
    pub mode: Option<PermissionMode>,
    /// Another working directory, relative to the folder or absolute (may be repeated).
    #[arg(long = "add-dir")]
    pub add_dir: Vec<PathBuf>,
    /// A settings file read as the highest source after the managed policy (may be repeated).
    #[arg(long)]
    pub settings: Vec<PathBuf>,
}

/// Runs the subcommand; the exit code is 0 whatever the decision, 1 when a settings file cannot be read (nothing
/// is answered then: its deny rules are unknown).
pub fn run(command: &PermissionsCommand) -> i32 {
    match command {
        PermissionsCommand::Check(args) => {
            let mut opts = CheckOptions {
                tool: args.tool.clone().unwrap_or_default(),
                cwd: args.cwd.clone(),
                mode: args.mode,
                add_dirs: args.add_dir.clone(),
                settings_files: args.settings.clone(),
                ..CheckOptions::default()
            };
            if args.batch {
                let stdin = std::io::stdin();
                return match check_batch(stdin.lock(), std::io::stdout().lock(), &opts) {
                    Ok(()) => 0,
                    Err(e) => {
                        eprintln!("tandem: {e}");
                        1
                    }
                };
            }
            opts.input = match serde_json::from_str(args.input.as_deref().unwrap_or("{}")) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("tandem: --input is not valid JSON: {e}");
                    return 2;
                }
            };
            if let Err(message) = context_for(&opts)
                && message.contains(UNREADABLE_MARK)
            {
                eprintln!("tandem: {message}");
                return 1;
            }
            let (answer, issues) = check_with_issues(&opts);
            for issue in &issues {
                eprintln!("tandem: {}", describe_issue(issue));
            }
            println!("{}", serde_json::to_string(&answer).unwrap_or_default());
            0
        }
        PermissionsCommand::List { cwd } => match list(&CheckOptions {
            cwd: cwd.clone(),
            ..CheckOptions::default()
        }) {
            Ok(answer) => {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&answer).unwrap_or_default()
                );
                0
            }
            Err(e) => {
                eprintln!("tandem: {e}");
                1
            }
        },
    }
}
