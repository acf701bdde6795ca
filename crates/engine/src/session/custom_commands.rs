//! The person's own slash commands: Markdown files in `~/.claude/commands` (user) and `<project>/.claude/commands`
//! (project; a project command replaces a user command of the same name). A file's name is the command
//! (`review.md` is `/review`); a subfolder gives a namespace (`frontend/component.md` is `/frontend:component`).
//! Optional frontmatter: `description`, `argument-hint`, `allowed-tools`, `model`. The body is the prompt the
//! model gets, with `$ARGUMENTS` (everything typed after the name) and `$1`, `$2`… (the typed words, quotes
//! grouping words) replaced. A broken file is reported with its path and left out; the others load. Plugins that are
//! on add theirs, named `<plugin>:<name>`.

use std::path::{Path, PathBuf};

use tandem_protocol::SlashCommandSource;

use crate::frontmatter::{self, Value};

/// Folders deeper than this under `commands` are not searched (a link loop or a vendored tree).
const MAX_DEPTH: usize = 4;
/// The longest description taken from a body's first line.
const MAX_DESCRIPTION_CHARS: usize = 100;

/// One custom command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomCommand {
    /// Without the slash: `review`, `frontend:component`.
    pub name: String,
    pub description: String,
    pub argument_hint: Option<String>,
    /// Permission rules the frontmatter asks to allow while the command's turn runs.
    pub allowed_tools: Vec<String>,
    /// The model the frontmatter asks for, if any.
    pub model: Option<String>,
    pub body: String,
    pub path: PathBuf,
    /// [`SlashCommandSource::User`], [`SlashCommandSource::Project`] or [`SlashCommandSource::Plugin`].
    pub source: SlashCommandSource,
    /// Whether its `allowed-tools` wait for the folder's trust: a project's command, or a plugin's that only the
    /// project's settings turn on.
    pub waits_for_trust: bool,
}

/// A command file that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFileIssue {
    pub path: PathBuf,
    pub message: String,
}

/// The custom commands of a folder, with the problems met loading them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandCatalog {
    pub commands: Vec<CustomCommand>,
    pub issues: Vec<CommandFileIssue>,
}

impl CommandCatalog {
    /// The user's commands (`home/.claude/commands`), then the project's (`project/.claude/commands`).
    pub fn load(project: &Path, home: Option<&Path>) -> Self {
        let mut catalog = Self::default();
        if let Some(home) = home {
            catalog.load_folder(&home.join(".claude/commands"), SlashCommandSource::User);
        }
        catalog.load_folder(
            &project.join(".claude/commands"),
            SlashCommandSource::Project,
        );
        catalog.commands.sort_by(|a, b| a.name.cmp(&b.name));
        catalog
    }

    fn load_folder(&mut self, root: &Path, source: SlashCommandSource) {
        let mut files = Vec::new();
        collect(root, root, 0, &mut files);
        files.sort();
        for (path, name) in files {
            match load_file(&path, name, source) {
                Ok(command) => {
                    self.commands.retain(|c| c.name != command.name);
                    self.commands.push(command);
                }
                Err(message) => self.issues.push(CommandFileIssue { path, message }),
            }
        }
    }

    /// The commands of a plugin's command file or folder, each named `<plugin>:<name>` (a subfolder adds its
    /// name: `<plugin>:<sub>:<name>`); with `waits_for_trust`, their `allowed-tools` wait for the folder's trust.
    /// A plugin's command replaces one of the same full name loaded before it.
    pub fn load_plugin_path(&mut self, path: &Path, plugin: &str, waits_for_trust: bool) {
        let mut files = Vec::new();
        if path.is_file() {
            if let Some(stem) = path.file_stem() {
                files.push((path.to_path_buf(), stem.to_string_lossy().into_owned()));
            }
        } else {
            collect(path, path, 0, &mut files);
        }
        files.sort();
        for (file, name) in files {
            match load_file(
                &file,
                format!("{plugin}:{name}"),
                SlashCommandSource::Plugin,
            ) {
                Ok(mut command) => {
                    command.waits_for_trust = waits_for_trust;
                    self.commands.retain(|c| c.name != command.name);
                    self.commands.push(command);
                }
                Err(message) => self.issues.push(CommandFileIssue {
                    path: file,
                    message,
                }),
            }
        }
        self.commands.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// The command called `name` (a leading `/` is ignored).
    pub fn find(&self, name: &str) -> Option<&CustomCommand> {
        let name = name.trim_start_matches('/');
        self.commands.iter().find(|c| c.name == name)
    }

    /// The command and the typed arguments of a prompt `/name args`, if it names one of these commands.
    pub fn invoked<'a, 'b>(&'a self, prompt: &'b str) -> Option<(&'a CustomCommand, &'b str)> {
        let rest = prompt.trim_start().strip_prefix('/')?;
        let (name, args) = rest
            .split_once(char::is_whitespace)
            .unwrap_or((rest.trim_end(), ""));
        self.find(name).map(|command| (command, args.trim()))
    }
}

/// The `.md` files under `folder` with their command names (`sub:name`).
fn collect(root: &Path, folder: &Path, depth: usize, out: &mut Vec<(PathBuf, String)>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(root, &path, depth + 1, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let Ok(relative) = path
                .with_extension("")
                .strip_prefix(root)
                .map(Path::to_path_buf)
            else {
                continue;
            };
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push((path, parts.join(":")));
        }
    }
}

