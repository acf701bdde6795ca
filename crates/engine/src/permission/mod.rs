//! The permission engine: modes, rule parsing and matching for every family (over the rules `settings` read), the
//! immutable [`PermissionContext`], trust records, "don't ask again" suggestions, one pure
//! [`decide`] that answers allow, ask or deny for a tool call and says why (docs/permissions.md), and
//! [`check_call`], which answers a call given its tool without running it.

mod accepted;
mod auto;
mod auto_set_aside;
mod bash_check;
mod bash_pattern;
mod check;
mod classifier;
mod context;
mod decide;
mod domain;
mod links_memo;
mod loader;
mod path_forms;
mod path_pattern;
mod plugin_switch;
mod read_deny;
mod rule;
mod rule_file;
mod rule_id;
mod rules_view;
mod ruleset;
mod safety;
mod suggest;
mod trace;
mod trust;
mod trust_summary;
mod unreadable;
mod unusable;
mod unusable_rule;
mod verdict;
mod walk;

pub use crate::settings::{
    CliSettings, LoadedSettings, SettingsPaths, SettingsWatcher, git_root, load_settings,
    managed_settings_path,
};
pub use crate::tool::PermissionSubject;
pub use accepted::AcceptedSettings;
pub use auto::{EarlyVerdict, classify_if_auto};
pub use auto_set_aside::set_aside_reason;
pub use bash_pattern::{BashIndex, BashPattern};
pub use check::{CheckAnswer, check_call};
pub use classifier::{
    AutoClassifier, ClassifierHandle, ClassifierRequest, ClassifierVerdict, MAX_CLASSIFIER_TEXT,
    ModelClassifier, compact_input, cut, parse_verdict,
};
pub use context::{ContextOptions, PermissionContext};
pub use decide::{CallView, decide, evaluate};
pub use domain::{PREAPPROVED_HOSTS, domain_matches, is_preapproved_host, url_host};
pub use loader::{PermissionLoader, Reloaded};
pub use path_pattern::{Anchors, absolute_glob, normalise, resolve_links};
pub use plugin_switch::{plugin_switch_file, set_plugin_enabled};
pub use rule::{
    ParsedRule, Rule, RuleBehavior, RuleSource, Specifier, ToolPattern, canonical_tool_name,
    is_known_tool, parse_rule, wildcard,
};
pub use rule_file::{add_rules, move_rule, read_root, remove_rule, set_key, validate_rule};
pub use rule_id::RuleId;
pub use rules_view::rule_listing;
pub use ruleset::{RuleEntry, RuleSet, SettingsIssue, UnusableRule, WAITS_FOR_TRUST};
pub use safety::{critical_for_rm, protected};
pub(crate) use suggest::add_to_list;
pub use suggest::{SaveError, bash_rule as suggest_bash_rule, save_allow_rules};
pub use trace::{explain, trace_check};
pub use trust::TrustStore;
pub use unreadable::AcceptError;
pub use verdict::Evaluation;
pub(crate) use verdict::no_one_to_ask;
