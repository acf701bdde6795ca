//! The person's own Tandem settings as the window edits them: how to reach the model, where its API key is kept,
//! how the window looks, and the spending budget.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::BudgetLimits;

/// The window's colours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    Light,
    #[default]
    Dark,
    /// Follows the desktop's (GTK's) light or dark preference.
    System,
}

/// Where the API key the sessions use comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// The desktop's keyring (Secret Service).
    Keyring,
    /// Tandem's credentials file, readable by its owner only.
    CredentialsFile,
    /// `apiKey` in the settings file itself (saving a key from the window moves it out).
    SettingsFile,
    /// An environment variable, which wins over everything the window saves.
    Environment,
    /// No key: an OpenAI-compatible local server may need none.
    None,
}

/// The settings as the window shows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AppSettings {
    /// `anthropic` or `openai` (an OpenAI-compatible server).
    pub provider: String,
    /// The server's base URL; empty for the provider's default.
    pub base_url: String,
    /// The model name; empty for the default.
    pub model: String,
    /// Where the key in use comes from.
    pub key_source: KeySource,
    pub theme: Theme,
    /// The transcript's font size in pixels (the whole window scales with it).
    pub font_size: u32,
    /// Environment variables set in this process that win over the saved values (named so the person knows).
    pub overridden_by_env: Vec<String>,
    /// The base URL and model sessions use now: the environment's, else the saved ones, else the defaults.
    #[serde(default)]
    pub base_url_in_use: String,
    #[serde(default)]
    pub model_in_use: String,
    /// Whether a key is saved (keyring, credentials file or settings file), whatever the environment sets.
    #[serde(default)]
    pub key_saved: bool,
    /// Whether a desktop notification tells the person when a dialog waits for them or a turn ends while the
    /// window is not focused (on unless turned off).
    #[serde(default = "on")]
    pub notifications: bool,
    /// The spending budget (a limit missing or invalid in the file is none).
    #[serde(default)]
    pub budget: BudgetLimits,
    /// The settings file.
    pub file: String,
}

fn on() -> bool {
    true
}

/// A change the person saves in the settings dialog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AppSettingsUpdate {
    pub provider: String,
    pub base_url: String,
    pub model: String,
    /// A new API key; `None` keeps the current one, an empty string removes the saved one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    pub theme: Theme,
    pub font_size: u32,
    /// Desktop notifications on or off; `None` keeps the current choice.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notifications: Option<bool>,
    /// The spending budget; `None` keeps the file's.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetLimits>,
}
