//! The skills of a session: `~/.claude/skills/<name>/SKILL.md`, then `<project>/.claude/skills/<name>/SKILL.md` (a
//! project skill replaces a user skill of the same name). Each file has frontmatter (`name`, `description`,
//! `allowed-tools`, `model`) and a body: the instructions the model gets when the skill is invoked. A broken file is
//! reported with its path and left out; the others load. Plugins that are on add theirs, named `<plugin>:<name>`.

use std::path::{Path, PathBuf};

use crate::frontmatter::{self, Value};

/// Where a skill comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillSource {
    User,
    Project,
    /// A plugin that is on.
    Plugin,
}

/// One skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillDefinition {
    pub name: String,
    pub description: String,
    /// Permission rules (`Bash(git *)`, `Read`) the skill allows without asking once invoked.
    pub allowed_tools: Vec<String>,
    /// The model the skill asks for, if any.
    pub model: Option<String>,
    /// The SKILL.md file.
    pub path: PathBuf,
    /// The instructions.
    pub body: String,
    pub source: SkillSource,
}

impl SkillDefinition {
    /// The folder of the skill (its other files are relative to it).
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(&self.path)
    }
}

/// A problem with one skill file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFileIssue {
    pub path: PathBuf,
    pub message: String,
}

/// The skills available, with the problems found loading them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillCatalog {
    pub skills: Vec<SkillDefinition>,
    pub issues: Vec<SkillFileIssue>,
}

impl SkillCatalog {
    /// The user's skills (`home/.claude/skills`), then the project's (`project/.claude/skills`).
    pub fn load(project: &Path, home: Option<&Path>) -> Self {
        let mut catalog = Self::default();
        if let Some(home) = home {
            catalog.load_folder(&home.join(".claude/skills"), SkillSource::User);
        }
        catalog.load_folder(&project.join(".claude/skills"), SkillSource::Project);
        catalog
    }

    /// The skills of a plugin's skills folder (`<name>/SKILL.md`, or a skill's own folder), each named
    /// `<plugin>:<name>`; one replaces a skill of the same full name loaded before it.
    pub fn load_plugin_folder(&mut self, folder: &Path, plugin: &str) {
        let own = folder.join("SKILL.md");
        let mut files: Vec<PathBuf> = match own.is_file() {
            true => vec![own],
            false => std::fs::read_dir(folder)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok().map(|e| e.path().join("SKILL.md")))
                        .filter(|p| p.is_file())
                        .collect()
                })
                .unwrap_or_default(),
        };
        files.sort();
        for path in files {
            match load_file(&path, SkillSource::Plugin) {
                Ok(mut skill) => {
                    skill.name = format!("{plugin}:{}", skill.name);
                    self.skills.retain(|s| s.name != skill.name);
                    self.skills.push(skill);
                }
                Err(message) => self.issues.push(SkillFileIssue { path, message }),
            }
        }
        self.skills.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// The skills of one `.claude/skills` folder (a nested one, found below the project).
    pub fn load_nested(folder: &Path) -> Self {
        let mut catalog = Self::default();
        catalog.load_folder(folder, SkillSource::Project);
        catalog
    }

    fn load_folder(&mut self, folder: &Path, source: SkillSource) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path().join("SKILL.md")))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for path in files {
            match load_file(&path, source) {
                Ok(skill) => {
                    self.skills.retain(|s| s.name != skill.name);
                    self.skills.push(skill);
                }
                Err(message) => self.issues.push(SkillFileIssue { path, message }),
            }
        }
        self.skills.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// The skill called `name`.
    pub fn find(&self, name: &str) -> Option<&SkillDefinition> {
        let name = name.trim_start_matches('/');
        self.skills.iter().find(|s| s.name == name)
    }

    /// The catalog without the skills `removed` names (e.g. those a `Skill(name)` deny rule removes).
    pub fn without(&self, removed: impl Fn(&str) -> bool) -> Self {
        Self {
            skills: self
                .skills
                .iter()
                .filter(|s| !removed(&s.name))
                .cloned()
                .collect(),
            issues: self.issues.clone(),
        }
    }

    /// Names and descriptions, for the system prompt and the `/` menu.
    pub fn summaries(&self) -> Vec<(String, String)> {
        self.skills
            .iter()
            .map(|s| (s.name.clone(), s.description.clone()))
            .collect()
    }
}

/// Reads one SKILL.md: the skill, or what makes it unusable. The name defaults to the folder's.
fn load_file(path: &Path, source: SkillSource) -> Result<SkillDefinition, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot be read: {e}"))?;
    let doc = frontmatter::parse(&text)?;
    let field = |key: &str| doc.get(key);
    let text_of = |key: &str| doc.text(key);
    let folder_name = path
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = text_of("name").unwrap_or(folder_name);
    if name.is_empty()
        || name.contains(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '/')
    {
        return Err(format!(
            "the name `{name}` may not be empty or contain spaces, slashes or parentheses"
        ));
    }
    let description = text_of("description").ok_or("the frontmatter has no `description`")?;
    let allowed_tools = field("allowed-tools")
        .or_else(|| field("allowedTools"))
        .map(Value::items)
        .unwrap_or_default();
    Ok(SkillDefinition {
        name,
        description,
        allowed_tools,
        model: text_of("model"),
        path: path.to_path_buf(),
        body: doc.body.trim().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn skills_load_from_home_and_project_and_a_broken_file_is_reported() {
        let project = tempfile::tempdir().expect("project");
        let home = tempfile::tempdir().expect("home");
        write(
            home.path(),
            ".claude/skills/release/SKILL.md",
            "---\nname: release\ndescription: User release steps\n---\nUser body",
        );
        write(
            project.path(),
            ".claude/skills/release/SKILL.md",
            "---\ndescription: Cut a release\nallowed-tools: Bash(git tag *), Read\nmodel: haiku\n---\n\nTag it.\n",
        );
        write(
            project.path(),
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf-tools\ndescription: \"Work with PDFs\"\nallowed-tools:\n  - Read\n---\nUse pdftotext.",
        );
        write(
            project.path(),
            ".claude/skills/broken/SKILL.md",
            "---\nname: broken\n---\nno description",
        );
        write(
            project.path(),
            ".claude/skills/unclosed/SKILL.md",
            "---\nname: x\n",
        );
        write(
            project.path(),
            ".claude/skills/empty-folder/notes.md",
            "not a skill",
        );

        let catalog = SkillCatalog::load(project.path(), Some(home.path()));
        let names: Vec<&str> = catalog.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["pdf-tools", "release"]);
        let release = catalog.find("/release").expect("release");
        assert_eq!(
            release.source,
            SkillSource::Project,
            "the project's replaces the user's"
        );
        assert_eq!(release.description, "Cut a release");
        assert_eq!(release.allowed_tools, ["Bash(git tag *)", "Read"]);
        assert_eq!(release.model.as_deref(), Some("haiku"));
        assert_eq!(release.body, "Tag it.");
        assert_eq!(
            catalog.find("pdf-tools").map(|s| s.allowed_tools.clone()),
            Some(vec!["Read".to_string()])
        );
        assert_eq!(catalog.issues.len(), 2, "{:?}", catalog.issues);
        assert!(
            catalog
                .issues
                .iter()
                .any(|i| i.path.ends_with("broken/SKILL.md") && i.message.contains("description"))
        );
        assert!(
            catalog
                .issues
                .iter()
                .any(|i| i.path.ends_with("unclosed/SKILL.md"))
        );
        assert_eq!(catalog.without(|n| n == "release").summaries().len(), 1);
    }
}
