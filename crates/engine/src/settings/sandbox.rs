//! The `sandbox` object of a settings file, read per source (`enabled`, `autoAllowBashIfSandboxed`,
//! `excludedCommands`, `allowUnsandboxedCommands`, `network.allowedDomains`, `filesystem.allowWrite`,
//! `failIfUnavailable`), and the merge of every source into the effective [`SandboxConfig`] with the
//! `TANDEM_BASH_SANDBOX` override. Wrong types and unknown keys are reported like any settings problem.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::source::{RuleSource, SettingsIssue};
use crate::fsutil::resolve_path;
use crate::tool::SandboxConfig;

/// The environment variable that overrides `sandbox.enabled` (`1`/`true`/`yes` or `0`/`false`/`no`).
pub const SANDBOX_ENV: &str = "TANDEM_BASH_SANDBOX";

/// One source's `sandbox` settings, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxLayer {
    pub source: Option<RuleSource>,
    pub enabled: Option<bool>,
    pub auto_allow: Option<bool>,
    pub excluded_commands: Vec<String>,
    pub allow_unsandboxed: Option<bool>,
    pub allowed_domains: Vec<String>,
    pub allow_write: Vec<PathBuf>,
    pub fail_if_unavailable: Option<bool>,
}

/// Keys the command-line agent knows that Tandem does not apply (reported as ignored, not as typos).
const UNSUPPORTED: &[&str] = &[
    "enableWeakerNestedSandbox",
    "ignoreViolations",
    "network.allowUnixSockets",
    "network.allowAllUnixSockets",
    "network.allowLocalBinding",
    "network.httpProxyPort",
    "network.socksProxyPort",
    "network.allowManagedDomainsOnly",
    "filesystem.denyWrite",
    "filesystem.denyRead",
];

/// Reads the `sandbox` object of one source (`None` when the source has none); problems go to `issues`.
pub fn parse_sandbox(
    value: &Value,
    source: &RuleSource,
    base: &Path,
    home: Option<&Path>,
    issues: &mut Vec<SettingsIssue>,
) -> Option<SandboxLayer> {
    let raw = value.get("sandbox")?;
    let mut report = |message: String| {
        issues.push(SettingsIssue {
            file: source.label(),
            rule: None,
            message,
        })
    };
    let Some(obj) = raw.as_object() else {
        report(format!("`sandbox` must be an object, not {raw}"));
        return None;
    };
    let mut layer = SandboxLayer {
        source: Some(source.clone()),
        ..SandboxLayer::default()
    };
    for (key, v) in obj {
        match key.as_str() {
            "enabled" => layer.enabled = boolean(key, v, &mut report),
            "autoAllowBashIfSandboxed" => layer.auto_allow = boolean(key, v, &mut report),
            "allowUnsandboxedCommands" => layer.allow_unsandboxed = boolean(key, v, &mut report),
            "failIfUnavailable" => layer.fail_if_unavailable = boolean(key, v, &mut report),
            "excludedCommands" => layer.excluded_commands = strings(key, v, &mut report),
            "network" => {
                for (k, v) in object("network", v, &mut report) {
                    let name = format!("network.{k}");
                    match k.as_str() {
                        "allowedDomains" => {
                            layer.allowed_domains = strings(&name, v, &mut report)
                                .into_iter()
                                .map(|d| d.trim().trim_end_matches('.').to_ascii_lowercase())
                                .filter(|d| !d.is_empty())
                                .collect()
                        }
                        _ => other(&name, &mut report),
                    }
                }
            }
            "filesystem" => {
                for (k, v) in object("filesystem", v, &mut report) {
                    let name = format!("filesystem.{k}");
                    match k.as_str() {
                        "allowWrite" => {
                            layer.allow_write = strings(&name, v, &mut report)
                                .iter()
                                .map(|d| resolve_path(d, base, home))
                                .collect()
                        }
                        _ => other(&name, &mut report),
                    }
                }
            }
            _ => other(key, &mut report),
        }
    }
    Some(layer)
}

