//! The Write tool: writes a whole file, atomically, creating missing folders. Overwriting needs the file to have
//! been read in this session and be unchanged since; the file's encoding (UTF-8, BOM, UTF-16LE) and CRLF line
//! endings are kept.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{FileDiff, RenderHints, ToolDetail, ToolKind};

use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::file_io::change::{self, Current};
use crate::tools::file_io::diagnostics::{Changed, with_diagnostics};
use crate::tools::file_io::encoding::{self, Encoding};
use crate::tools::file_io::line_endings::{self, LineEnding};
use crate::tools::file_io::{guards, patch, paths, preview};
use crate::tools::read::backfill_path;
use crate::tools::responses::{self, WriteKind, WriteResponse, patch_of};

/// Writes a file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteInput {
    /// The absolute path of the file to write.
    pub file_path: String,
    /// The whole content of the file.
    pub content: String,
}

/// The Write tool.
#[derive(Debug, Default)]
pub struct WriteTool;

/// A write ready to go.
struct PlannedWrite {
    current: Current,
    encoding: Encoding,
    text: String,
    old_text: String,
}

fn precheck(input: &WriteInput, ctx: &ToolContext) -> Result<PathBuf, String> {
    if paths::is_unc(&input.file_path) {
        return Err(format!(
            "{} is a UNC (network) path; Tandem does not touch network paths.",
            input.file_path
        ));
    }
    let key = paths::absolute(ctx, &input.file_path);
    if paths::is_device_path(&key) {
        return Err(format!(
            "{} is a device; it cannot be written.",
            key.display()
        ));
    }
    guards::check_team_secrets(&key, &input.content)?;
    if guards::is_settings_file(&key)
        && let Err(why) = guards::validate_settings(&input.content)
    {
        return Err(format!(
            "The content is not a valid settings file for {}: {why}. It was not written.",
            key.display()
        ));
    }
    Ok(key)
}

fn plan(key: &Path, input: &WriteInput, ctx: &ToolContext) -> Result<PlannedWrite, ToolError> {
    let current = change::load(key)?;
    let Some(bytes) = current.bytes.as_deref() else {
        return Ok(PlannedWrite {
            current,
            encoding: Encoding::Utf8,
            text: input.content.clone(),
            old_text: String::new(),
        });
    };
    change::ensure_writable(&current)?;
    change::ensure_fresh(&ctx.file_state, &current)?;
    let (encoding, old_text, text) = match encoding::decode_ref(bytes) {
        Ok((old, encoding)) => {
            let style = line_endings::dominant(&old).unwrap_or(LineEnding::Lf);
            let text = line_endings::apply(&input.content, style).into_owned();
            (encoding, old.into_owned(), text)
        }
        // A file that was not text is replaced by the new text as given.
        Err(_) => (Encoding::Utf8, String::new(), input.content.clone()),
    };
    Ok(PlannedWrite {
        current,
        encoding,
        text,
        old_text,
    })
}

fn run(
    input: &WriteInput,
    ctx: &ToolContext,
    key: &Path,
) -> Result<(ToolOutput, Option<Changed>), ToolError> {
    let _guard = ctx.file_state.write_guard();
    let mut lock = change::lock(key)?;
    let planned = plan(key, input, ctx)?;
    let body = encoding::encode_body(&planned.text, planned.encoding);
    change::commit(
        &ctx.file_state,
        &mut lock,
        &planned.current,
        &[planned.encoding.bom(), &body],
    )?;
    drop(lock);
    let created = !planned.current.exists();
    // Only what the language servers need to hear, when the session has any.
    let changed = ctx.file_state.language_servers().map(|_| Changed {
        before: (!created).then(|| planned.old_text.clone()),
        after: planned.text.clone(),
    });
    let hunks = patch::hunks_of(&planned.old_text, &planned.text, 0);
    // The whole file's text goes into the data only when a hook reads it.
    let response = ctx.result_data_wanted.then(|| WriteResponse {
        kind: if created {
            WriteKind::Create
        } else {
            WriteKind::Update
        },
        file_path: key.display().to_string(),
        content: planned.text.clone(),
        structured_patch: patch_of(&hunks),
        original_file: (!created).then(|| planned.old_text.clone()),
    });
    let shown = paths::display(ctx, key);
    let message = if created {
        format!("File created successfully at: {shown}")
    } else {
        format!("The file {shown} has been overwritten.")
    };
    Ok((
        ToolOutput::text(message)
            .with_detail(ToolDetail::FileChange {
                path: key.display().to_string(),
                created,
                replacements: None,
                hunks,
                diff: preview::file_diff(key, &planned.old_text, &planned.text, created),
                cell: None,
                changed_by: None,
                revised: None,
                diagnostics: None,
            })
            .with_structured_opt(response.as_ref()),
        changed,
    ))
}

impl Tool for WriteTool {
    fn classifier_input(&self, input: &WriteInput) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "file_path": input.file_path,
            "content": crate::permission::cut(&input.content),
            "content_lines": input.content.lines().count(),
        }))
    }

    type Input = WriteInput;

    fn name(&self) -> &'static str {
        names::WRITE
    }

    fn description(&self) -> String {
        "Writes a file to the local filesystem, replacing it if it exists (missing folders are created). An \
         existing file must have been read in this session first and be unchanged since. Prefer Edit for changes \
         to existing files; it sends only the difference."
            .to_string()
    }

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<WriteResponse>()
    }

    fn is_destructive(&self, _input: &WriteInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Block
    }

    fn render_hints(&self, input: &WriteInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.file_path);
        RenderHints {
            kind: ToolKind::Write,
            title: format!("Write {}", paths::display(ctx, &path)),
            collapsible: false,
        }
    }

    fn permission_subject(&self, input: &WriteInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::WritePath(paths::absolute(ctx, &input.file_path))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        backfill_path(input, "file_path", ctx);
    }

    fn approval_preview(&self, input: &WriteInput, ctx: &ToolContext) -> Option<FileDiff> {
        let key = precheck(input, ctx).ok()?;
        let planned = plan(&key, input, ctx).ok()?;
        preview::file_diff(
            &key,
            &planned.old_text,
            &planned.text,
            !planned.current.exists(),
        )
    }

    async fn validate_input(&self, input: &WriteInput, ctx: &ToolContext) -> Result<(), String> {
        let key = precheck(input, ctx)?;
        let ctx = ctx.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || plan(&key, &input, &ctx).map(|_| ()))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    async fn call(&self, input: &WriteInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let key = precheck(input, ctx).map_err(ToolError::to_model)?;
        let call_ctx = ctx.clone();
        let input = input.clone();
        let path = key.clone();
        let (output, changed) = tokio::task::spawn_blocking(move || run(&input, &call_ctx, &key))
            .await
            .map_err(|e| ToolError::to_model(format!("the write failed: {e}")))??;
        Ok(with_diagnostics(output, ctx, &path, changed).await)
    }
}
