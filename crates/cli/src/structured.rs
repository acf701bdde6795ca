//! `tandem -p --json-schema SCHEMA`: the model answers through the StructuredOutput tool, whose input must fit the
//! schema; a turn that ends without that answer is reminded (twice at most) before the run fails.

use std::sync::Arc;

use serde_json::Value;
use tandem_engine::query::{QueryError, TurnOutcome};
use tandem_engine::session::Session;
use tandem_engine::tool::DynTool;
use tandem_engine::tools::structured_output::{
    ANSWER_REMINDER, StructuredAnswer, structured_output_tool,
};
use tandem_protocol::TurnStopReason;

use super::headless::{Stop, send_until_stopped};

/// How many times a turn that ended without the structured answer is reminded.
const REMINDERS: usize = 2;

/// The tool for `--json-schema`'s argument: the schema as JSON text, or the path of a file holding it.
pub fn output_tool(argument: &str) -> Result<(Arc<dyn DynTool>, StructuredAnswer), String> {
    let text = if argument.trim_start().starts_with('{') {
        argument.to_string()
    } else {
        std::fs::read_to_string(argument)
            .map_err(|e| format!("--json-schema: the schema file {argument} cannot be read: {e}"))?
    };
    let schema: Value = serde_json::from_str(&text)
        .map_err(|e| format!("--json-schema: the schema is not JSON: {e}"))?;
    structured_output_tool(schema).map_err(|e| format!("--json-schema: {e}"))
}

/// After the prompt's turn: while the model has not answered through the tool (and the turn ended normally), it is
/// reminded to. Returns the last turn's outcome.
pub async fn until_answered(
    session: &Session,
    answer: &StructuredAnswer,
    mut outcome: TurnOutcome,
    stop: &Stop,
) -> Result<TurnOutcome, QueryError> {
    for _ in 0..REMINDERS {
        if answer.get().is_some()
            || outcome.stop_reason != TurnStopReason::EndTurn
            || stop.code().is_some()
        {
            break;
        }
        let (mut usage, requests) = (outcome.usage, outcome.requests);
        outcome = send_until_stopped(session, ANSWER_REMINDER, Vec::new(), stop).await?;
        usage.add(&outcome.usage);
        outcome.usage = usage;
        outcome.requests += requests;
    }
    Ok(outcome)
}