fn other(key: &str, report: &mut impl FnMut(String)) {
    if UNSUPPORTED.contains(&key) {
        report(format!(
            "`sandbox.{key}` is not supported by Tandem and is ignored"
        ));
    } else {
        report(format!("`sandbox.{key}` is not a sandbox setting"));
    }
}

fn boolean(key: &str, v: &Value, report: &mut impl FnMut(String)) -> Option<bool> {
    let b = v.as_bool();
    if b.is_none() {
        report(format!("`sandbox.{key}` must be true or false, not {v}"));
    }
    b
}

fn strings(key: &str, v: &Value, report: &mut impl FnMut(String)) -> Vec<String> {
    let Some(list) = v.as_array() else {
        report(format!(
            "`sandbox.{key}` must be an array of strings, not {v}"
        ));
        return Vec::new();
    };
    list.iter()
        .filter_map(|item| {
            let s = item.as_str();
            if s.is_none() {
                report(format!(
                    "`sandbox.{key}` must hold strings; {item} is ignored"
                ));
            }
            s.map(str::to_string)
        })
        .collect()
}

fn object<'a>(
    key: &str,
    v: &'a Value,
    report: &mut impl FnMut(String),
) -> Vec<(&'a String, &'a Value)> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match v.as_object() {
        Some(o) => o.iter().collect(),
        None => {
            report(format!("`sandbox.{key}` must be an object, not {v}"));
            EMPTY.get_or_init(Map::new).iter().collect()
        }
    }
}

/// The value of the environment override: `Some(true)`/`Some(false)` when set to a yes/no word.
pub fn env_override() -> Option<bool> {
    let v = std::env::var(SANDBOX_ENV).ok()?;
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Where `bwrap` is on the `PATH`, if anywhere.
pub fn find_bwrap() -> Option<PathBuf> {
    crate::fsutil::find_program("bwrap", std::env::var_os("PATH").as_deref())
}

/// Merges the layers (highest priority first): a scalar from the first layer that sets it, lists joined without
/// repeats. `accept` says whether a layer may widen what runs without asking or outside the sandbox (project
/// settings of an untrusted folder may not): such a layer's `autoAllowBashIfSandboxed: true`, `enabled: false`,
/// `allowUnsandboxedCommands: true`, `failIfUnavailable: false`, `allowedDomains` and `allowWrite` are passed over.
/// `enabled_override` (the environment variable) wins over every file.
pub fn merge(
    layers: &[SandboxLayer],
    accept: impl Fn(&RuleSource) -> bool,
    enabled_override: Option<bool>,
    bwrap: Option<PathBuf>,
) -> SandboxConfig {
    let trusted = |l: &SandboxLayer| l.source.as_ref().is_none_or(&accept);
    // The first value set by a layer, passing over `widening` values from layers that may not widen.
    let first = |f: &dyn Fn(&SandboxLayer) -> Option<bool>, widening: bool| {
        layers
            .iter()
            .filter_map(|l| f(l).map(|v| (l, v)))
            .find(|(l, v)| *v != widening || trusted(l))
            .map(|(_, v)| v)
    };
    let mut config = SandboxConfig {
        enabled: enabled_override
            .or_else(|| first(&|l| l.enabled, false))
            .unwrap_or(false),
        auto_allow: first(&|l| l.auto_allow, true).unwrap_or(false),
        allow_unsandboxed: first(&|l| l.allow_unsandboxed, true).unwrap_or(true),
        fail_if_unavailable: first(&|l| l.fail_if_unavailable, false).unwrap_or(false),
        bwrap,
        ..SandboxConfig::default()
    };
    for layer in layers {
        push_new(&mut config.excluded_commands, &layer.excluded_commands);
        if trusted(layer) {
            push_new(&mut config.allowed_domains, &layer.allowed_domains);
            push_new(&mut config.allow_write, &layer.allow_write);
        }
    }
    config
}

fn push_new<T: Clone + PartialEq>(into: &mut Vec<T>, items: &[T]) {
    for item in items {
        if !into.contains(item) {
            into.push(item.clone());
        }
    }
}
