//! The fake server's check of strict tool definitions, as the Messages API makes it: a tool sent with `strict: true`
//! must have a schema inside the strict subset (every object closed with `additionalProperties: false`, no numeric,
//! string-length or array-size constraints but `minItems` 0 or 1, only the subset's string formats, no recursive
//! reference), and a request stays within the limits on strict tools, optional and union-typed parameters.

use serde_json::Value;

use crate::model::strict::{
    FORMATS, MAX_OPTIONAL_PARAMS, MAX_STRICT_TOOLS, MAX_UNION_PARAMS, UNSUPPORTED_KEYWORDS,
    is_object_schema, is_union,
};

/// `Err` with the API's kind of message when the request's strict tools break the rules.
pub fn check(body: &Value) -> Result<(), String> {
    let tools = body.get("tools").and_then(Value::as_array);
    let strict: Vec<&Value> = tools
        .into_iter()
        .flatten()
        .filter(|t| t.get("strict") == Some(&Value::Bool(true)))
        .collect();
    if strict.len() > MAX_STRICT_TOOLS {
        return Err(format!(
            "tools: at most {MAX_STRICT_TOOLS} tools may use strict, got {}",
            strict.len()
        ));
    }
    let (mut optional, mut unions) = (0, 0);
    for tool in strict {
        let name = tool["name"].as_str().unwrap_or_default();
        let schema = &tool["input_schema"];
        walk(schema, &mut optional, &mut unions)
            .map_err(|e| format!("tools.{name}.input_schema: {e} is not supported with strict"))?;
        if let Some(defs) = schema.get("$defs").and_then(Value::as_object) {
            for def in defs.values() {
                walk(def, &mut 0, &mut 0).map_err(|e| {
                    format!("tools.{name}.input_schema: {e} is not supported with strict")
                })?;
            }
        }
    }
    if optional > MAX_OPTIONAL_PARAMS {
        return Err(format!(
            "strict tools: {optional} optional parameters, at most {MAX_OPTIONAL_PARAMS}"
        ));
    }
    if unions > MAX_UNION_PARAMS {
        return Err(format!(
            "strict tools: {unions} parameters with union types, at most {MAX_UNION_PARAMS}"
        ));
    }
    Ok(())
}

fn walk(schema: &Value, optional: &mut usize, unions: &mut usize) -> Result<(), String> {
    let Some(map) = schema.as_object() else {
        return Ok(());
    };
    // `oneOf` is not in the subset either (the conversion turns it into `anyOf`).
    for key in UNSUPPORTED_KEYWORDS.iter().chain(&["oneOf"]) {
        if map.contains_key(*key) {
            return Err(format!("`{key}`"));
        }
    }
    if let Some(format) = map.get("format").and_then(Value::as_str)
        && !FORMATS.contains(&format)
    {
        return Err(format!("format `{format}`"));
    }
    if map
        .get("minItems")
        .and_then(Value::as_u64)
        .is_some_and(|n| n > 1)
    {
        return Err("`minItems` above 1".into());
    }
    if let Some(target) = map.get("$ref").and_then(Value::as_str)
        && !target.starts_with("#/$defs/")
    {
        return Err(format!("`$ref` {target}"));
    }
    if is_object_schema(map) && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err("an object without `additionalProperties: false`".into());
    }
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (name, prop) in props {
            if !required.contains(&name.as_str()) {
                *optional += 1;
            }
            if is_union(prop) {
                *unions += 1;
            }
            walk(prop, optional, unions)?;
        }
    }
    if let Some(items) = map.get("items") {
        walk(items, optional, unions)?;
    }
    for key in ["anyOf", "allOf"] {
        for branch in map.get(key).and_then(Value::as_array).into_iter().flatten() {
            walk(branch, optional, unions)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::strict::strict_schema;

    fn request(schemas: &[Value]) -> Value {
        let tools: Vec<Value> = schemas
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"name": format!("T{i}"), "input_schema": s, "strict": true}))
            .collect();
        json!({"tools": tools})
    }

    #[test]
    fn schemas_outside_the_subset_are_refused_until_brought_into_it() {
        let raw = json!({"type": "object", "properties": {
            "limit": {"type": "integer", "format": "uint", "minimum": 0}}});
        assert!(check(&request(std::slice::from_ref(&raw))).is_err());
        let (strict, _) = strict_schema(&raw).expect("convertible");
        assert_eq!(check(&request(&[strict])), Ok(()));
        let open =
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
        assert!(check(&request(&[open])).is_err());
    }

    #[test]
    fn the_request_limits_hold() {
        let closed = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(
            check(&request(&vec![closed.clone(); MAX_STRICT_TOOLS])),
            Ok(())
        );
        assert!(check(&request(&vec![closed; MAX_STRICT_TOOLS + 1])).is_err());
        let props: serde_json::Map<String, Value> = (0..=MAX_OPTIONAL_PARAMS)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let many = json!({"type": "object", "properties": props, "additionalProperties": false});
        assert!(check(&request(&[many])).is_err());
    }
}
