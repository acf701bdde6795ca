//! What a hook may print on standard output when it exits with 0 (docs/hooks.md §6), read once into a typed value.
//! Every field keeps what the hook gave even when it has the wrong type, so that all the problems of one output are
//! reported together (`` `continue` must be true or false, not a string ("false") ``) instead of the first only. The
//! JSON Schema published in `docs/hooks/schemas/` is generated from these types.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::settings::{HookEvent, json_shown};

/// A field of a hook's output as the hook gave it.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Given<T> {
    /// The hook did not give the field.
    #[default]
    Absent,
    /// A value of the field's type.
    Fits(T),
    /// Something else (`null` too), kept to say what was wrong.
    Wrong(Value),
}

impl<T> Given<T> {
    /// The value, when it fits.
    pub fn fits(&self) -> Option<&T> {
        match self {
            Self::Fits(t) => Some(t),
            Self::Absent | Self::Wrong(_) => None,
        }
    }
}

/// What a field of the output format wants, in the words of a problem report.
pub trait Wanted {
    /// `true or false`, `a string`, `"allow" or "deny"`, …
    const WANTED: &'static str;
    /// Whether only a JSON object fits (serde would also read a struct from an array).
    const OBJECT: bool = false;
}

impl<'de, T: Wanted + DeserializeOwned> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if T::OBJECT && !value.is_object() {
            return Ok(Self::Wrong(value));
        }
        Ok(match serde_json::from_value::<T>(value.clone()) {
            Ok(t) => Self::Fits(t),
            Err(_) => Self::Wrong(value),
        })
    }
}

/// The schema of a field is the schema of what fits.
impl<T: JsonSchema> JsonSchema for Given<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl Wanted for bool {
    const WANTED: &'static str = "true or false";
}

impl Wanted for String {
    const WANTED: &'static str = "a string";
}

impl Wanted for Map<String, Value> {
    const WANTED: &'static str = "an object";
    const OBJECT: bool = true;
}

impl Wanted for Value {
    const WANTED: &'static str = "any JSON value";
}

/// The older top-level `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LegacyDecision {
    /// PreToolUse: allow the call (when no `permissionDecision` is given).
    Approve,
    /// PreToolUse: deny the call; other events: block as exit code 2 does.
    Block,
}

impl Wanted for LegacyDecision {
    const WANTED: &'static str = "\"approve\" or \"block\"";
}

/// PreToolUse's `permissionDecision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PermissionAnswer {
    Allow,
    Deny,
    Ask,
}

impl Wanted for PermissionAnswer {
    const WANTED: &'static str = "\"allow\", \"deny\" or \"ask\"";
}

/// PermissionRequest's `decision.behavior`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Behavior {
    Allow,
    Deny,
}

impl Wanted for Behavior {
    const WANTED: &'static str = "\"allow\" or \"deny\"";
}

/// What a hook printed on standard output (a JSON object) when it exited with 0.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "Hook output")]
pub struct HookOutput {
    /// `false` stops: the call does not run and the turn ends after it (PreToolUse); the turn ends after the call
    /// (PostToolUse); the prompt is dropped (UserPromptSubmit); the agent does not go on (Stop, SubagentStop). It
    /// wins over any decision.
    #[serde(default, rename = "continue")]
    pub continue_: Given<bool>,
    /// Read but without effect yet.
    #[serde(default)]
    pub suppress_output: Given<bool>,
    /// What the person is told when `continue` is `false`.
    #[serde(default)]
    pub stop_reason: Given<String>,
    /// Shown to the person.
    #[serde(default)]
    pub system_message: Given<String>,
    /// The reason of the older top-level `decision`.
    #[serde(default)]
    pub reason: Given<String>,
    /// The older form: PreToolUse's `approve` / `block`, other events' `block`.
    #[serde(default)]
    pub decision: Given<LegacyDecision>,
    /// The answer for the event the hook ran for.
    #[serde(default)]
    pub hook_specific_output: Given<SpecificOutput>,
}

/// `hookSpecificOutput`: each event reads its own fields (PreToolUse: `permissionDecision`,
/// `permissionDecisionReason`, `updatedInput`, `additionalContext`; PermissionRequest: `decision`; PostToolUse:
/// `additionalContext`, `updatedMCPToolOutput`; UserPromptSubmit, SessionStart, SubagentStart: `additionalContext`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpecificOutput {
    /// The event the hook ran for; another event's name makes the output invalid.
    #[serde(default)]
    pub hook_event_name: Given<String>,
    /// PreToolUse: the permission answer.
    #[serde(default)]
    pub permission_decision: Given<PermissionAnswer>,
    /// PreToolUse: a deny reason goes to the model; allow and ask reasons are shown in the decision.
    #[serde(default)]
    pub permission_decision_reason: Given<String>,
    /// PreToolUse: replaces the call's input (validated and judged by the rules again).
    #[serde(default)]
    pub updated_input: Given<Map<String, Value>>,
    /// Given to the model (with the call's result, the prompt or the sub-agent's prompt).
    #[serde(default)]
    pub additional_context: Given<String>,
    /// PermissionRequest: the answer to the question the person would be asked.
    #[serde(default)]
    pub decision: Given<RequestDecision>,
    /// PostToolUse: replaces the result of an MCP tool (ignored for other tools).
    #[serde(default, rename = "updatedMCPToolOutput")]
    pub updated_mcp_tool_output: Given<Value>,
}

impl Wanted for SpecificOutput {
    const WANTED: &'static str = "an object";
    const OBJECT: bool = true;
}

