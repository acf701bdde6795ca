//! The deny rules on reading as one predicate, for tools that read many files the check did not see one by one
//! (Grep, Glob). Apart from the context because it composes the path rule lookups that take a context.

use std::sync::Arc;

use super::context::PermissionContext;
use super::path_forms::PathForms;
use super::rule::RuleBehavior;
use super::verdict::{families, path_rule};
use crate::tool::ReadDenied;

impl PermissionContext {
    /// What `tool` may not read under the deny rules (`Read(…)` and the tool's own path rules), for tools that read
    /// many files the check did not see one by one; `None` when no such rule exists, so that searches pay nothing.
    pub fn read_denier(self: &Arc<Self>, tool: &str) -> Option<ReadDenied> {
        let fams = families(tool, false, RuleBehavior::Deny);
        if !fams
            .iter()
            .any(|f| self.rules.has_path_rules(RuleBehavior::Deny, f))
        {
            return None;
        }
        let ctx = Arc::clone(self);
        let fams: Vec<String> = fams.into_iter().map(str::to_string).collect();
        Some(ReadDenied::new(move |path| {
            path_rule(&ctx, RuleBehavior::Deny, &fams, &PathForms::of(path)).is_some()
        }))
    }
}
