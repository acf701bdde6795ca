//! The built-in tools every conversation starts from.

use std::sync::Arc;

use crate::tool::{DynTool, erase};
use crate::tools;

/// Every built-in tool, the shell tools keeping their files in a fresh temporary folder.
pub fn builtin_tools() -> Vec<Arc<dyn DynTool>> {
    builtin_tools_with(Arc::new(tools::bash::ShellSession::temporary()))
}

/// Every built-in tool, the shell tools (Bash, TaskOutput, TaskStop) sharing `shell`: one per session.
pub fn builtin_tools_with(shell: Arc<tools::bash::ShellSession>) -> Vec<Arc<dyn DynTool>> {
    let mut all = vec![
        erase(tools::read::ReadTool),
        erase(tools::write::WriteTool),
        erase(tools::edit::EditTool),
        erase(tools::notebook_edit::NotebookEditTool),
        erase(tools::glob::GlobTool),
        erase(tools::grep::GrepTool),
        erase(tools::web_fetch::WebFetchTool::default()),
    ];
    all.extend(tools::bash::tools(shell));
    all
}
