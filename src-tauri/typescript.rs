//! Renders the TypeScript declarations of the app's own IPC types (the start-up state, command errors, menu event
//! payloads) into `ui/src/generated/app.ts`, beside the protocol's. The app test `generated_types` fails when the
//! file is stale; `scripts/generate-types` regenerates it together with the protocol's file.

use ts_rs::{Config, TS};

use crate::commands::AppStateView;
use crate::commands::mcp::McpSignIn;
use crate::error::{CommandError, ErrorCode};
use crate::menu::OpenFolder;
use crate::settings::SavedSettings;

/// The header written at the top of the generated file.
const HEADER: &str = "// Generated from src-tauri by `scripts/generate-types`. Do not edit.\n\n\
                      import type { AppSettings, SessionInfo } from './protocol';\n";

/// Path of the generated file relative to the workspace root.
pub const GENERATED_PATH: &str = "ui/src/generated/app.ts";

fn decl<T: TS>(cfg: &Config) -> String {
    format!("export {}\n", T::decl(cfg))
}

/// The whole generated file.
pub fn render() -> String {
    let cfg = Config::default();
    let parts = [
        decl::<AppStateView>(&cfg),
        decl::<ErrorCode>(&cfg),
        decl::<CommandError>(&cfg),
        decl::<OpenFolder>(&cfg),
        decl::<McpSignIn>(&cfg),
        decl::<SavedSettings>(&cfg),
    ];
    let mut out = String::from(HEADER);
    for part in parts {
        out.push('\n');
        out.push_str(&part);
    }
    out
}
