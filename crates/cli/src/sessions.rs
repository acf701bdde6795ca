//! `tandem sessions`: the stored sessions, listed (with how they are organised: pinned, tags, folder, archived) or
//! searched (full text over everything said in them), as text or JSON; repaired; exported (Markdown, HTML, the
//! reference agent's JSON lines) and imported from that agent's transcripts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use tandem_engine::store::{Collection, SearchHit, SessionStore, SessionSummary, StoreError};

mod carry;

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// List the stored sessions: the pinned first, then the most recently updated first; archived ones only with
    /// --archived.
    List(ListArgs),
    /// Search everything said in the stored sessions: prompts, answers, tool inputs and results, sub-agents.
    Search(SearchArgs),
    /// Check the store and make its search index again from the stored events (for a search that misses what
    /// was said; a damaged index is also rebuilt by the next search by itself).
    Repair,
    /// Export a session as Markdown, one HTML page, or JSON lines in Claude Code's transcript format.
    Export(ExportArgs),
    /// Import Claude Code transcripts (.jsonl) as stored sessions (a session already imported is skipped).
    Import(ImportArgs),
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The session's id (as `tandem sessions list` prints it).
    pub id: String,
    /// md, html or jsonl.
    #[arg(long, value_name = "FORMAT", value_parser = ["md", "markdown", "html", "jsonl"])]
    pub format: String,
    /// Write to this file (through a temporary file and a rename) instead of stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Transcript files to import.
    #[arg(
        value_name = "FILE",
        required_unless_present = "claude_code",
        conflicts_with = "claude_code"
    )]
    pub files: Vec<PathBuf>,
    /// Import every project's transcripts under DIR (default ~/.claude/projects).
    #[arg(long = "claude-code", value_name = "DIR", num_args = 0..=1)]
    pub claude_code: Option<Option<PathBuf>>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only the sessions of this folder (default: every folder's).
    #[arg(long, value_name = "DIR")]
    pub folder: Option<PathBuf>,
    /// List the archived sessions (and only those).
    #[arg(long)]
    pub archived: bool,
    /// Only the sessions tagged T (case does not matter).
    #[arg(long, value_name = "T")]
    pub tag: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The words to look for (each must match); "quoted phrases" match as written, a trailing * matches words
    /// that begin so.
    pub query: String,
    /// Only the sessions of this folder (default: every folder's).
    #[arg(long, value_name = "DIR")]
    pub folder: Option<PathBuf>,
    /// The most hits to print.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command and returns the exit code: 0 done, 2 unusable (a query with no words, a store that cannot
/// be opened, an unknown session, an output that cannot be written); `import`: 1 when a file or a line was bad
/// (everything whole was imported).
pub fn run(command: &SessionsCommand) -> i32 {
    let store = match SessionStore::open_default() {
        Ok(store) => store,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    let result = match command {
        SessionsCommand::List(args) => list(&store, args),
        SessionsCommand::Search(args) => search(&store, args),
        SessionsCommand::Repair => repair(&store),
        SessionsCommand::Export(args) => return carry::export(&store, args),
        SessionsCommand::Import(args) => return carry::import(&store, args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tandem: {e}");
            2
        }
    }
}

fn list(store: &SessionStore, args: &ListArgs) -> Result<(), StoreError> {
    let sessions = match &args.folder {
        Some(folder) => store.list_sessions(folder)?,
        None => store.list_all_sessions()?,
    };
    let tag = args.tag.as_deref().map(|t| t.trim().to_lowercase());
    let sessions: Vec<&SessionSummary> = sessions
        .iter()
        .filter(|s| s.organised.archived() == args.archived)
        .filter(|s| tag.as_ref().is_none_or(|t| s.organised.tags.contains(t)))
        .collect();
    let paths = CollectionPaths::read(store, &sessions)?;
    if args.json {
        let rows: Vec<Value> = sessions
            .iter()
            .map(|s| session_json(s, paths.of(s)))
            .collect();
        println!("{}", json!({ "sessions": rows }));
        return Ok(());
    }
    for summary in sessions {
        let r = &summary.record;
        let o = &summary.organised;
        let mut marks = String::new();
        if o.pinned() {
            marks.push_str("  pinned");
        }
        if o.archived() {
            marks.push_str("  archived");
        }
        if let Some(path) = paths.of(summary) {
            marks.push_str(&format!("  in {path}"));
        }
        if !o.tags.is_empty() {
            let tags: Vec<String> = o.tags.iter().map(|t| format!("#{t}")).collect();
            marks.push_str(&format!("  {}", tags.join(" ")));
        }
        println!(
            "{}  {}  {:>4} messages  {}  ({}){marks}",
            r.id,
            time(r.updated_at),
            summary.message_count,
            title(&r.title),
            r.folder.display()
        );
    }
    Ok(())
}

/// The path of each collection ("Work/Bugs") of the project folders the listed sessions are in.
struct CollectionPaths(HashMap<i64, String>);

impl CollectionPaths {
    fn read(store: &SessionStore, sessions: &[&SessionSummary]) -> Result<Self, StoreError> {
        let mut all: HashMap<i64, Collection> = HashMap::new();
        let mut folders: Vec<&Path> = sessions
            .iter()
            .filter(|s| s.organised.collection_id.is_some())
            .map(|s| s.record.folder.as_path())
            .collect();
        folders.sort();
        folders.dedup();
        for folder in folders {
            all.extend(store.collections(folder)?.into_iter().map(|c| (c.id, c)));
        }
        let paths = all
            .keys()
            .map(|&id| {
                let mut names = Vec::new();
                let mut at = Some(id);
                // Bounded by the number of collections, should the parents ever form a loop.
                while let Some(c) = at.and_then(|id| all.get(&id)) {
                    if names.len() > all.len() {
                        break;
                    }
                    names.push(c.name.as_str());
                    at = c.parent_id;
                }
                names.reverse();
                (id, names.join("/"))
            })
            .collect();
        Ok(Self(paths))
    }

    fn of(&self, summary: &SessionSummary) -> Option<&str> {
        summary
            .organised
            .collection_id
            .and_then(|id| self.0.get(&id))
            .map(String::as_str)
    }
}

fn search(store: &SessionStore, args: &SearchArgs) -> Result<(), StoreError> {
    let hits = store.search(&args.query, args.folder.as_deref(), args.limit)?;
    if args.json {
        println!(
            "{}",
            json!({ "query": args.query, "hits": serde_json::to_value(&hits)? })
        );
        return Ok(());
    }
    if hits.is_empty() {
        eprintln!("tandem: nothing matches {:?}", args.query);
    }
    for hit in &hits {
        print_hit(hit);
    }
    Ok(())
}

/// Checks the file (a damaged search index is rebuilt by the check), then indexes every session again.
fn repair(store: &SessionStore) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    store.check_integrity()?;
    let sessions = store.list_all_sessions()?.len();
    store.reindex_search()?;
    println!(
        "{}: sound; the search index was made again from the stored events of {sessions} session{} in {:.1} s",
        store.path().display(),
        if sessions == 1 { "" } else { "s" },
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn session_json(summary: &SessionSummary, collection: Option<&str>) -> Value {
    let r = &summary.record;
    let o = &summary.organised;
    json!({
        "session_id": r.id,
        "folder": r.folder,
        "title": r.title,
        "created_at": r.created_at,
        "updated_at": r.updated_at,
        "model": r.model,
        "message_count": summary.message_count,
        "pinned": o.pinned(),
        "archived": o.archived(),
        "tags": o.tags,
        "collection_id": o.collection_id,
        "collection": collection,
    })
}

/// Two lines per hit: where it is, then the snippet with each match in [brackets].
fn print_hit(hit: &SearchHit) {
    let agent = hit
        .agent_id
        .as_deref()
        .map(|a| format!(" {a}"))
        .unwrap_or_default();
    println!(
        "{}  {}  ({}, event {}, {}{})",
        folder(&hit.folder),
        title(&hit.title),
        hit.session_id,
        hit.seq,
        hit.kind.as_str(),
        agent
    );
    let snippet: String = hit
        .snippet
        .iter()
        .map(|part| {
            if part.matched {
                format!("[{}]", part.text)
            } else {
                part.text.clone()
            }
        })
        .collect();
    println!("    {}", snippet.trim());
}

fn folder(path: &Path) -> String {
    path.display().to_string()
}

fn title(title: &str) -> &str {
    if title.is_empty() {
        "(untitled)"
    } else {
        title
    }
}

/// Unix milliseconds as UTC `YYYY-MM-DD HH:MM`.
fn time(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_utc_dates() {
        assert_eq!(time(0), "1970-01-01 00:00");
        assert_eq!(time(1_700_000_000_000), "2023-11-14 22:13");
        assert_eq!(time(951_782_400_000), "2000-02-29 00:00");
    }
}