/// Reads one command file: the command, or what makes it unusable.
fn load_file(
    path: &Path,
    name: String,
    source: SlashCommandSource,
) -> Result<CustomCommand, String> {
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        return Err(format!(
            "the command name `{name}` (from the file name) may not contain spaces or parentheses"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot be read: {e}"))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let (fields, body) = if text.lines().next().is_some_and(|l| l.trim_end() == "---") {
        let doc = frontmatter::parse(text)?;
        (doc.fields, doc.body)
    } else {
        (Vec::new(), text.trim().to_string())
    };
    let field = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let text_of = |key: &str| {
        field(key)
            .map(Value::text)
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    if body.trim().is_empty() {
        return Err("the command has no text after its frontmatter".into());
    }
    let description = text_of("description").unwrap_or_else(|| first_line(&body));
    Ok(CustomCommand {
        name,
        description,
        argument_hint: text_of("argument-hint"),
        allowed_tools: field("allowed-tools")
            .or_else(|| field("allowedTools"))
            .map(Value::items)
            .unwrap_or_default(),
        model: text_of("model"),
        body,
        path: path.to_path_buf(),
        source,
        waits_for_trust: source == SlashCommandSource::Project,
    })
}

/// A body's first line of text, as a description.
fn first_line(body: &str) -> String {
    let line = body
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if line.chars().count() > MAX_DESCRIPTION_CHARS {
        let cut: String = line.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

/// The typed arguments as words: split at white space, `"…"` or `'…'` grouping words (the quotes dropped).
pub fn split_arguments(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in args.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The body with `$ARGUMENTS` replaced by `args` and `$1`…`$9` (and `${10}`-style numbers written `$10`) by the
/// typed words (empty when fewer were typed). A body with no placeholder gets the arguments appended, so nothing
/// typed is lost.
pub fn substitute(body: &str, args: &str) -> String {
    let args = args.trim();
    let words = split_arguments(args);
    let mut out = String::with_capacity(body.len() + args.len());
    let mut used = false;
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            out.push_str(args);
            used = true;
            rest = tail;
            continue;
        }
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        match after[..digits].parse::<usize>() {
            Ok(n) if n >= 1 => {
                out.push_str(words.get(n - 1).map(String::as_str).unwrap_or_default());
                used = true;
                rest = &after[digits..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if !used && !args.is_empty() {
        out.push_str(&format!("\n\nARGUMENTS: {args}"));
    }
    out
}

/// What the model is given for `command` invoked with `args`: the typed command, then the expanded body.
pub fn invocation_text(command: &CustomCommand, args: &str) -> String {
    format!(
        "<command-name>/{}</command-name>\n<command-args>{}</command-args>\n\n{}",
        command.name,
        args.trim(),
        substitute(&command.body, args)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_names_a_command_and_its_arguments() {
        let catalog = CommandCatalog {
            commands: vec![CustomCommand {
                name: "git:commit".into(),
                description: String::new(),
                argument_hint: None,
                allowed_tools: Vec::new(),
                model: None,
                body: "b".into(),
                path: PathBuf::new(),
                source: SlashCommandSource::User,
                waits_for_trust: false,
            }],
            issues: Vec::new(),
        };
        let named = |p: &str| {
            catalog
                .invoked(p)
                .map(|(c, a)| (c.name.clone(), a.to_string()))
        };
        assert_eq!(
            named("/git:commit  fix it "),
            Some(("git:commit".into(), "fix it".into()))
        );
        assert_eq!(
            named("/git:commit"),
            Some(("git:commit".into(), String::new()))
        );
        assert_eq!(named("/git"), None);
        assert_eq!(named("git:commit"), None);
    }

    #[test]
    fn descriptions_default_to_the_first_line() {
        assert_eq!(first_line("\n# Review the code\nmore"), "Review the code");
        assert_eq!(
            first_line(&"x".repeat(300)).chars().count(),
            MAX_DESCRIPTION_CHARS
        );
    }
}
