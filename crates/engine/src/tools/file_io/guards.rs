//! Content checks before a file is written: a `.claude/settings*.json` file must stay a valid settings file, and
//! nothing that looks like a secret (a private key, an API token) may go into a file shared with a team
//! (CLAUDE.md, memory files).

use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

/// Whether `path` is a settings file of Tandem or the agent it is compatible with (`.claude/settings*.json`).
pub fn is_settings_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let in_claude = path
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|d| d == ".claude");
    in_claude && name.starts_with("settings") && name.ends_with(".json")
}

/// Checks that `text` is a valid settings file; `Err` says what is wrong.
pub fn validate_settings(text: &str) -> Result<(), String> {
    let value: Value = crate::settings::parse_jsonc(text)
        .map_err(|e| format!("it is not valid JSON ({e})"))?
        .unwrap_or(Value::Object(serde_json::Map::new()));
    let obj = value
        .as_object()
        .ok_or("its top level must be a JSON object")?;
    if let Some(perms) = obj.get("permissions") {
        let perms = perms.as_object().ok_or("`permissions` must be an object")?;
        for key in ["allow", "deny", "ask", "additionalDirectories"] {
            if let Some(list) = perms.get(key) {
                let ok = list
                    .as_array()
                    .is_some_and(|l| l.iter().all(Value::is_string));
                if !ok {
                    return Err(format!("`permissions.{key}` must be a list of strings"));
                }
            }
        }
        if let Some(mode) = perms.get("defaultMode") {
            const MODES: &[&str] = &[
                "default",
                "acceptEdits",
                "plan",
                "bypassPermissions",
                "dontAsk",
                "auto",
            ];
            if !mode.as_str().is_some_and(|m| MODES.contains(&m)) {
                return Err(format!(
                    "`permissions.defaultMode` must be one of {}",
                    MODES.join(", ")
                ));
            }
        }
    }
    for key in ["hooks", "env"] {
        if obj.get(key).is_some_and(|v| !v.is_object()) {
            return Err(format!("`{key}` must be an object"));
        }
    }
    if let Some(env) = obj.get("env").and_then(Value::as_object)
        && env.values().any(|v| !v.is_string())
    {
        return Err("every value of `env` must be a string".into());
    }
    Ok(())
}

/// Whether `path` is shared with a team through the repository: CLAUDE.md files and memory files.
pub fn is_team_shared(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if name == "CLAUDE.md" {
        return true;
    }
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts
        .windows(2)
        .any(|w| w[0] == ".claude" && (w[1] == "memory" || w[1] == "team-memory"))
}

fn secret_patterns() -> &'static [(Regex, &'static str)] {
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            (
                r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY( BLOCK)?-----",
                "a private key",
            ),
            (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", "an AWS access key"),
            (r"\bgh[pousr]_[A-Za-z0-9]{36,}\b", "a GitHub token"),
            (r"\bgithub_pat_[A-Za-z0-9_]{22,}\b", "a GitHub token"),
            (r"\bsk-ant-[A-Za-z0-9_\-]{20,}", "an Anthropic API key"),
            (r"\bsk-(?:proj-)?[A-Za-z0-9_\-]{32,}", "an OpenAI API key"),
            (r"\bxox[abprs]-[A-Za-z0-9\-]{10,}", "a Slack token"),
            (r"\bAIza[0-9A-Za-z_\-]{35}\b", "a Google API key"),
            (r"\b[rs]k_live_[0-9A-Za-z]{24,}\b", "a Stripe key"),
            (r"\bglpat-[0-9A-Za-z_\-]{20,}\b", "a GitLab token"),
        ]
        .into_iter()
        .filter_map(|(re, what)| Regex::new(re).ok().map(|r| (r, what)))
        .collect()
    })
}

/// What secret `text` seems to contain, if any.
pub fn find_secret(text: &str) -> Option<&'static str> {
    secret_patterns()
        .iter()
        .find(|(re, _)| re.is_match(text))
        .map(|(_, what)| *what)
}

/// Refuses `text` for `path` when it is a team-shared file and `text` holds a secret.
pub fn check_team_secrets(path: &Path, text: &str) -> Result<(), String> {
    if !is_team_shared(path) {
        return Ok(());
    }
    match find_secret(text) {
        Some(what) => Err(format!(
            "The content looks like it holds {what}. {} is shared with your team through the repository, so \
             secrets must not be written into it.",
            path.display()
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_settings_and_secrets() {
        assert!(is_settings_file(Path::new(
            "/p/.claude/settings.local.json"
        )));
        assert!(!is_settings_file(Path::new("/p/settings.json")));
        assert!(validate_settings(r#"{"permissions":{"allow":["Bash(ls)"]}}"#).is_ok());
        assert!(validate_settings(r#"{"permissions":{"allow":"Bash"}}"#).is_err());
        assert!(validate_settings("{").is_err());
        assert!(is_team_shared(Path::new("/p/CLAUDE.md")));
        assert!(is_team_shared(Path::new("/p/.claude/memory/notes.md")));
        assert!(find_secret("key: AKIAABCDEFGHIJKLMNOP").is_some());
        assert!(find_secret("-----BEGIN OPENSSH PRIVATE KEY-----").is_some());
        assert!(find_secret("just words").is_none());
    }
}
