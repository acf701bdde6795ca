//! Bash command patterns as permission rules and `sandbox.excludedCommands` write them: exact (`npm test`), prefix
//! (`npm test *`, legacy `npm test:*`) and wildcard (`git * main`) forms, matched against a command's text.

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

    /// The literal text every matching command starts with (up to the first wildcard).
    pub fn literal_head(&self) -> &str {
        match &self.kind {
            Kind::Exact(t) | Kind::Prefix(t) => t.as_str(),
            Kind::Glob(pieces) => pieces[0].as_str(),
        }
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
