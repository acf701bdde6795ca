//! An elicitation answerer for tests and the conformance adapter: accepts every form with the defaults its schema
//! gives (properties without a default are left out); a form Tandem cannot read is declined.

use rmcp::model::ElicitRequestParams;
use serde_json::{Map, Value};
use tandem_protocol::FieldKind;

use crate::mcp::elicitation::read_form;
use crate::mcp::{ElicitReply, Elicitor};

/// Accepts with the schema's defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaDefaults;

/// A field's default as JSON, if it has one.
fn default_of(kind: &FieldKind) -> Option<Value> {
    match kind {
        FieldKind::String { default, .. } | FieldKind::Enum { default, .. } => {
            default.clone().map(Value::from)
        }
        FieldKind::Number {
            integer, default, ..
        } => default.map(|n| {
            if *integer {
                Value::from(n as i64)
            } else {
                Value::from(n)
            }
        }),
        FieldKind::Boolean { default } => default.map(Value::from),
        FieldKind::MultiSelect { default, .. } if !default.is_empty() => {
            Some(Value::from(default.clone()))
        }
        FieldKind::MultiSelect { .. } => None,
    }
}

impl Elicitor for SchemaDefaults {
    fn answer<'a>(
        &'a self,
        _server: &'a str,
        request: ElicitRequestParams,
    ) -> futures::future::BoxFuture<'a, ElicitReply> {
        let reply = match read_form(&request) {
            Ok(form) => {
                let content: Map<String, Value> = form
                    .fields
                    .iter()
                    .filter_map(|f| Some((f.name.clone(), default_of(&f.kind)?)))
                    .collect();
                ElicitReply::Accept(Value::Object(content))
            }
            Err(_) => ElicitReply::Decline,
        };
        Box::pin(async move { reply })
    }
}
