//! TerminalCapture (behind `TERMINAL_PANEL`): the model reads what the person's terminal panel shows — the visible
//! screen, or the last lines of scrollback — with its size and what runs in it. Read-only, but it asks in the
//! default mode unless a `TerminalCapture` rule allows it: a person's terminal may show secrets
//! ([`PermissionSubject::PersonalRead`]).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::render::{Shown, render};
use super::slot::PanelSlot;
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// The most lines one call may ask for.
pub const MAX_LINES: usize = 2_000;

/// What to read of the panel.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerminalCaptureInput {
    /// Read the last this many lines of the terminal (the lines that scrolled off the screen, then the screen's),
    /// at most 2000. Leave it out to read the visible screen.
    #[schemars(range(min = 1, max = 2000))]
    pub lines: Option<usize>,
}

/// The TerminalCapture tool, reading the session's panel.
#[derive(Debug)]
pub struct TerminalCaptureTool {
    slot: Arc<PanelSlot>,
}

impl TerminalCaptureTool {
    /// The tool reading the panel of `slot`.
    pub fn new(slot: Arc<PanelSlot>) -> Self {
        Self { slot }
    }
}

impl Tool for TerminalCaptureTool {
    type Input = TerminalCaptureInput;

    fn name(&self) -> &'static str {
        names::TERMINAL_CAPTURE
    }

    fn description(&self) -> String {
        format!(
            "Reads the terminal panel the person has open in the window: what it shows, as text (colours and cursor \
             moves already applied), with its size, whether a program runs in it and where the cursor is. Without \
             `lines` it returns the visible screen; with `lines` (1 to {MAX_LINES}) the last that many lines, those \
             that scrolled off the screen included. Use it when the person refers to something in their terminal \
             (an error they saw, a command's output). It only reads: it never types into the terminal. It fails when \
             the person has not opened a terminal."
        )
    }

    fn is_read_only(&self, _input: &TerminalCaptureInput) -> bool {
        true
    }

    fn is_concurrency_safe(&self, _input: &TerminalCaptureInput) -> bool {
        true
    }

    fn render_hints(&self, input: &TerminalCaptureInput, _ctx: &ToolContext) -> RenderHints {
        let title = match input.lines {
            Some(n) => format!("Terminal panel: last {n} lines"),
            None => "Terminal panel: screen".to_string(),
        };
        RenderHints {
            kind: ToolKind::Read,
            title,
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &TerminalCaptureInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::PersonalRead {
            what: "the person's terminal panel, which may show secrets".to_string(),
        }
    }

    async fn validate_input(
        &self,
        input: &TerminalCaptureInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        match input.lines {
            Some(0) => Err("`lines` must be at least 1".to_string()),
            Some(n) if n > MAX_LINES => Err(format!("`lines` is at most {MAX_LINES}")),
            _ => Ok(()),
        }
    }

    async fn call(
        &self,
        input: &TerminalCaptureInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let panel = self
            .slot
            .current()
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let snapshot = panel.snapshot();
        let running = panel.running_program();
        let (shown, lines) = match input.lines {
            Some(asked) => (Shown::Last { asked }, panel.last_lines(asked)),
            None => (Shown::Screen, snapshot.rows.clone()),
        };
        Ok(ToolOutput::text(render(
            &panel.shell,
            &snapshot,
            running.as_deref(),
            shown,
            &lines,
        )))
    }
}
