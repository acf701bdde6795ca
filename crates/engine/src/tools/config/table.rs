//! The settings the Config tool reads and changes: each with the file it lives in (a Claude-style settings file, or
//! Tandem's own window settings), the JSON key, and the values it takes. Nothing outside this table can be changed —
//! in particular no permission rule, hook or environment variable, and no mode that asks less than the person
//! chose.

use serde_json::Value;

/// Where a setting lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// A Claude-style settings file (local, project or user scope), as the permission engine reads them.
    Settings,
    /// Tandem's own settings file (`~/.config/tandem/settings.json`), read by the window.
    App,
}

/// The values a setting takes.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Bool,
    /// Any text that is not blank.
    Text,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A whole number in this range (both ends included).
    Number(u64, u64),
}

/// One setting Config knows.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The name the model gives (dotted for nested keys).
    pub name: &'static str,
    pub home: Home,
    pub kind: Kind,
    /// What it does, and when a change takes effect.
    pub about: &'static str,
}

impl Setting {
    /// The JSON keys from the top of the file.
    pub fn path(&self) -> Vec<&'static str> {
        self.name.split('.').collect()
    }

    /// `value` as this setting stores it, or why it is refused. Text that spells a boolean or a number is accepted
    /// for those kinds (models often quote them).
    pub fn accept(&self, value: &Value) -> Result<Value, String> {
        let shown = value.to_string();
        match self.kind {
            Kind::Bool => match value {
                Value::Bool(b) => Ok(Value::Bool(*b)),
                Value::String(s) if s.trim() == "true" => Ok(Value::Bool(true)),
                Value::String(s) if s.trim() == "false" => Ok(Value::Bool(false)),
                _ => Err(format!("{} takes true or false, not {shown}", self.name)),
            },
            Kind::Text => match value.as_str().map(str::trim) {
                Some(s) if !s.is_empty() => Ok(Value::String(s.to_string())),
                _ => Err(format!("{} takes a non-empty text, not {shown}", self.name)),
            },
            Kind::OneOf(words) => match value.as_str().map(str::trim) {
                Some(s) if words.contains(&s) => Ok(Value::String(s.to_string())),
                _ => Err(format!(
                    "{} takes one of {}, not {shown}",
                    self.name,
                    words.join(", ")
                )),
            },
            Kind::Number(low, high) => {
                let n = match value {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                };
                match n {
                    Some(n) if (low..=high).contains(&n) => Ok(Value::from(n)),
                    _ => Err(format!(
                        "{} takes a whole number from {low} to {high}, not {shown}",
                        self.name
                    )),
                }
            }
        }
    }

    /// The values it takes, in words.
    pub fn takes(&self) -> String {
        match self.kind {
            Kind::Bool => "true or false".into(),
            Kind::Text => "a text".into(),
            Kind::OneOf(words) => words.join(" | "),
            Kind::Number(low, high) => format!("{low}..{high}"),
        }
    }
}

/// Every setting Config knows.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "model",
        home: Home::Settings,
        kind: Kind::Text,
        about: "the model new sessions on this project use (the current session switches with /model)",
    },
    Setting {
        name: "permissions.defaultMode",
        home: Home::Settings,
        kind: Kind::OneOf(&["default", "acceptEdits", "plan", "dontAsk"]),
        about: "the permission mode new sessions start in (bypassPermissions only the person can choose)",
    },
    Setting {
        name: "includeCoAuthoredBy",
        home: Home::Settings,
        kind: Kind::Bool,
        about: "whether commits the agent makes name it as co-author",
    },
    Setting {
        name: "cleanupPeriodDays",
        home: Home::Settings,
        kind: Kind::Number(1, 3650),
        about: "how many days stored conversations are kept",
    },
    Setting {
        name: "alwaysThinkingEnabled",
        home: Home::Settings,
        kind: Kind::Bool,
        about: "whether the model thinks before every answer",
    },
    Setting {
        name: "outputStyle",
        home: Home::Settings,
        kind: Kind::Text,
        about: "the output style new sessions use",
    },
    Setting {
        name: "theme",
        home: Home::App,
        kind: Kind::OneOf(&["light", "dark", "system"]),
        about: "the window's colours (the window applies it when it next reads its settings)",
    },
    Setting {
        name: "fontSize",
        home: Home::App,
        kind: Kind::Number(10, 24),
        about: "the transcript's font size in pixels",
    },
    Setting {
        name: "notifications",
        home: Home::App,
        kind: Kind::Bool,
        about: "whether desktop notifications say when a dialog waits or a turn ends",
    },
];

/// The setting called `name`, if Config knows it.
pub fn find(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.name == name.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_checked_against_the_settings_kind() {
        let cases: &[(&str, Value, Result<Value, ()>)] = &[
            ("includeCoAuthoredBy", json!(true), Ok(json!(true))),
            ("includeCoAuthoredBy", json!("false"), Ok(json!(false))),
            ("includeCoAuthoredBy", json!("yes"), Err(())),
            ("includeCoAuthoredBy", json!(1), Err(())),
            ("permissions.defaultMode", json!("plan"), Ok(json!("plan"))),
            (
                "permissions.defaultMode",
                json!(" acceptEdits "),
                Ok(json!("acceptEdits")),
            ),
            (
                "permissions.defaultMode",
                json!("bypassPermissions"),
                Err(()),
            ),
            ("permissions.defaultMode", json!("auto"), Err(())),
            ("fontSize", json!(14), Ok(json!(14))),
            ("fontSize", json!("16"), Ok(json!(16))),
            ("fontSize", json!(9), Err(())),
            ("fontSize", json!(14.5), Err(())),
            ("fontSize", json!(-1), Err(())),
            ("cleanupPeriodDays", json!(0), Err(())),
            (
                "model",
                json!("claude-sonnet-4-5"),
                Ok(json!("claude-sonnet-4-5")),
            ),
            ("model", json!("  "), Err(())),
            ("model", json!(null), Err(())),
            ("theme", json!("system"), Ok(json!("system"))),
            ("theme", json!("Solarized"), Err(())),
        ];
        for (name, value, want) in cases {
            let setting = find(name).expect("known");
            let got = setting.accept(value).map_err(|_| ());
            assert_eq!(&got, want, "{name} = {value}");
        }
    }

    #[test]
    fn rules_hooks_and_the_environment_are_not_settings_config_changes() {
        for name in [
            "permissions.allow",
            "permissions.deny",
            "permissions",
            "hooks",
            "env",
            "env.PATH",
            "apiKeyHelper",
            "enabledPlugins",
            "sandbox.enabled",
            // Where sub-agents run is the person's choice, never the model's.
            "remoteAgentHost",
        ] {
            assert!(find(name).is_none(), "{name}");
        }
    }
}
