//! The system prompt: who the agent is, the environment, and the project's and user's CLAUDE.md files.

use std::path::Path;

/// Reads `path` if it exists and is not empty.
fn read_if_present(path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// Most characters of `git status` put in the prompt.
const GIT_STATUS_CHARS: usize = 2_000;

/// A short summary of the repository state at `cwd`: branch and changed files, or that it is not a repository.
pub fn git_summary(cwd: &Path) -> String {
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(cwd)
        .args([
            "status",
            "--porcelain=v1",
            "--branch",
            "--untracked-files=normal",
        ])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    match output {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            let mut summary: String = text.chars().take(GIT_STATUS_CHARS).collect();
            if text.chars().count() > GIT_STATUS_CHARS {
                summary.push_str("\n… (more changes not shown)");
            }
            format!(
                "Is a git repository: yes\nGit status (porcelain):\n{}",
                summary.trim_end()
            )
        }
        _ => "Is a git repository: no".to_string(),
    }
}

/// The system prompt blocks for a session in `cwd`: instructions and environment first, then memory files.
pub fn build_system_prompt(cwd: &Path, home: Option<&Path>, today: &str) -> Vec<String> {
    let mut blocks = vec![format!(
        "You are Tandem, a coding agent working with a person on the project in the working directory. Use the \
         tools to read and change files; the person sees every call and approves what needs approval.\n\n\
         <env>\nWorking directory: {}\nPlatform: {}\nToday's date: {today}\n{}\n</env>",
        cwd.display(),
        std::env::consts::OS,
        git_summary(cwd),
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

/// The block naming the skills the model may invoke with the Skill tool: names and descriptions only (a skill's
/// instructions are given when it is invoked). `None` without skills.
pub fn skills_prompt(skills: &[(String, String)]) -> Option<String> {
    if skills.is_empty() {
        return None;
    }
    let mut block = String::from(
        "<skills>\nSkills you can invoke with the Skill tool when a request matches one (its instructions are \
         given when invoked):\n",
    );
    for (name, description) in skills {
        block.push_str(&format!("- {name}: {description}\n"));
    }
    block.push_str("</skills>");
    Some(block)
}

/// What the session's agent is told in the coordinator mode, where it has no tools of its own to do the work with.
pub const COORDINATOR_PROMPT: &str = "You are a coordinator. You do not read, search or change files or run \
commands yourself: your tools start sub-agents (Agent), read the results of those running in the background \
(TaskOutput), stop them (TaskStop) and message teammates (SendMessage). Split the work into clear, self-contained \
tasks, give each sub-agent everything it needs in its prompt (it does not see this conversation), run independent \
tasks in the background at the same time, check what they report, and answer the user with the combined result.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_are_listed_by_name_and_description_only() {
        assert_eq!(skills_prompt(&[]), None);
        let block = skills_prompt(&[("pdf".into(), "Work with PDFs".into())]).expect("a block");
        assert!(
            block.contains("- pdf: Work with PDFs") && block.starts_with("<skills>"),
            "{block}"
        );
    }

    #[test]
    fn the_prompt_has_the_environment_and_the_memory_files() {
        let project = tempfile::tempdir().expect("project");
        let home = tempfile::tempdir().expect("home");
        std::fs::write(project.path().join("CLAUDE.md"), "Use tabs.").expect("write");
        std::fs::create_dir_all(home.path().join(".claude")).expect("mkdir");
        std::fs::write(home.path().join(".claude/CLAUDE.md"), "Be brief.").expect("write");
        let blocks = build_system_prompt(project.path(), Some(home.path()), "2026-12-02");
        assert!(
            blocks[0].contains(&project.path().display().to_string())
                && blocks[0].contains("2026-12-02")
        );
        assert!(blocks[0].contains("Is a git repository: no"));
        assert!(blocks[1].contains("Use tabs.") && blocks[1].contains("Be brief."));
        assert!(
            blocks[1].find("Be brief.") < blocks[1].find("Use tabs."),
            "user memory before project memory"
        );
    }

    #[test]
    fn a_repository_reports_its_branch_and_changes() {
        let project = tempfile::tempdir().expect("project");
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .arg("-C")
                .arg(project.path())
                .args(args)
                .output()
                .expect("git runs")
        };
        git(&["init", "-q", "-b", "trunk"]);
        std::fs::write(project.path().join("new.txt"), "x").expect("write");
        let summary = git_summary(project.path());
        assert!(
            summary.contains("yes") && summary.contains("trunk") && summary.contains("?? new.txt"),
            "{summary}"
        );
    }
}
