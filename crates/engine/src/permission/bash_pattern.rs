//! Bash rule patterns: exact, prefix (`npm test *`, legacy `npm test:*`) and wildcard (`git * main`) forms, and an
//! index by first word so that a thousand rules cost little per command.

use std::collections::HashMap;

use super::rule_id::RuleId;

/// A compiled `Bash(...)` specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BashPattern {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// No wildcard: the whole command must be this text.
    Exact(String),
    /// A trailing ` *` that is the only wildcard: the command is this text, or this text, a space and more.
    Prefix(String),
    /// Literal pieces between `*` wildcards.
    Glob(Vec<String>),
}

impl BashPattern {
    /// Compiles a specifier. `\*` is a literal star; a trailing `:*` means the same as ` *`.
    pub fn parse(spec: &str) -> Self {
        let spec = spec.trim();
        let spec = match spec.strip_suffix(":*") {
            Some(head) if !head.ends_with('\\') => format!("{} *", head.trim_end()),
            _ => spec.to_string(),
        };
        let mut pieces = vec![String::new()];
        let mut chars = spec.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if matches!(chars.peek(), Some('*') | Some('\\')) => {
                    if let (Some(next), Some(last)) = (chars.next(), pieces.last_mut()) {
                        last.push(next);
                    }
                }
                '*' => pieces.push(String::new()),
                _ => {
                    if let Some(last) = pieces.last_mut() {
                        last.push(c);
                    }
                }
            }
        }
        let kind = match pieces.len() {
            1 => Kind::Exact(pieces.remove(0)),
            2 if pieces[1].is_empty() && pieces[0].ends_with(' ') && pieces[0].trim() != "" => {
                Kind::Prefix(pieces[0].trim_end().to_string())
            }
            _ => Kind::Glob(pieces),
        };
        Self { kind }
    }

    /// Whether the pattern has no wildcard (only such rules approve exec wrappers).
    pub fn is_exact(&self) -> bool {
        matches!(self.kind, Kind::Exact(_))
    }

    /// Whether the pattern is `*` (the whole tool).
    pub fn is_any(&self) -> bool {
        matches!(&self.kind, Kind::Glob(p) if p.iter().all(|s| s.is_empty()))
    }

    /// The first word every matching command starts with, when the pattern fixes it.
    pub fn first_word(&self) -> Option<&str> {
        let literal = match &self.kind {
            Kind::Exact(t) | Kind::Prefix(t) => {
                return Some(t.split(' ').next().unwrap_or(t));
            }
            Kind::Glob(pieces) => pieces[0].as_str(),
        };
        literal.find(' ').map(|at| &literal[..at])
    }

    /// Whether `command` (a normalised command text) matches.
    pub fn matches(&self, command: &str) -> bool {
        match &self.kind {
            Kind::Exact(t) => command == t,
            Kind::Prefix(p) => {
                command.starts_with(p.as_str())
                    && (command.len() == p.len() || command[p.len()..].starts_with(' '))
            }
            Kind::Glob(pieces) => glob(pieces, command),
        }
    }
}

fn glob(pieces: &[String], text: &str) -> bool {
    let first = &pieces[0];
    let last = &pieces[pieces.len() - 1];
    if !text.starts_with(first.as_str()) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece.as_str()) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last.as_str())
}

/// Bash patterns of one list, indexed by the first word they fix.
#[derive(Debug, Clone, Default)]
pub struct BashIndex {
    by_word: HashMap<String, Vec<(RuleId, BashPattern)>>,
    general: Vec<(RuleId, BashPattern)>,
}

impl BashIndex {
    /// Adds the pattern of rule `id`.
    pub fn insert(&mut self, id: RuleId, pattern: BashPattern) {
        match pattern.first_word() {
            Some(word) => self
                .by_word
                .entry(word.to_string())
                .or_default()
                .push((id, pattern)),
            None => self.general.push((id, pattern)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_word.is_empty() && self.general.is_empty()
    }

    /// The first rule (lowest id) fixing more than a program name whose fixed words `prefix` (a command's first
    /// words, up to one only known when it runs) could lead to: `Bash(git push *)` for `git` followed by `$(…)`.
    pub fn names_words_after(&self, prefix: &str) -> Option<RuleId> {
        let word = prefix.split(' ').next().unwrap_or(prefix);
        self.by_word
            .get(word)?
            .iter()
            .filter(|(_, p)| {
                let literal = match &p.kind {
                    Kind::Exact(t) | Kind::Prefix(t) => t.as_str(),
                    Kind::Glob(pieces) => pieces[0].as_str(),
                };
                let literal = literal.trim_end();
                literal.contains(' ')
                    && (literal.starts_with(&format!("{prefix} ")) || prefix.starts_with(literal))
            })
            .map(|(id, _)| *id)
            .min()
    }

    /// The first rule (lowest id) whose pattern matches `command` and passes `accept`.
    pub fn find(&self, command: &str, accept: impl Fn(&BashPattern) -> bool) -> Option<RuleId> {
        let word = command.split(' ').next().unwrap_or(command);
        let keyed = self.by_word.get(word).map(|v| v.as_slice()).unwrap_or(&[]);
        keyed
            .iter()
            .chain(self.general.iter())
            .filter(|(_, p)| accept(p) && p.matches(command))
            .map(|(id, _)| *id)
            .min()
    }
}
