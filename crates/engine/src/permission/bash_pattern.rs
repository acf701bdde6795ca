//! The index of one list's Bash rule patterns by first word, so that a thousand rules cost little per command (the
//! patterns themselves are `shell::BashPattern`).

use std::collections::HashMap;

use super::rule_id::RuleId;
pub use crate::shell::BashPattern;

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
                let literal = p.literal_head().trim_end();
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
