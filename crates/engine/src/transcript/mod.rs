//! Sessions carried out of and into the store: a stored session exported as Markdown, as one self-contained HTML
//! page, or as JSON lines in the reference agent's transcript format; and that agent's own transcripts (its
//! per-project `.jsonl` files) imported as stored sessions that can be opened, searched and resumed.
//!
//! - [`export`]: a [`LoadedSession`](crate::store::LoadedSession) as text in a [`Format`]; what is written is
//!   always valid (UTF-8, one JSON object per line, escaped HTML), whatever bytes the tools returned;
//!   [`export_stored`] and [`write_export`] do it by a stored session's id, into a file written whole.
//! - [`import_file`] / [`import_claude_code`]: transcripts into the [`SessionStore`](crate::store::SessionStore),
//!   each session whole or not at all, keyed on its original id (importing twice stores it once); every whole line
//!   is imported and the first bad one is named.

mod clean;
mod export;
mod export_stored;
mod hints;
mod html;
mod html_diff;
mod import;
mod import_build;
mod jsonl;
mod markdown;
mod reference;

pub use export::{Format, export};
pub use export_stored::{ExportError, export_file_name, export_stored, write_export};
pub use import::{
    BadLine, FileImport, ImportError, default_claude_code_dir, import_claude_code, import_file,
    transcripts_under,
};
pub use import_build::build_session;
pub use reference::{ParsedTranscript, parse_transcript};
