//! The identity of a compiled rule, whose order is its priority.

/// A rule's position in its [`RuleSet`](super::RuleSet). Ids are handed out in priority order: a rule from a
/// higher-priority source (managed policy first, then `--settings` files, command-line flags, local, project, user
/// settings, session grants last), or earlier in its source's list, has the smaller id. So `Ord` is priority: when
/// several rules of one list match, the smallest id is the one that decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleId(usize);

impl RuleId {
    /// The id of the rule at `index` of the set's rules.
    pub(crate) fn at(index: usize) -> Self {
        Self(index)
    }

    /// The index of the rule in the set's rules.
    pub fn index(self) -> usize {
        self.0
    }
}
