//! An elicitation answerer for tests and the conformance adapter: accepts every form with the defaults its schema
//! gives (properties without a default are left out).

use serde_json::{Map, Value};

use crate::mcp::{ElicitReply, Elicitor};

/// Accepts with the schema's defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaDefaults;

impl Elicitor for SchemaDefaults {
    fn answer<'a>(
        &'a self,
        _server: &'a str,
        request: Value,
    ) -> futures::future::BoxFuture<'a, ElicitReply> {
        let mut content = Map::new();
        if let Some(properties) = request
            .pointer("/requestedSchema/properties")
            .and_then(Value::as_object)
        {
            for (name, property) in properties {
                if let Some(default) = property.get("default") {
                    content.insert(name.clone(), default.clone());
                }
            }
        }
        Box::pin(async move { ElicitReply::Accept(Value::Object(content)) })
    }
}
