//! Type erasure for tools: [`DynTool`] is what the registry holds; [`PreparedCall`] is one call whose input passed
//! schema validation and was parsed into the tool's typed input.

use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use serde_json::Value;
use tandem_protocol::{FileDiff, RenderHints};

use super::PermissionSubject;
use super::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

/// A tool with its input type erased. Implemented for every [`Tool`] by [`Erased`], and directly by tools whose
/// schema is only known at run time (MCP).
pub trait DynTool: Send + Sync {
    fn name(&self) -> &str;
    fn aliases(&self) -> &[&str];
    fn description(&self) -> String;
    /// The JSON schema the model's input must satisfy (sent to the model as `input_schema`).
    fn input_schema(&self) -> &Value;
    fn max_result_size_chars(&self) -> usize;
    fn is_enabled(&self) -> bool;
    fn interrupt_behavior(&self) -> InterruptBehavior;
    /// See [`Tool::aborts_siblings_on_error`].
    fn aborts_siblings_on_error(&self) -> bool {
        false
    }
    /// See [`Tool::asks_person_itself`].
    fn asks_person_itself(&self) -> bool {
        false
    }
    /// Whether this is a tool of an MCP server.
    fn is_mcp(&self) -> bool {
        false
    }
    /// Whether the tool's definition may be withheld until the model loads it with ToolSearch (MCP tools by
    /// default).
    fn should_defer(&self) -> bool {
        self.is_mcp()
    }
    /// Whether the tool's definition is always sent, even when it would be deferred.
    fn always_load(&self) -> bool {
        false
    }
    /// A short phrase (3-10 words) ToolSearch matches besides the name and description.
    fn search_hint(&self) -> Option<String> {
        None
    }
    /// For a tool the model provider runs itself (web search): its definition, sent in place of the name,
    /// description and schema. Such a tool is never called by the executor.
    fn server_definition(&self) -> Option<Value> {
        None
    }
    /// See [`Tool::output_schema`] (an MCP tool's is its server's `outputSchema`, which its structured content
    /// meets).
    fn output_schema(&self) -> Option<&Value> {
        None
    }
    /// See [`Tool::strict`].
    fn strict(&self) -> bool {
        false
    }
    /// Validates `input` against the schema and parses it. `Err` is a message for the model naming what is wrong.
    fn prepare(&self, input: &Value) -> Result<Box<dyn PreparedCall>, String>;
    /// Fills derived fields into the raw input (see [`Tool::backfill_observable_input`]).
    fn backfill_observable_input(&self, input: &mut Value, ctx: &ToolContext);
}

/// One call with a valid, parsed input.
pub trait PreparedCall: Send + Sync {
    fn is_concurrency_safe(&self) -> bool;
    fn is_read_only(&self) -> bool;
    fn is_destructive(&self) -> bool;
    fn render_hints(&self, ctx: &ToolContext) -> RenderHints;
    fn permission_subject(&self, ctx: &ToolContext) -> PermissionSubject;
    /// See [`Tool::approval_preview`].
    fn approval_preview(&self, ctx: &ToolContext) -> Option<FileDiff>;
    /// See [`Tool::classifier_input`].
    fn classifier_input(&self) -> Option<Value> {
        None
    }
    /// See [`Tool::approval_warnings`].
    fn approval_warnings(&self, _ctx: &ToolContext) -> Vec<String> {
        Vec::new()
    }
    /// See [`Tool::approval_previews`].
    fn approval_previews(&self, _ctx: &ToolContext) -> Vec<FileDiff> {
        Vec::new()
    }
    fn validate<'a>(&'a self, ctx: &'a ToolContext) -> BoxFuture<'a, Result<(), String>>;
    /// Runs the call; see [`Tool::call`] for the contract on errors and cancellation.
    fn call<'a>(&'a self, ctx: &'a ToolContext) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;
}

/// Wraps a typed tool as a [`DynTool`] for the registry and the executor.
pub fn erase<T: Tool>(tool: T) -> Arc<dyn DynTool> {
    Arc::new(Erased::new(tool))
}

/// Erases `tool` with an input schema known only at run time (the input must also parse as the tool's input type).
pub fn erase_with_schema<T: Tool>(tool: T, schema: Value) -> Arc<dyn DynTool> {
    Arc::new(Erased::with_schema(tool, schema))
}

/// Wraps a typed [`Tool`] as a [`DynTool`], computing and compiling its schema once.
pub struct Erased<T: Tool> {
    tool: Arc<T>,
    schema: Value,
    output_schema: Option<Arc<Value>>,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl<T: Tool> Erased<T> {
    /// Erases `tool`.
    pub fn new(tool: T) -> Self {
        Self::with_schema(tool, schema_for::<T::Input>())
    }

    fn with_schema(tool: T, schema: Value) -> Self {
        let output_schema = tool.output_schema().map(Arc::new);
        Self {
            tool: Arc::new(tool),
            schema,
            output_schema,
            validator: OnceLock::new(),
        }
    }
}

/// The model-facing JSON schema of an input type: draft 2020-12 without the `$schema` and `title` noise.
pub fn schema_for<I: schemars::JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(I))
        .unwrap_or_else(|_| Value::Object(Default::default()));
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
        obj.entry("type")
            .or_insert_with(|| Value::String("object".into()));
    }
    schema
}