/// PermissionRequest's `hookSpecificOutput.decision`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestDecision {
    /// Allow runs the call without asking; deny refuses it with the message.
    #[serde(default)]
    pub behavior: Given<Behavior>,
    /// Why (a deny's message goes to the model).
    #[serde(default)]
    pub message: Given<String>,
    /// Allow: the input to run the call with (validated, not judged again).
    #[serde(default)]
    pub updated_input: Given<Map<String, Value>>,
}

impl Wanted for RequestDecision {
    const WANTED: &'static str = "an object";
    const OBJECT: bool = true;
}

/// Adds a problem to `out` when `field` was given with a value that does not fit.
fn check<T: Wanted>(out: &mut Vec<String>, name: &str, field: &Given<T>) {
    if let Given::Wrong(value) = field {
        out.push(format!(
            "`{name}` must be {}, not {}",
            T::WANTED,
            json_shown(value)
        ));
    }
}

impl HookOutput {
    /// Reads a hook's JSON output (an object) for `event`: the output, or what is wrong with it (fields of the wrong
    /// type or with a value the format does not have, or answers meant for another event).
    pub fn read(event: HookEvent, json: Value) -> Result<Self, Vec<String>> {
        let output: Self = serde_json::from_value(json).map_err(|e| vec![e.to_string()])?;
        let problems = output.problems(event);
        if problems.is_empty() {
            Ok(output)
        } else {
            Err(problems)
        }
    }

    fn problems(&self, event: HookEvent) -> Vec<String> {
        let mut out = Vec::new();
        check(&mut out, "continue", &self.continue_);
        check(&mut out, "suppressOutput", &self.suppress_output);
        check(&mut out, "stopReason", &self.stop_reason);
        check(&mut out, "systemMessage", &self.system_message);
        check(&mut out, "reason", &self.reason);
        check(&mut out, "decision", &self.decision);
        check(&mut out, "hookSpecificOutput", &self.hook_specific_output);
        let Some(s) = self.hook_specific_output.fits() else {
            return out;
        };
        check(
            &mut out,
            "hookSpecificOutput.hookEventName",
            &s.hook_event_name,
        );
        check(
            &mut out,
            "hookSpecificOutput.permissionDecision",
            &s.permission_decision,
        );
        check(
            &mut out,
            "hookSpecificOutput.permissionDecisionReason",
            &s.permission_decision_reason,
        );
        check(
            &mut out,
            "hookSpecificOutput.updatedInput",
            &s.updated_input,
        );
        check(
            &mut out,
            "hookSpecificOutput.additionalContext",
            &s.additional_context,
        );
        check(&mut out, "hookSpecificOutput.decision", &s.decision);
        if let Some(d) = s.decision.fits() {
            check(
                &mut out,
                "hookSpecificOutput.decision.behavior",
                &d.behavior,
            );
            check(&mut out, "hookSpecificOutput.decision.message", &d.message);
            check(
                &mut out,
                "hookSpecificOutput.decision.updatedInput",
                &d.updated_input,
            );
        }
        if let Some(named) = s.hook_event_name.fits().filter(|n| *n != event.as_str()) {
            out.push(format!(
                "`hookSpecificOutput.hookEventName` is \"{named}\", but the hook ran for {event}"
            ));
        }
        out
    }
}

/// The JSON Schema of [`HookOutput`], as published for hook authors.
pub fn output_schema() -> Value {
    schemars::schema_for!(HookOutput).to_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_wrong_field_is_reported_in_the_order_of_the_format() {
        let problems = HookOutput::read(
            HookEvent::PermissionRequest,
            json!({
                "continue": null,
                "reason": 3,
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "updatedInput": [],
                    "decision": {"behavior": "ask", "updatedInput": "x"}
                }
            }),
        )
        .expect_err("invalid");
        assert_eq!(
            problems,
            [
                "`continue` must be true or false, not null (null)",
                "`reason` must be a string, not a number (3)",
                "`hookSpecificOutput.updatedInput` must be an object, not an array ([])",
                "`hookSpecificOutput.decision.behavior` must be \"allow\" or \"deny\", not a string (\"ask\")",
                "`hookSpecificOutput.decision.updatedInput` must be an object, not a string (\"x\")",
                "`hookSpecificOutput.hookEventName` is \"PreToolUse\", but the hook ran for PermissionRequest",
            ]
        );
        let problems = HookOutput::read(HookEvent::Stop, json!({"hookSpecificOutput": []}))
            .expect_err("invalid");
        assert_eq!(
            problems,
            ["`hookSpecificOutput` must be an object, not an array ([])"]
        );
    }

    #[test]
    fn fitting_fields_are_read_and_unknown_ones_ignored() {
        let out = HookOutput::read(
            HookEvent::PostToolUse,
            json!({"continue": false, "extra": 1, "hookSpecificOutput": {"updatedMCPToolOutput": null}}),
        )
        .expect("valid");
        assert_eq!(out.continue_, Given::Fits(false));
        assert_eq!(out.decision, Given::Absent);
        let specific = out.hook_specific_output.fits().expect("given");
        assert_eq!(specific.updated_mcp_tool_output, Given::Fits(Value::Null));
    }

    #[test]
    fn the_schema_describes_what_fits() {
        let schema = output_schema();
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        assert!(validator.is_valid(&json!({
            "continue": true,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "updatedInput": {}}
        })));
        assert!(!validator.is_valid(&json!({"continue": "no"})));
        assert!(
            !validator.is_valid(&json!({"hookSpecificOutput": {"permissionDecision": "maybe"}}))
        );
    }
}
