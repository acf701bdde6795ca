//! The system prompt: who the agent is, the environment, and the project's and user's CLAUDE.md files.

use std::path::Path;

/// Reads `path` if it exists and is not empty.
fn read_if_present(path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// The system prompt blocks for a session in `cwd`: instructions and environment first, then memory files.
pub fn build_system_prompt(cwd: &Path, home: Option<&Path>, today: &str) -> Vec<String> {
    let mut blocks = vec![format!(
        "You are Tandem, a coding agent working with a person on the project in the working directory. Use the \
         tools to read and change files; the person sees every call and approves what needs approval.\n\n\
         <env>\nWorking directory: {}\nPlatform: {}\nToday's date: {today}\n</env>",
        cwd.display(),
        std::env::consts::OS,
    )];
    let mut memory = String::new();
    if let Some(home) = home
        && let Some(text) = read_if_present(&home.join(".claude/CLAUDE.md"))
    {
        memory.push_str(&format!(
            "Contents of {} (the user's instructions for all projects):\n\n{text}\n\n",
            home.join(".claude/CLAUDE.md").display()
        ));
    }
    for name in ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] {
        let path = cwd.join(name);
        if let Some(text) = read_if_present(&path) {
            memory.push_str(&format!(
                "Contents of {} (the project's instructions):\n\n{text}\n\n",
                path.display()
            ));
        }
    }
    if !memory.is_empty() {
        blocks.push(format!("<memory>\n{}</memory>", memory));
    }
    blocks
}
