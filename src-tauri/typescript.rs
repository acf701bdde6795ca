//! Renders the TypeScript declarations of the app's own IPC types (the start-up state, command errors, menu event
//! payloads) into `ui/src/generated/app.ts`, beside the protocol's, and one typed `invoke` wrapper per command of
//! the command table into `ui/src/generated/commands.ts`. The app test `generated_types` fails when a file is stale;
//! `scripts/generate-types` regenerates them together with the protocol's file.

use std::collections::BTreeSet;

use ts_rs::{Config, TS};

use crate::carry::{ImportSummary, ImportedSession};
use crate::command_table::CommandSignature;
use crate::commands::AppStateView;
use crate::commands::hosted::AgentServers;
use crate::commands::mcp::McpSignIn;
use crate::error::{CommandError, ErrorCode};
use crate::menu::{ImportChoice, OpenFolder, OpenRemote};
use crate::settings::SavedSettings;

/// The header written at the top of the generated file.
const HEADER: &str = "// Generated from src-tauri by `scripts/generate-types`. Do not edit.\n\n\
                      import type { AppSettings, SessionInfo } from './protocol';\n";

/// Path of the generated file relative to the workspace root.
pub const GENERATED_PATH: &str = "ui/src/generated/app.ts";

/// Path of the generated command bindings relative to the workspace root.
pub const COMMANDS_PATH: &str = "ui/src/generated/commands.ts";

/// A type's name and its declaration.
fn decl<T: TS>(cfg: &Config) -> (String, String) {
    (T::name(cfg), format!("export {}\n", T::decl(cfg)))
}

/// The types declared in `app.ts`, with their declarations.
fn app_types() -> [(String, String); 11] {
    let cfg = Config::default();
    [
        decl::<AppStateView>(&cfg),
        decl::<ErrorCode>(&cfg),
        decl::<CommandError>(&cfg),
        decl::<OpenFolder>(&cfg),
        decl::<McpSignIn>(&cfg),
        decl::<SavedSettings>(&cfg),
        decl::<ImportedSession>(&cfg),
        decl::<ImportSummary>(&cfg),
        decl::<ImportChoice>(&cfg),
        decl::<OpenRemote>(&cfg),
        decl::<AgentServers>(&cfg),
    ]
}

/// The whole generated `app.ts`.
pub fn render() -> String {
    let mut out = String::from(HEADER);
    for (_, part) in app_types() {
        out.push('\n');
        out.push_str(&part);
    }
    out
}

/// The whole generated `commands.ts`: for each command, a function named after it in camelCase taking its arguments
/// in order and resolving to its result, which invokes it with the arguments named as Tauri reads them.
pub fn render_commands(commands: &[CommandSignature]) -> String {
    let app: BTreeSet<String> = app_types().into_iter().map(|(name, _)| name).collect();
    let mut from_app = BTreeSet::new();
    let mut from_protocol = BTreeSet::new();
    let mut uses_channel = false;
    for command in commands {
        let types = command
            .args
            .iter()
            .map(|(_, ts)| ts.as_str())
            .chain([command.returns.as_str()]);
        for name in types.flat_map(type_names) {
            match name {
                "Array" | "Promise" | "Record" => {}
                "Channel" => uses_channel = true,
                _ if app.contains(name) => {
                    from_app.insert(name.to_owned());
                }
                _ => {
                    from_protocol.insert(name.to_owned());
                }
            }
        }
    }
    let mut out = String::from(COMMANDS_HEADER);
    out.push_str(if uses_channel {
        "import { invoke, type Channel } from '@tauri-apps/api/core';\n"
    } else {
        "import { invoke } from '@tauri-apps/api/core';\n"
    });
    for (names, module) in [(&from_app, "./app"), (&from_protocol, "./protocol")] {
        if !names.is_empty() {
            let list: Vec<&str> = names.iter().map(String::as_str).collect();
            out.push_str(&format!(
                "import type {{ {} }} from '{module}';\n",
                list.join(", ")
            ));
        }
    }
    for command in commands {
        let params: Vec<String> = command
            .args
            .iter()
            .map(|(name, ts)| format!("{}: {ts}", camel_case(name)))
            .collect();
        let names: Vec<String> = command
            .args
            .iter()
            .map(|(name, _)| camel_case(name))
            .collect();
        let args = if names.is_empty() {
            String::new()
        } else {
            format!(", {{ {} }}", names.join(", "))
        };
        out.push_str(&format!(
            "\nexport function {}({}): Promise<{returns}> {{\n  return invoke<{returns}>('{name}'{args});\n}}\n",
            camel_case(command.name),
            params.join(", "),
            returns = command.returns,
            name = command.name,
        ));
    }
    out
}

/// The header of `commands.ts`.
const COMMANDS_HEADER: &str = "// Generated from src-tauri/command_table.rs by `scripts/generate-types`. Do not edit.\n// \
                               One typed wrapper per command the app registers; src/ipc.ts is the only module that \
                               calls them.\n\n";

/// The type names a TypeScript type mentions (`Array<RewindPoint> | null` mentions `Array` and `RewindPoint`).
fn type_names(ts: &str) -> impl Iterator<Item = &str> {
    ts.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|word| word.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// `session_id` → `sessionId`: how Tauri names a command's arguments in the webview, and the wrappers' names.
pub fn camel_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}
