//! StructuredOutput: the model's final answer as a JSON value that fits a schema the caller gave
//! (`tandem -p --json-schema SCHEMA`). It is offered only when such a schema is given, never in an ordinary
//! session. Its input schema is that schema, so the executor's validation refuses an answer that does not fit,
//! with the reasons, and the model can try again. The answer is kept in a slot the caller reads when the turn ends.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tandem_protocol::{RenderHints, ToolKind};

use crate::tool::{
    DynTool, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, erase_with_schema, names,
};

/// Where the answer given through the tool is kept (the last one, when the model gave several).
#[derive(Debug, Clone, Default)]
pub struct StructuredAnswer(Arc<Mutex<Option<Value>>>);

impl StructuredAnswer {
    /// The answer given so far, if any.
    pub fn get(&self) -> Option<Value> {
        self.0.lock().map(|a| a.clone()).unwrap_or_default()
    }

    fn set(&self, value: Value) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(value);
        }
    }
}

/// Why a schema cannot be used for structured output.
#[derive(Debug, thiserror::Error)]
pub enum OutputSchemaError {
    #[error("the schema is not valid JSON Schema: {0}")]
    Invalid(String),
    #[error(
        "the schema must describe a JSON object (`\"type\": \"object\"`), as a tool's input does"
    )]
    NotAnObject,
}

/// The prompt that reminds the model to answer through the tool when a turn ended without it.
pub const ANSWER_REMINDER: &str = "You must give your final answer by calling the StructuredOutput tool with \
    input that fits its schema. Call it now.";

/// The StructuredOutput tool.
#[derive(Debug, Clone)]
struct StructuredOutputTool {
    answer: StructuredAnswer,
}

/// The tool for `schema`, and the slot its answer lands in. The schema must be valid and describe an object.
pub fn structured_output_tool(
    schema: Value,
) -> Result<(Arc<dyn DynTool>, StructuredAnswer), OutputSchemaError> {
    jsonschema::validator_for(&schema).map_err(|e| OutputSchemaError::Invalid(e.to_string()))?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(OutputSchemaError::NotAnObject);
    }
    let answer = StructuredAnswer::default();
    let tool = StructuredOutputTool {
        answer: answer.clone(),
    };
    Ok((erase_with_schema(tool, schema), answer))
}

impl Tool for StructuredOutputTool {
    type Input = Value;

    fn name(&self) -> &'static str {
        names::STRUCTURED_OUTPUT
    }

    fn description(&self) -> String {
        "Give your final answer as structured data. Call this once, at the end, with input that fits the schema; \
         the caller reads the answer from this call, not from your text."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &Value) -> bool {
        true
    }

    fn render_hints(&self, _input: &Value, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Structured answer".into(),
            collapsible: true,
        }
    }

    fn permission_subject(&self, _input: &Value, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn call(&self, input: &Value, _ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        self.answer.set(input.clone());
        Ok(ToolOutput::text("Structured output provided successfully."))
    }
}
