//! The window's terminal panel (behind `TERMINAL_PANEL`; docs/terminal-panel.md): the person's own shell in a PTY,
//! its screen kept here as the Tungsten tool keeps its terminals' ([`crate::tools::tungsten::terminal`]), and the
//! TerminalCapture tool, which lets the model read what the panel shows. The window only bridges: it opens the
//! panel, types into it, resizes it and plays its output.

mod capture;
mod panel;
mod render;
mod slot;

pub use capture::{MAX_LINES, TerminalCaptureInput, TerminalCaptureTool};
pub use panel::{SCROLLBACK_LINES, TerminalPanel};
pub use slot::{PanelError, PanelHost, PanelOpened, PanelSlot};

pub use crate::tools::tungsten::terminal::{Heard, Listener, describe_exit};
