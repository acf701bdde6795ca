//! The session's skills as they grow: the catalog loaded when the session started, and the skills of nested
//! `.claude/skills` folders below the project (a monorepo's `packages/web/.claude/skills`), found when the session's
//! file tools first touch a file under the folder that holds them. A nested skill never replaces one already known
//! by its name; folders the project's `.gitignore` ignores, `node_modules` and hidden folders are not looked in.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use ignore::gitignore::Gitignore;

use super::catalog::{SkillCatalog, SkillDefinition, SkillFileIssue};

/// Skills found in one nested folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSkills {
    /// The `.claude/skills` folder.
    pub folder: PathBuf,
    /// The skills it added.
    pub skills: Vec<SkillDefinition>,
    /// Its files that could not be used, and skills left out because their name was taken.
    pub issues: Vec<SkillFileIssue>,
}

/// The catalog now, and where to look for more.
pub struct LiveSkills {
    current: RwLock<Arc<SkillCatalog>>,
    /// `None`: the catalog never grows (a catalog for checking rules, or tests).
    project: Option<PathBuf>,
    ignored: Option<Gitignore>,
    /// Folders already looked at (each with every folder above it up to the project).
    checked: Mutex<HashSet<PathBuf>>,
    /// Skills a deny rule removes (`Skill(name)`).
    denied: Box<dyn Fn(&str) -> bool + Send + Sync>,
}

impl std::fmt::Debug for LiveSkills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveSkills")
            .field("current", &self.snapshot())
            .field("project", &self.project)
            .finish()
    }
}

impl LiveSkills {
    /// `catalog`, growing with the nested skill folders found below `project`; `denied` names skills deny rules
    /// remove.
    pub fn new(
        catalog: SkillCatalog,
        project: &Path,
        denied: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        let (ignored, _) = Gitignore::new(project.join(".gitignore"));
        Self {
            current: RwLock::new(Arc::new(catalog)),
            project: Some(project.to_path_buf()),
            ignored: Some(ignored),
            checked: Mutex::new(HashSet::new()),
            denied: Box::new(denied),
        }
    }

    /// `catalog` as it is, never growing.
    pub fn fixed(catalog: SkillCatalog) -> Self {
        Self {
            current: RwLock::new(Arc::new(catalog)),
            project: None,
            ignored: None,
            checked: Mutex::new(HashSet::new()),
            denied: Box::new(|_| false),
        }
    }

    /// Whether skills may still be found (nested folders below a project).
    pub fn may_grow(&self) -> bool {
        self.project.is_some()
    }

    /// The catalog now.
    pub fn snapshot(&self) -> Arc<SkillCatalog> {
        match self.current.read() {
            Ok(c) => c.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Looks for skill folders from `path`'s folder up to (not including) the project root, in folders not looked
    /// at before; adds what they hold and returns it (nearest folder first). A path outside the project finds
    /// nothing.
    pub fn discover(&self, path: &Path) -> Vec<FoundSkills> {
        let Some(project) = &self.project else {
            return Vec::new();
        };
        let mut folders = Vec::new();
        {
            let Ok(mut checked) = self.checked.lock() else {
                return Vec::new();
            };
            for dir in path.ancestors().skip(1) {
                if dir == project || !dir.starts_with(project) || !checked.insert(dir.to_path_buf())
                {
                    break;
                }
                let skills = dir.join(".claude/skills");
                if skills.is_dir() && !self.ignored_below(project, dir) {
                    folders.push(skills);
                }
            }
        }
        folders
            .into_iter()
            .filter_map(|folder| self.add(folder))
            .collect()
    }

    /// Whether `dir` (below `project`) is a folder skills are not looked for in.
    fn ignored_below(&self, project: &Path, dir: &Path) -> bool {
        let Ok(relative) = dir.strip_prefix(project) else {
            return true;
        };
        let hidden = relative.components().any(|c| {
            let name = c.as_os_str().to_string_lossy();
            name.starts_with('.') || name == "node_modules"
        });
        hidden
            || self
                .ignored
                .as_ref()
                .is_some_and(|g| g.matched_path_or_any_parents(relative, true).is_ignore())
    }

    /// Adds the skills of `folder` whose names are free; what it added, if anything was found.
    fn add(&self, folder: PathBuf) -> Option<FoundSkills> {
        let nested = SkillCatalog::load_nested(&folder);
        let mut slot = match self.current.write() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut catalog = (**slot).clone();
        let mut found = FoundSkills {
            folder,
            skills: Vec::new(),
            issues: nested.issues,
        };
        for skill in nested.skills {
            if (self.denied)(&skill.name) {
                continue;
            }
            if catalog.find(&skill.name).is_some() {
                found.issues.push(SkillFileIssue {
                    message: format!(
                        "left out: a skill named `{}` is already available",
                        skill.name
                    ),
                    path: skill.path,
                });
                continue;
            }
            catalog.skills.push(skill.clone());
            found.skills.push(skill);
        }
        catalog.skills.sort_by(|a, b| a.name.cmp(&b.name));
        catalog.issues.extend(found.issues.iter().cloned());
        *slot = Arc::new(catalog);
        (!found.skills.is_empty() || !found.issues.is_empty()).then_some(found)
    }
}
