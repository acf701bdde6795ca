//! `tandem sessions export` and `tandem sessions import`: a stored session written out as Markdown, HTML or the
//! reference agent's JSON lines; that agent's transcripts brought in as stored sessions.

use std::io::Write;
use std::path::PathBuf;

use tandem_engine::store::{ImportOutcome, SessionStore};
use tandem_engine::transcript::{self, ExportError, FileImport, Format};

use super::{ExportArgs, ImportArgs};

/// 0 written; 2 an unknown session, a store that cannot be read, an output that cannot be written.
pub fn export(store: &SessionStore, args: &ExportArgs) -> i32 {
    let Some(format) = Format::parse(&args.format) else {
        eprintln!(
            "tandem: unknown format {:?} (md, html or jsonl)",
            args.format
        );
        return 2;
    };
    let written = transcript::export_stored(store, &args.id, format).and_then(|(text, _)| {
        match &args.output {
            Some(path) => transcript::write_export(path, &text),
            None => std::io::stdout()
                .lock()
                .write_all(text.as_bytes())
                .map_err(|source| ExportError::Write {
                    path: PathBuf::from("stdout"),
                    source,
                }),
        }
    });
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tandem: {e}");
            2
        }
    }
}

/// 0 every file imported (or there already); 1 a file or a line was bad (all that was whole was imported); 2 the
/// folder of transcripts cannot be read.
pub fn import(store: &SessionStore, args: &ImportArgs) -> i32 {
    let reports: Vec<FileImport> = match &args.claude_code {
        Some(dir) => {
            let dir = match dir.clone().or_else(transcript::default_claude_code_dir) {
                Some(dir) => dir,
                None => {
                    eprintln!("tandem: no home folder is known");
                    return 2;
                }
            };
            match transcript::import_claude_code(store, &dir) {
                Ok(reports) => reports,
                Err(e) => {
                    eprintln!("tandem: {e}");
                    return 2;
                }
            }
        }
        None => args
            .files
            .iter()
            .map(|path| transcript::import_file(store, path))
            .collect(),
    };
    let (mut imported, mut skipped, mut bad) = (0, 0, 0);
    for report in &reports {
        match &report.result {
            Ok((id, title, count, ImportOutcome::Stored)) => {
                imported += 1;
                println!(
                    "imported  {id}  {count:>4} messages  {}  ({})",
                    if title.is_empty() {
                        "(untitled)"
                    } else {
                        title
                    },
                    report.path.display()
                );
            }
            Ok((id, _, count, ImportOutcome::Updated)) => {
                imported += 1;
                println!(
                    "updated   {id}  {count:>4} messages  what the transcript added since the last import  ({})",
                    report.path.display()
                );
            }
            Ok((id, _, _, ImportOutcome::AlreadyThere)) => {
                skipped += 1;
                println!(
                    "skipped   {id}  already imported (unchanged, or continued in Tandem since)  ({})",
                    report.path.display()
                );
            }
            Err(e) => {
                bad += 1;
                eprintln!("tandem: not imported: {e}");
            }
        }
        if let Some(note) = report.bad_lines_note() {
            eprintln!("tandem: bad line skipped: {note}");
        }
    }
    // What was imported is searchable as soon as the command ends.
    if imported > 0
        && let Err(e) = store.index_for_search()
    {
        eprintln!("tandem: the imported sessions are not indexed for search yet: {e}");
    }
    let bad_lines = reports.iter().filter(|r| r.first_bad.is_some()).count();
    eprintln!(
        "tandem: {imported} imported, {skipped} already there, {bad} not imported, {bad_lines} with bad lines"
    );
    if bad > 0 || bad_lines > 0 { 1 } else { 0 }
}
