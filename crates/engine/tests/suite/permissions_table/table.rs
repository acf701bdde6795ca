//! The syntax of `tests/tables/permissions.txt` (documented at its top): sections, set-up lines and cases.

use tandem_protocol::{DecisionBehavior, PermissionMode};

/// A fresh project, how to set it up, and the cases checked in it.
#[derive(Debug, Default)]
pub struct Section {
    pub setup: Vec<Setup>,
    pub cases: Vec<Case>,
}

/// One set-up line, paths still holding their placeholders.
#[derive(Debug)]
pub enum Setup {
    File { path: String, content: String },
    Dir(String),
    Link { path: String, target: String },
}

/// One row of the table.
#[derive(Debug)]
pub struct Case {
    pub line: usize,
    pub text: String,
    pub mode: PermissionMode,
    /// `(behavior, rule)` with the behavior as settings spell it.
    pub rules: Vec<(&'static str, String)>,
    pub tool: String,
    pub input: String,
    pub expect: Expect,
}

/// What the answer must be.
#[derive(Debug)]
pub struct Expect {
    pub decision: DecisionBehavior,
    pub rule: Option<String>,
    pub source_has: Option<String>,
    pub reason_has: Option<String>,
}

/// The sections of `text`, or every line that does not parse (`line N: why`).
pub fn parse(text: &str) -> Result<Vec<Section>, Vec<String>> {
    let mut sections: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            sections.push(Section::default());
            continue;
        }
        let Some(section) = sections.last_mut() else {
            errors.push(format!("line {line}: a row before the first [section]"));
            continue;
        };
        let parsed = if let Some(setup) = trimmed.strip_prefix('@') {
            if section.cases.is_empty() {
                parse_setup(setup).map(|s| section.setup.push(s))
            } else {
                Err("set-up lines come before the section's rows".to_string())
            }
        } else {
            parse_case(line, trimmed).map(|c| section.cases.push(c))
        };
        if let Err(why) = parsed {
            errors.push(format!("line {line}: {why}: {trimmed}"));
        }
    }
    if errors.is_empty() {
        Ok(sections)
    } else {
        Err(errors)
    }
}

fn parse_setup(text: &str) -> Result<Setup, String> {
    let (kind, rest) = text.split_once(' ').ok_or("a set-up line needs a path")?;
    let rest = rest.trim();
    match kind {
        "file" => {
            let (path, content) = rest.split_once(' ').unwrap_or((rest, ""));
            Ok(Setup::File {
                path: path.to_string(),
                content: content.trim().to_string(),
            })
        }
        "dir" => Ok(Setup::Dir(rest.to_string())),
        "link" => {
            let (path, target) = rest.split_once(" -> ").ok_or("@link PATH -> TARGET")?;
            Ok(Setup::Link {
                path: path.trim().to_string(),
                target: target.trim().to_string(),
            })
        }
        other => Err(format!("unknown set-up `@{other}`")),
    }
}

fn parse_case(line: usize, text: &str) -> Result<Case, String> {
    let mut cells = text.splitn(5, '|').map(str::trim);
    let mut next = |name: &str| cells.next().ok_or(format!("no {name} column"));
    let mode = next("mode")?;
    let rules = next("rules")?;
    let tool = next("tool")?;
    let answer = next("answer")?;
    let input = next("input")?;
    Ok(Case {
        line,
        text: text.to_string(),
        mode: PermissionMode::parse(mode).ok_or(format!("unknown mode `{mode}`"))?,
        rules: parse_rules(rules)?,
        tool: tool.to_string(),
        input: input.replace('⏎', "\n"),
        expect: parse_answer(answer)?,
    })
}

fn parse_rules(text: &str) -> Result<Vec<(&'static str, String)>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(", ")
        .map(|rule| {
            let behavior = match rule.chars().next() {
                Some('+') => "allow",
                Some('-') => "deny",
                Some('?') => "ask",
                _ => return Err(format!("a rule starts with +, - or ?: `{rule}`")),
            };
            Ok((behavior, rule[1..].to_string()))
        })
        .collect()
}

fn parse_answer(text: &str) -> Result<Expect, String> {
    let mut parts = text.split("; ").map(str::trim);
    let decision = match parts.next() {
        Some("allow") => DecisionBehavior::Allow,
        Some("ask") => DecisionBehavior::Ask,
        Some("deny") => DecisionBehavior::Deny,
        other => return Err(format!("the answer is allow, ask or deny, not {other:?}")),
    };
    let mut expect = Expect {
        decision,
        rule: None,
        source_has: None,
        reason_has: None,
    };
    for part in parts {
        if let Some(rule) = part.strip_prefix("rule=") {
            expect.rule = Some(rule.to_string());
        } else if let Some(source) = part.strip_prefix("source~") {
            expect.source_has = Some(source.to_string());
        } else if let Some(reason) = part.strip_prefix("reason~") {
            expect.reason_has = Some(reason.to_string());
        } else {
            return Err(format!("unknown check `{part}`"));
        }
    }
    Ok(expect)
}
