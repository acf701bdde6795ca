//! The Edit tool: replaces an exact string in a file (every occurrence with `replace_all`), keeping the file's
//! encoding, line endings and quote style, atomically, after checking that the file was read in this session and
//! has not changed since. The result's detail carries a structured patch for the UI's diff.

mod matching;
mod plan;
mod quotes;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{FileDiff, RenderHints, ToolDetail, ToolKind};

use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::file_io::diagnostics::{Changed, with_diagnostics};
use crate::tools::file_io::{change, encoding, guards, patch, paths, preview};
use crate::tools::read::{backfill_path, number_lines};
use crate::tools::responses::{self, EditResponse, patch_of};

pub use matching::{MatchKind, find as find_matches};

/// Replaces text in a file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditInput {
    /// The absolute path of the file to change.
    pub file_path: String,
    /// The text to replace. It must occur exactly once unless replace_all is true. Empty to create a new file.
    pub old_string: String,
    /// The text to put in its place (must differ from old_string).
    pub new_string: String,
    /// Replace every occurrence of old_string (default false).
    #[serde(default)]
    pub replace_all: bool,
    /// The change as validation planned it (not part of the model's input).
    #[serde(skip)]
    #[schemars(skip)]
    planned: plan::PlanCache,
}

/// The Edit tool.
#[derive(Debug, Default)]
pub struct EditTool;

/// Checks that need no file content: a no-op, UNC paths, notebooks, devices and secrets in team-shared files.
fn precheck(input: &EditInput, ctx: &ToolContext) -> Result<std::path::PathBuf, String> {
    if paths::is_unc(&input.file_path) {
        return Err(format!(
            "{} is a UNC (network) path; Tandem does not touch network paths.",
            input.file_path
        ));
    }
    if input.old_string == input.new_string {
        return Err("No changes to make: old_string and new_string are exactly the same.".into());
    }
    let key = paths::absolute(ctx, &input.file_path);
    if key
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
    {
        return Err("File is a Jupyter notebook. Use the NotebookEdit tool to edit it.".into());
    }
    if paths::is_device_path(&key) {
        return Err(format!(
            "{} is a device; it cannot be edited.",
            key.display()
        ));
    }
    guards::check_team_secrets(&key, &input.new_string)?;
    Ok(key)
}

/// Runs the edit's critical section (synchronously, holding the session's write lock and the folder's lock against
/// other processes) and builds the result.
fn run(
    input: &EditInput,
    ctx: &ToolContext,
    key: &std::path::Path,
) -> Result<(ToolOutput, Option<Changed>), ToolError> {
    let store = &ctx.file_state;
    let _guard = store.write_guard();
    let mut lock = change::lock(key)?;
    // The plan is taken over (not copied) when nothing else holds it; otherwise the edit is planned anew.
    let earlier = input.planned.take().and_then(|p| Arc::try_unwrap(p).ok());
    let planned = plan::plan_reusing(key, input, store, earlier)?;
    let body = encoding::encode_body(&planned.new_text, planned.encoding);
    change::commit(
        store,
        &mut lock,
        &planned.current,
        &[planned.encoding.bom(), &body],
    )?;
    drop(lock);
    let old_text = planned.old_text();
    // Only what the language servers need to hear, when the session has any.
    let changed = ctx.file_state.language_servers().map(|_| Changed {
        before: (!planned.created).then(|| old_text.to_string()),
        after: planned.new_text.clone(),
    });
    let hunks = patch::hunks(&old_text, &planned.new_text, planned.changed.clone());
    // The whole file's text goes into the data only when a hook reads it.
    let response = ctx.result_data_wanted.then(|| EditResponse {
        file_path: key.display().to_string(),
        old_string: input.old_string.clone(),
        new_string: input.new_string.clone(),
        original_file: old_text.to_string(),
        structured_patch: patch_of(&hunks),
        user_modified: false,
        replace_all: input.replace_all,
    });
    let shown = paths::display(ctx, key);
    let message = if planned.created {
        format!("File created successfully at: {shown}")
    } else {
        let first = hunks.first().map_or(1, |h| h.new_start);
        let span = hunks.first().map_or(1, |h| h.new_lines).min(40);
        let (snippet, _) = number_lines(&planned.new_text, first, span);
        let times = if planned.replacements > 1 {
            format!(" ({} replacements)", planned.replacements)
        } else {
            String::new()
        };
        format!(
            "The file {shown} has been updated{times}. Here's the result of running `cat -n` on a snippet of the \
             edited file:\n{snippet}"
        )
    };
    Ok((
        ToolOutput::text(message)
            .with_detail(ToolDetail::FileChange {
                path: key.display().to_string(),
                created: planned.created,
                replacements: Some(u32::try_from(planned.replacements).unwrap_or(u32::MAX)),
                hunks,
                diff: preview::file_diff(key, &old_text, &planned.new_text, planned.created),
                cell: None,
                changed_by: None,
                revised: None,
                diagnostics: None,
            })
            .with_structured_opt(response.as_ref()),
        changed,
    ))
}

impl Tool for EditTool {
    type Input = EditInput;

    fn name(&self) -> &'static str {
        names::EDIT
    }

    fn description(&self) -> String {
        "Performs an exact string replacement in a file. Read the file first: an edit of a file not read in this \
         session, or changed since it was read, is refused. old_string must match the file exactly (the line \
         numbers Read prints are not part of the file) and occur once, unless replace_all is set. An empty \
         old_string creates a new file. The file's encoding, line endings and quote style are kept."
            .to_string()
    }

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<EditResponse>()
    }

    fn is_destructive(&self, _input: &EditInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Block
    }

    fn render_hints(&self, input: &EditInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.file_path);
        RenderHints {
            kind: ToolKind::Edit,
            title: format!("Edit {}", paths::display(ctx, &path)),
            collapsible: false,
        }
    }

    fn permission_subject(&self, input: &EditInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::WritePath(paths::absolute(ctx, &input.file_path))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        backfill_path(input, "file_path", ctx);
    }

    fn approval_preview(&self, input: &EditInput, ctx: &ToolContext) -> Option<FileDiff> {
        let key = precheck(input, ctx).ok()?;
        let planned = match input.planned.get() {
            Some(planned) => planned,
            None => Arc::new(plan::plan(&key, input, &ctx.file_state).ok()?),
        };
        preview::file_diff(
            &key,
            &planned.old_text(),
            &planned.new_text,
            planned.created,
        )
    }

    async fn validate_input(&self, input: &EditInput, ctx: &ToolContext) -> Result<(), String> {
        let key = precheck(input, ctx)?;
        let store = ctx.file_state.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || {
            let planned = plan::plan(&key, &input, &store)?;
            input.planned.set(Arc::new(planned));
            Ok::<(), ToolError>(())
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
    }

    async fn call(&self, input: &EditInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let key = precheck(input, ctx).map_err(ToolError::to_model)?;
        let call_ctx = ctx.clone();
        let input = input.clone();
        let path = key.clone();
        let (output, changed) = tokio::task::spawn_blocking(move || run(&input, &call_ctx, &key))
            .await
            .map_err(|e| ToolError::to_model(format!("the edit failed: {e}")))??;
        Ok(with_diagnostics(output, ctx, &path, changed).await)
    }
}
