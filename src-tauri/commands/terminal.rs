//! The terminal panel's commands: open it (its output streams on a channel), type into it, resize it, close it.
//! The shell and its screen live in the engine ([`tandem_engine::tools::terminal_panel`]); these only bridge.

use base64::Engine as _;
use tandem_engine::tools::terminal_panel::{Heard, describe_exit};
use tandem_protocol::{TerminalChunk, TerminalOpened};

use super::*;

/// Opens the session's terminal panel at `rows` by `cols` (the person's shell in the session's folder, or the
/// shell still running there, attached again); its output streams on `on_output`, first what redraws the screen as
/// it is now. Refused when the `TERMINAL_PANEL` switch is off.
#[tauri::command]
#[tracing::instrument(skip(state, on_output), err(Display))]
pub async fn open_terminal(
    state: State<'_, AppState>,
    session_id: String,
    rows: u16,
    cols: u16,
    on_output: Channel<TerminalChunk>,
) -> Result<TerminalOpened, CommandError> {
    let session = session_of(&state, &session_id)?;
    let listener = Box::new(move |heard: Heard<'_>| {
        let chunk = match heard {
            Heard::Output(bytes) => TerminalChunk::Output {
                data: base64::engine::general_purpose::STANDARD.encode(bytes),
            },
            Heard::Exited(exit) => TerminalChunk::Exited {
                message: format!("the shell has exited ({})", describe_exit(exit)),
            },
        };
        let _ = on_output.send(chunk);
    });
    let opened = session.terminal_panel().open(rows, cols, listener)?;
    Ok(TerminalOpened {
        shell: opened.shell,
        started: opened.started,
    })
}

/// Types `data` (the keys pressed in the panel, as the terminal encodes them) into the panel's shell.
#[tauri::command]
#[tracing::instrument(level = "debug", skip(state, data), err(Display))]
pub fn terminal_input(
    state: State<'_, AppState>,
    session_id: String,
    data: String,
) -> Result<(), CommandError> {
    Ok(session_of(&state, &session_id)?
        .terminal_panel()
        .type_bytes(data.as_bytes())?)
}

/// Gives the panel `rows` by `cols` (the panel was resized).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn resize_terminal(
    state: State<'_, AppState>,
    session_id: String,
    rows: u16,
    cols: u16,
) -> Result<(), CommandError> {
    Ok(session_of(&state, &session_id)?
        .terminal_panel()
        .resize(rows, cols)?)
}

/// Closes the panel: its shell and every job it started are killed. Closing a panel that is not open does nothing.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn close_terminal(state: State<'_, AppState>, session_id: String) -> Result<(), CommandError> {
    session_of(&state, &session_id)?.terminal_panel().close();
    Ok(())
}
