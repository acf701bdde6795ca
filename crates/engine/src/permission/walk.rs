//! Whether a folder holds anything a read deny (or ask) rule covers: for commands and tools that read every file
//! under a folder (`grep -r`, `rg`, `git log -p`, `tar c`, the Grep and Glob tools). The folder is walked as it is on
//! disk (without following links), skipping what `.gitignore` excludes when the reader does too, up to a bound:
//! past it, or where a folder cannot be listed, the answer is "perhaps", which asks.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::PermissionContext;
use super::path_forms::PathForms;
use super::rule::RuleBehavior;
use super::rule_id::RuleId;
use super::verdict::{families, path_rule};

/// Most entries looked at under one folder before the answer is "perhaps".
const MAX_ENTRIES: usize = 20_000;

/// What a walk found under a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Covered {
    /// This path is covered by this rule.
    Path(RuleId, PathBuf),
    /// The folder holds more than can be checked, or a folder that cannot be listed, and rules of this kind exist:
    /// rule `RuleId` may cover something.
    Perhaps(RuleId),
}

/// Whether list `b` has a path rule that reads by `tool` would meet.
fn has_rules(ctx: &PermissionContext, b: RuleBehavior, tool: &str) -> bool {
    families(tool, false, b)
        .iter()
        .any(|f| ctx.rules.has_path_rules(b, f))
}

/// The first rule of list `b` some rule-covered path under `root` meets, reading as `tool`; `ignores`: skip what
/// `.gitignore` files exclude.
pub(crate) fn covered_under(
    ctx: &PermissionContext,
    b: RuleBehavior,
    tool: &str,
    root: &PathForms,
    ignores: bool,
) -> Option<Covered> {
    if !has_rules(ctx, b, tool) {
        return None;
    }
    let fams = families(tool, false, b);
    let check = |lexical: &Path| {
        let rel = lexical.strip_prefix(&root.lexical).unwrap_or(Path::new(""));
        let forms = PathForms {
            lexical: lexical.to_path_buf(),
            resolved: root.resolved.join(rel),
        };
        path_rule(ctx, b, &fams, &forms)
    };
    if let Some(id) = check(&root.lexical) {
        return Some(Covered::Path(id, root.lexical.clone()));
    }
    if !root.resolved.is_dir() {
        return None;
    }
    // Where a covered path could be: a whole-family rule or a rule whose folder holds the root means anywhere under
    // the root; a rule whose folder lies under the root, only there (and only if that folder may exist: one this
    // process cannot look into is walked, and the walk's error answers "perhaps").
    let mut starts: Vec<PathBuf> = Vec::new();
    for fam in &fams {
        if ctx.rules.tool_level(b, fam).is_some() {
            starts = vec![root.lexical.clone()];
            break;
        }
        for (_, prefix) in ctx.rules.path_prefixes(b, fam) {
            for (base, form) in [
                (&root.lexical, &root.lexical),
                (&root.resolved, &root.lexical),
            ] {
                if base.starts_with(&prefix) {
                    starts.push(form.clone());
                } else if prefix.starts_with(base) && prefix.try_exists().unwrap_or(true) {
                    let rel = prefix.strip_prefix(base).unwrap_or(Path::new(""));
                    starts.push(form.join(rel));
                }
            }
        }
    }
    starts.sort();
    starts.dedup();
    if starts.contains(&root.lexical) {
        starts = vec![root.lexical.clone()];
    }
    let mut seen = 0usize;
    for start in starts {
        match walk_from(ctx, b, &fams, &start, ignores, &check, &mut seen) {
            Some(found) => return Some(found),
            None => continue,
        }
    }
    None
}

/// Walks `start` for a path `check` finds covered; `seen` counts entries across walks, up to the bound.
fn walk_from(
    ctx: &PermissionContext,
    b: RuleBehavior,
    fams: &[&str],
    start: &Path,
    ignores: bool,
    check: &impl Fn(&Path) -> Option<RuleId>,
    seen: &mut usize,
) -> Option<Covered> {
    let walker = ignore::WalkBuilder::new(start)
        .standard_filters(false)
        .git_ignore(ignores)
        .git_exclude(ignores)
        .git_global(ignores)
        .ignore(ignores)
        .parents(ignores)
        .follow_links(false)
        .build();
    for entry in walker {
        *seen += 1;
        let entry = match entry {
            Ok(entry) => entry,
            // Gone since it was listed: it holds nothing to read.
            Err(e) if e.io_error().map(std::io::Error::kind) == Some(ErrorKind::NotFound) => {
                continue;
            }
            // A folder that cannot be listed here may hold what the rules cover (a command run with more rights
            // than this process, `sudo grep -r`, would read it).
            Err(_) => return first_rule(ctx, b, fams).map(Covered::Perhaps),
        };
        if *seen > MAX_ENTRIES {
            return first_rule(ctx, b, fams).map(Covered::Perhaps);
        }
        if let Some(id) = check(entry.path()) {
            return Some(Covered::Path(id, entry.path().to_path_buf()));
        }
    }
    None
}

/// Some path rule of list `b` for these families (for an answer of "perhaps").
fn first_rule(ctx: &PermissionContext, b: RuleBehavior, fams: &[&str]) -> Option<RuleId> {
    ctx.rules
        .rules()
        .iter()
        .enumerate()
        .find(|(_, r)| {
            r.behavior == b
                && fams.iter().any(|f| r.tool.matches(f))
                && matches!(
                    r.spec,
                    super::rule::Specifier::Path(_) | super::rule::Specifier::Any
                )
        })
        .map(|(i, _)| RuleId::at(i))
}
