//! The Read tool: text files with line numbers (`offset`/`limit`, 2,000 lines by default, long lines cut), images
//! as image blocks (scaled down when large), PDFs as text per page, notebooks as cells with their outputs. Binary
//! files and devices are refused. Every read records the file's read state for the staleness check of edits.

mod image;
mod lines;
mod notebook;
mod numbered;
mod pdf;
mod text;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::file_io::{paths, snapshot};
use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{FileStateStore, InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

pub use numbered::{MAX_LINE_CHARS, number_lines};
pub use text::DEFAULT_LINE_LIMIT;

/// Reads a file from the local filesystem.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadInput {
    /// The absolute path of the file to read.
    pub file_path: String,
    /// The line number to start reading from (1-based). Only give it for files too large to read at once.
    #[schemars(range(min = 0))]
    pub offset: Option<u64>,
    /// The number of lines to read. Only give it for files too large to read at once.
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
    /// For PDF files only: the pages to read, e.g. "3", "1-5" or "1-3,7". At most 20 pages per call; required for
    /// PDFs of more than 10 pages.
    pub pages: Option<String>,
}

/// The Read tool.
#[derive(Debug, Default)]
pub struct ReadTool;

/// File extensions that are never text; reading them as text would only produce noise.
const BINARY_EXTENSIONS: &[&str] = &[
    "exe", "dll", "so", "dylib", "o", "a", "obj", "lib", "class", "jar", "war", "pyc", "pyo",
    "wasm", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "iso", "dmg", "bin", "dat",
    "db", "sqlite", "mp3", "mp4", "m4a", "wav", "flac", "ogg", "avi", "mov", "mkv", "webm", "bmp",
    "ico", "tiff", "tif", "psd", "ttf", "otf", "woff", "woff2", "eot", "doc", "docx", "xls",
    "xlsx", "ppt", "pptx", "odt",
];

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Records that `path` was read: its metadata, the hash of its bytes (`None` when only part of a large file was
/// read) and whether only part of it was shown.
fn record(
    store: &FileStateStore,
    path: &Path,
    meta: &std::fs::Metadata,
    hash: Option<&blake3::Hash>,
    partial: bool,
) {
    store.record(path, snapshot::state_of(meta, hash, partial));
}

/// Opens `path` for reading without blocking (`O_NONBLOCK`: a FIFO or a device does not wait for a writer, a
/// pseudo-file with nothing more to give fails with "would block") and checks that what was opened is a regular
/// file.
fn open_regular(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), ToolError> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = path.display();
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| ToolError::to_model(format!("Cannot read {shown}: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| ToolError::to_model(format!("Cannot read {shown}: {e}")))?;
    if !meta.is_file() {
        return Err(ToolError::to_model(format!(
            "{shown} is not a regular file (a device, FIFO or socket); it cannot be read."
        )));
    }
    Ok((file, meta))
}

fn read_file(
    path: &Path,
    input: &ReadInput,
    store: &FileStateStore,
) -> Result<ToolOutput, ToolError> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            ToolError::to_model(format!("File does not exist: {shown}"))
        }
        _ => ToolError::to_model(format!("Cannot read {shown}: {e}")),
    })?;
    if meta.is_dir() {
        return Err(ToolError::to_model(format!(
            "{shown} is a directory, not a file. Use Glob or Bash `ls` to list a directory."
        )));
    }
    if !meta.is_file() {
        return Err(ToolError::to_model(format!(
            "{shown} is not a regular file (a device, FIFO or socket); it cannot be read."
        )));
    }
    // Opened without waiting and checked again on the open file: a path swapped for a FIFO after the check above
    // does not block the open, and a pseudo-file that never ends (`/proc/kmsg`) fails instead of waiting for more.
    let (file, meta) = open_regular(path)?;
    let ext = extension(path);
    if BINARY_EXTENSIONS.contains(&ext.as_str()) {
        return Err(ToolError::to_model(format!(
            "{shown} is a binary file (.{ext}); this tool cannot read binary files."
        )));
    }
    let cannot = |e: std::io::Error| ToolError::to_model(format!("Cannot read {shown}: {e}"));
    if !matches!(
        ext.as_str(),
        "png" | "jpg" | "jpeg" | "gif" | "webp" | "pdf" | "ipynb"
    ) {
        let read = text::read_text(path, file, meta.len(), input.offset, input.limit)?;
        record(store, path, &meta, read.hash.as_ref(), read.partial);
        return Ok(read.out);
    }
    let mut bytes = Vec::new();
    let mut file = file;
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(cannot)?;
    let hash = snapshot::content_hash(&bytes);
    let (out, partial) = match ext.as_str() {
        "pdf" => (
            pdf::read_pdf(path, &bytes, input.pages.as_deref())?,
            input.pages.is_some(),
        ),
        "ipynb" => (notebook::read_notebook(path, &bytes)?, false),
        _ => (image::read_image(path, &bytes)?, false),
    };
    record(store, path, &meta, Some(&hash), partial);
    Ok(out)
}