/// Formats the schema violations of `input` (the first five, each at its place in the input), or `None` when it
/// fits. Used for every tool's input and for MCP tools' structured results.
pub fn schema_errors(validator: &jsonschema::Validator, input: &Value) -> Option<String> {
    let errors: Vec<String> = validator
        .iter_errors(input)
        .take(5)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{at}: {e}")
            }
        })
        .collect();
    if errors.is_empty() {
        None
    } else {
        Some(errors.join("; "))
    }
}

impl<T: Tool> DynTool for Erased<T> {
    fn name(&self) -> &str {
        self.tool.name()
    }
    fn aliases(&self) -> &[&str] {
        self.tool.aliases()
    }
    fn description(&self) -> String {
        self.tool.description()
    }
    fn input_schema(&self) -> &Value {
        &self.schema
    }
    fn max_result_size_chars(&self) -> usize {
        self.tool.max_result_size_chars()
    }
    fn is_enabled(&self) -> bool {
        self.tool.is_enabled()
    }
    fn interrupt_behavior(&self) -> InterruptBehavior {
        self.tool.interrupt_behavior()
    }
    fn aborts_siblings_on_error(&self) -> bool {
        self.tool.aborts_siblings_on_error()
    }
    fn asks_person_itself(&self) -> bool {
        self.tool.asks_person_itself()
    }
    fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_deref()
    }
    fn strict(&self) -> bool {
        self.tool.strict()
    }

    fn prepare(&self, input: &Value) -> Result<Box<dyn PreparedCall>, String> {
        let validator = self.validator.get_or_init(|| {
            jsonschema::validator_for(&self.schema)
                .map_err(|e| format!("the tool's schema is invalid: {e}"))
        });
        let validator = validator.as_ref().map_err(Clone::clone)?;
        if let Some(errors) = schema_errors(validator, input) {
            return Err(format!(
                "InputValidationError: the input for {} does not fit its schema: {errors}",
                self.tool.name()
            ));
        }
        let parsed: T::Input = serde_json::from_value(input.clone()).map_err(|e| {
            format!(
                "InputValidationError: the input for {} could not be read: {e}",
                self.tool.name()
            )
        })?;
        Ok(Box::new(Prepared {
            tool: Arc::clone(&self.tool),
            input: parsed,
            output_schema: self.output_schema.clone(),
        }))
    }

    fn backfill_observable_input(&self, input: &mut Value, ctx: &ToolContext) {
        self.tool.backfill_observable_input(input, ctx);
    }
}

struct Prepared<T: Tool> {
    tool: Arc<T>,
    input: T::Input,
    output_schema: Option<Arc<Value>>,
}

impl<T: Tool> PreparedCall for Prepared<T> {
    fn is_concurrency_safe(&self) -> bool {
        self.tool.is_concurrency_safe(&self.input)
    }
    fn is_read_only(&self) -> bool {
        self.tool.is_read_only(&self.input)
    }
    fn is_destructive(&self) -> bool {
        self.tool.is_destructive(&self.input)
    }
    fn render_hints(&self, ctx: &ToolContext) -> RenderHints {
        self.tool.render_hints(&self.input, ctx)
    }
    fn permission_subject(&self, ctx: &ToolContext) -> PermissionSubject {
        self.tool.permission_subject(&self.input, ctx)
    }
    fn approval_preview(&self, ctx: &ToolContext) -> Option<FileDiff> {
        self.tool.approval_preview(&self.input, ctx)
    }
    fn classifier_input(&self) -> Option<Value> {
        self.tool.classifier_input(&self.input)
    }
    fn approval_warnings(&self, ctx: &ToolContext) -> Vec<String> {
        self.tool.approval_warnings(&self.input, ctx)
    }
    fn approval_previews(&self, ctx: &ToolContext) -> Vec<FileDiff> {
        self.tool.approval_previews(&self.input, ctx)
    }
    fn validate<'a>(&'a self, ctx: &'a ToolContext) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(self.tool.validate_input(&self.input, ctx))
    }
    fn call<'a>(&'a self, ctx: &'a ToolContext) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let result = self.tool.call(&self.input, ctx).await;
            if let Ok(output) = &result {
                check_structured(self.tool.name(), self.output_schema.as_deref(), output);
            }
            result
        })
    }
}

/// Under test: a tool's structured result must fit the output schema it declares (every test that runs a tool
/// checks this). Outside tests nothing is checked: the data goes to hooks as it is.
#[cfg(feature = "test-support")]
fn check_structured(tool: &str, schema: Option<&Value>, output: &ToolOutput) {
    let Some(data) = &output.structured else {
        return;
    };
    let Some(schema) = schema else {
        panic!("{tool} gave structured output without declaring an output schema");
    };
    let validator = match jsonschema::validator_for(schema) {
        Ok(v) => v,
        Err(e) => panic!("{tool}'s output schema is invalid: {e}"),
    };
    if let Some(errors) = schema_errors(&validator, data) {
        panic!("{tool}'s structured output does not fit its schema: {errors}\n{data}");
    }
}

#[cfg(not(feature = "test-support"))]
fn check_structured(_tool: &str, _schema: Option<&Value>, _output: &ToolOutput) {}
