//! SendUserFile (behind `KAIROS`): the agent hands the person a file it made or found — a report, a chart, a build
//! — and the window shows it with buttons to open it and to show it in its folder. The path is judged as a Read
//! (`Read(...)` rules, the working directories); it must be a regular file.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::file_io::paths;
use crate::permission::PermissionSubject;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// The longest caption, in characters.
const MAX_CAPTION: usize = 500;

/// Hands the person a file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendUserFileInput {
    /// The file, absolute or relative to the working directory.
    pub path: String,
    /// One or two sentences on what the file is.
    #[serde(default)]
    pub caption: Option<String>,
}

/// The SendUserFile tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SendUserFileTool;

impl Tool for SendUserFileTool {
    type Input = SendUserFileInput;

    fn name(&self) -> &'static str {
        names::SEND_USER_FILE
    }

    fn description(&self) -> String {
        "Hand the user a file (a report, an image, a build artefact): the window shows it with buttons to open it \
         and to show it in its folder. Give the path and, optionally, a short caption saying what it is."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &SendUserFileInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &SendUserFileInput) -> bool {
        true
    }

    fn render_hints(&self, input: &SendUserFileInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.path);
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Send {} to the user", paths::display(ctx, &path)),
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        input: &SendUserFileInput,
        ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::ReadPath(paths::absolute(ctx, &input.path))
    }

    async fn validate_input(
        &self,
        input: &SendUserFileInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        if input
            .caption
            .as_deref()
            .is_some_and(|c| c.chars().count() > MAX_CAPTION)
        {
            return Err(format!("caption has more than {MAX_CAPTION} characters"));
        }
        let path = paths::absolute(ctx, &input.path);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => Ok(()),
            Ok(_) => Err(format!("{} is not a regular file", path.display())),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    async fn call(
        &self,
        input: &SendUserFileInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let Some(person) = &ctx.person else {
            return Err(ToolError::to_model(
                "Nobody is watching this session; the file was not sent.",
            ));
        };
        let path = paths::absolute(ctx, &input.path);
        let bytes = std::fs::metadata(&path)
            .map_err(|e| ToolError::to_model(format!("{}: {e}", path.display())))?
            .len();
        let caption = input
            .caption
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty());
        person.send_file(&path, bytes, caption);
        Ok(ToolOutput::text(format!(
            "{} ({bytes} bytes) was handed to the user.",
            path.display()
        )))
    }
}
