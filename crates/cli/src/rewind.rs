//! `tandem rewind`: lists a stored session's prompts, or rewinds its files, its conversation or both to before one
//! of them. Files changed outside Tandem stop a file rewind unless `--force`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;
use tandem_engine::session::rewind::{RewindScope, rewind, rewind_points};
use tandem_engine::store::SessionStore;

/// What to rewind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scope {
    Files,
    Conversation,
    Both,
}

#[derive(Debug, Args)]
pub struct RewindArgs {
    /// The session (default: the folder's most recent one).
    #[arg(long)]
    pub session: Option<String>,
    /// The folder whose most recent session is meant (default: the current folder).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// The prompt to rewind to (before it); without it, the prompts are listed.
    #[arg(long, value_name = "PROMPT_ID")]
    pub to: Option<String>,
    #[arg(long, value_enum, default_value_t = Scope::Both)]
    pub scope: Scope,
    /// Overwrite files changed outside Tandem since it last wrote them.
    #[arg(long)]
    pub force: bool,
}

/// Runs the command and returns the exit code: 0 done, 1 stopped by files changed outside Tandem, 2 unusable.
pub fn run(args: &RewindArgs) -> i32 {
    let store = match SessionStore::open_default() {
        Ok(store) => store,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    let session = match &args.session {
        Some(id) => id.clone(),
        None => {
            let cwd = args
                .cwd
                .clone()
                .unwrap_or_else(|| std::env::current_dir().unwrap_or_else(|_| ".".into()));
            let latest = tandem_engine::session::open_folder(&cwd)
                .map_err(|e| e.to_string())
                .and_then(|folder| store.latest_session(&folder).map_err(|e| e.to_string()));
            match latest {
                Ok(Some(summary)) => summary.record.id,
                Ok(None) => {
                    eprintln!("tandem: {} has no stored session", cwd.display());
                    return 2;
                }
                Err(e) => {
                    eprintln!("tandem: {e}");
                    return 2;
                }
            }
        }
    };
    let Some(to) = &args.to else {
        return match rewind_points(&store, &session) {
            Ok(points) => {
                println!("{}", json!({"session_id": session, "prompts": points}));
                0
            }
            Err(e) => {
                eprintln!("tandem: {e}");
                2
            }
        };
    };
    let scope = match args.scope {
        Scope::Files => RewindScope::Files,
        Scope::Conversation => RewindScope::Conversation,
        Scope::Both => RewindScope::Both,
    };
    match rewind(&store, &session, to, scope, args.force) {
        Ok(outcome) => {
            println!("{}", json!({"session_id": session, "rewound": outcome}));
            if outcome.conflicts.is_empty() || outcome.files_rewound {
                0
            } else {
                eprintln!(
                    "tandem: these files were changed outside Tandem; nothing was rewound (use --force to overwrite): {}",
                    outcome.conflicts.join(", ")
                );
                1
            }
        }
        Err(e) => {
            eprintln!("tandem: {e}");
            2
        }
    }
}
