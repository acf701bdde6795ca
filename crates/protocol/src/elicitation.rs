//! An MCP server's request for information from the person (elicitation): a message and a flat form of primitive
//! fields, and what the person does with it — accept with the values, decline, or cancel. The engine announces the
//! request with `elicitation_requested` before it waits, and `approval_resolved` names it once it is answered or
//! withdrawn, as for permission requests.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// A server's form for the person to fill in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ElicitationRequest {
    /// Unique per request; the answer names it.
    pub id: String,
    pub session_id: String,
    /// The MCP server asking (its name in the configuration).
    pub server: String,
    /// What the server says it needs, shown above the form.
    pub message: String,
    /// The form's fields, in the order the server listed them.
    pub fields: Vec<ElicitationField>,
}

/// One field of an elicitation form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ElicitationField {
    /// The key the value is sent under.
    pub name: String,
    /// The label to show (`None`: the name).
    pub title: Option<String>,
    pub description: Option<String>,
    /// Whether the form cannot be accepted without it.
    pub required: bool,
    pub kind: FieldKind,
}

/// What a field holds, with its constraints and default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FieldKind {
    /// Text, optionally in a format, between `min_length` and `max_length` characters.
    String {
        format: Option<StringFormat>,
        min_length: Option<u32>,
        max_length: Option<u32>,
        default: Option<String>,
    },
    /// A number (`integer`: whole numbers only) between `minimum` and `maximum`.
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
        default: Option<f64>,
    },
    Boolean {
        default: Option<bool>,
    },
    /// One of the options (their values are sent; their labels shown).
    Enum {
        options: Vec<EnumOption>,
        default: Option<String>,
    },
    /// Several of the options, at least `min_items` and at most `max_items`.
    MultiSelect {
        options: Vec<EnumOption>,
        min_items: Option<u32>,
        max_items: Option<u32>,
        default: Vec<String>,
    },
}

/// The formats a text field may require.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "kebab-case")]
pub enum StringFormat {
    Email,
    Uri,
    Date,
    DateTime,
}

/// One option of an enum field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EnumOption {
    /// What is sent.
    pub value: String,
    /// What is shown.
    pub label: String,
}

/// What the person did with the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ElicitationAction {
    /// Sent the values.
    Accept,
    /// Refused to give them.
    Decline,
    /// Dismissed the form without choosing.
    Cancel,
}

/// The answer to one [`ElicitationRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ElicitationAnswer {
    pub request_id: String,
    pub action: ElicitationAction,
    /// With `accept`: the values by field name (text, number, boolean, or a list of option values); fields left
    /// empty are left out.
    #[ts(type = "Record<string, unknown> | null")]
    pub content: Option<Map<String, Value>>,
}

impl ElicitationAnswer {
    /// An answer without values (`decline` or `cancel`).
    pub fn without_content(request_id: impl Into<String>, action: ElicitationAction) -> Self {
        Self {
            request_id: request_id.into(),
            action,
            content: None,
        }
    }
}