impl Tool for ReadTool {
    type Input = ReadInput;

    fn name(&self) -> &'static str {
        names::READ
    }

    fn description(&self) -> String {
        "Reads a file from the local filesystem. The file_path must be absolute. By default up to 2000 lines are \
         read from the start; offset and limit read a part of a long file. Lines longer than 2000 characters are \
         cut. The result numbers each line like `cat -n`. Images (PNG, JPEG, GIF, WebP) are shown as images, PDFs \
         as text per page (use `pages` for long ones), Jupyter notebooks as cells with their outputs. Binary files \
         cannot be read. A file must be read before it can be edited."
            .to_string()
    }

    /// Read bounds its own output (lines, bytes): a result saved to a file would only be read again with Read.
    fn max_result_size_chars(&self) -> usize {
        usize::MAX
    }

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    /// Text files carry their lines as data; images, PDFs and notebooks carry none (hooks get the result's text).
    fn output_schema(&self) -> Option<serde_json::Value> {
        crate::tools::responses::schema::<crate::tools::responses::ReadResponse>()
    }

    fn is_concurrency_safe(&self, _input: &ReadInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &ReadInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &ReadInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.file_path);
        RenderHints {
            kind: ToolKind::Read,
            title: format!("Read {}", paths::display(ctx, &path)),
            collapsible: true,
        }
    }

    fn permission_subject(&self, input: &ReadInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::ReadPath(paths::absolute(ctx, &input.file_path))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        backfill_path(input, "file_path", ctx);
    }

    async fn validate_input(&self, input: &ReadInput, ctx: &ToolContext) -> Result<(), String> {
        let path = paths::readable(ctx, "file_path", &input.file_path)?;
        if input.pages.is_some() && extension(&path) != "pdf" {
            return Err("`pages` is only for PDF files".into());
        }
        Ok(())
    }

    async fn call(&self, input: &ReadInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let path: PathBuf = paths::absolute(ctx, &input.file_path);
        let store = ctx.file_state.clone();
        let input = ReadInput {
            file_path: input.file_path.clone(),
            offset: input.offset,
            limit: input.limit,
            pages: input.pages.clone(),
        };
        tokio::task::spawn_blocking(move || read_file(&path, &input, &store))
            .await
            .map_err(|e| ToolError::to_model(format!("the read failed: {e}")))?
    }
}

/// Makes the path field `field` of a tool input absolute, as hooks and the UI should see it.
pub(crate) fn backfill_path(input: &mut serde_json::Value, field: &str, ctx: &ToolContext) {
    if let Some(raw) = input.get(field).and_then(|v| v.as_str())
        && !raw.is_empty()
        && !paths::is_unc(raw)
    {
        let abs = paths::absolute(ctx, raw).display().to_string();
        input[field] = serde_json::Value::String(abs);
    }
}
