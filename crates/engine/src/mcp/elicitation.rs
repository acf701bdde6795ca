//! Elicitation forms: a server's `elicitation/create` request read into the form the person sees (the MCP
//! specification's primitive fields: text with a format and a length, number or integer with bounds, boolean,
//! one-of-several and several-of-several with labels), and the person's values checked against it before they go
//! back to the server.

use serde_json::{Map, Value};
use tandem_protocol::{ElicitationField, EnumOption, FieldKind, StringFormat};

/// A form read from a request: the server's message and its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub message: String,
    pub fields: Vec<ElicitationField>,
}

/// Reads a request (`message`, `requestedSchema`); an error says why it cannot be shown (a request for a web page
/// rather than a form, a field of a kind the specification does not allow).
pub fn read_form(request: &Value) -> Result<Form, String> {
    if let Some(mode) = request.get("mode").and_then(Value::as_str)
        && mode != "form"
    {
        return Err(format!(
            "it asked for a {mode} elicitation, which Tandem does not take"
        ));
    }
    let message = request
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let schema = request.get("requestedSchema").unwrap_or(&Value::Null);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = Vec::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            fields.push(ElicitationField {
                name: name.clone(),
                title: text(property, "title"),
                description: text(property, "description"),
                required: required.contains(&name.as_str()),
                kind: field_kind(name, property)?,
            });
        }
    }
    Ok(Form { message, fields })
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

fn count(value: &Value, key: &str) -> Option<u32> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// The options of a choice: `enum` (with `enumNames` for labels), or `oneOf` / `anyOf` of `{const, title}`.
fn options(property: &Value) -> Option<Vec<EnumOption>> {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let names = property.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let value = v.as_str()?.to_string();
                    let label = names
                        .and_then(|n| n.get(i))
                        .and_then(Value::as_str)
                        .map_or_else(|| value.clone(), str::to_string);
                    Some(EnumOption { value, label })
                })
                .collect(),
        );
    }
    let choices = property
        .get("oneOf")
        .or_else(|| property.get("anyOf"))
        .and_then(Value::as_array)?;
    Some(
        choices
            .iter()
            .filter_map(|c| {
                let value = c.get("const")?.as_str()?.to_string();
                let label = text(c, "title").unwrap_or_else(|| value.clone());
                Some(EnumOption { value, label })
            })
            .collect(),
    )
}

fn field_kind(name: &str, property: &Value) -> Result<FieldKind, String> {
    let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "string" => {
            if let Some(options) = options(property) {
                return Ok(FieldKind::Enum {
                    options,
                    default: text(property, "default"),
                });
            }
            let format = match property.get("format").and_then(Value::as_str) {
                None => None,
                Some("email") => Some(StringFormat::Email),
                Some("uri") => Some(StringFormat::Uri),
                Some("date") => Some(StringFormat::Date),
                Some("date-time") => Some(StringFormat::DateTime),
                Some(other) => {
                    return Err(format!(
                        "the field `{name}` has the unknown format {other:?}"
                    ));
                }
            };
            Ok(FieldKind::String {
                format,
                min_length: count(property, "minLength"),
                max_length: count(property, "maxLength"),
                default: text(property, "default"),
            })
        }
        "number" | "integer" => Ok(FieldKind::Number {
            integer: kind == "integer",
            minimum: property.get("minimum").and_then(Value::as_f64),
            maximum: property.get("maximum").and_then(Value::as_f64),
            default: property.get("default").and_then(Value::as_f64),
        }),
        "boolean" => Ok(FieldKind::Boolean {
            default: property.get("default").and_then(Value::as_bool),
        }),
        "array" => {
            let options = property
                .get("items")
                .and_then(options)
                .ok_or_else(|| format!("the list `{name}` offers no options to choose from"))?;
            Ok(FieldKind::MultiSelect {
                options,
                min_items: count(property, "minItems"),
                max_items: count(property, "maxItems"),
                default: property
                    .get("default")
                    .and_then(Value::as_array)
                    .map(|d| {
                        d.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        }
        other => Err(format!(
            "the field `{name}` is of type {other:?}; a form holds only text, numbers, booleans and choices"
        )),
    }
}

/// Checks the person's values against the form: every required field present, each value of its field's kind and
/// within its constraints, no field the form does not have. The error names the first field that is wrong.
pub fn check_values(
    fields: &[ElicitationField],
    values: &Map<String, Value>,
) -> Result<(), String> {
    if let Some(unknown) = values
        .keys()
        .find(|k| !fields.iter().any(|f| &f.name == *k))
    {
        return Err(format!("`{unknown}` is not a field of the form"));
    }
    for field in fields {
        match values.get(&field.name) {
            None | Some(Value::Null) if field.required => {
                return Err(format!("`{}` is required", field.name));
            }
            None | Some(Value::Null) => {}
            Some(value) => check_value(field, value)?,
        }
    }
    Ok(())
}

fn check_value(field: &ElicitationField, value: &Value) -> Result<(), String> {
    let name = &field.name;
    match &field.kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            let text = value
                .as_str()
                .ok_or_else(|| format!("`{name}` must be text"))?;
            let chars = text.chars().count();
            if min_length.is_some_and(|min| chars < min as usize) {
                return Err(format!(
                    "`{name}` is shorter than {} characters",
                    min_length.unwrap_or(0)
                ));
            }
            if max_length.is_some_and(|max| chars > max as usize) {
                return Err(format!(
                    "`{name}` is longer than {} characters",
                    max_length.unwrap_or(0)
                ));
            }
            if let Some(format) = format
                && !matches_format(*format, text)
            {
                return Err(format!("`{name}` is not a valid {}", format_name(*format)));
            }
            Ok(())
        }
        FieldKind::Number {
            integer,
            minimum,
            maximum,
            ..
        } => {
            let n = value
                .as_f64()
                .ok_or_else(|| format!("`{name}` must be a number"))?;
            if *integer && (n.fract() != 0.0 || !value.is_i64() && !value.is_u64()) {
                return Err(format!("`{name}` must be a whole number"));
            }
            if minimum.is_some_and(|min| n < min) || maximum.is_some_and(|max| n > max) {
                return Err(format!("`{name}` is out of range"));
            }
            Ok(())
        }
        FieldKind::Boolean { .. } => value
            .as_bool()
            .map(|_| ())
            .ok_or_else(|| format!("`{name}` must be true or false")),
        FieldKind::Enum { options, .. } => {
            let chosen = value.as_str().unwrap_or_default();
            if options.iter().any(|o| o.value == chosen) {
                Ok(())
            } else {
                Err(format!("`{name}` must be one of the options"))
            }
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            ..
        } => {
            let chosen = value
                .as_array()
                .ok_or_else(|| format!("`{name}` must be a list of options"))?;
            if chosen
                .iter()
                .any(|c| !options.iter().any(|o| Some(o.value.as_str()) == c.as_str()))
            {
                return Err(format!("`{name}` must hold only the options"));
            }
            if min_items.is_some_and(|min| chosen.len() < min as usize) {
                return Err(format!("`{name}` has too few choices"));
            }
            if max_items.is_some_and(|max| chosen.len() > max as usize) {
                return Err(format!("`{name}` has too many choices"));
            }
            Ok(())
        }
    }
}

fn format_name(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "email address",
        StringFormat::Uri => "URI",
        StringFormat::Date => "date (YYYY-MM-DD)",
        StringFormat::DateTime => "date and time (RFC 3339)",
    }
}

/// Whether `text` is in `format`: an email address with one `@` and a dotted domain, an absolute URI, a calendar
/// date `YYYY-MM-DD`, or an RFC 3339 date and time.
fn matches_format(format: StringFormat, text: &str) -> bool {
    match format {
        StringFormat::Email => text.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !text.contains(char::is_whitespace)
        }),
        StringFormat::Uri => reqwest::Url::parse(text).is_ok(),
        StringFormat::Date => chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok(),
        StringFormat::DateTime => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form() -> Form {
        read_form(&json!({
            "message": "Who are you?",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "email": {"type": "string", "format": "email", "title": "Email"},
                    "name": {"type": "string", "minLength": 2, "maxLength": 5},
                    "age": {"type": "integer", "minimum": 0, "maximum": 150},
                    "ratio": {"type": "number", "maximum": 1},
                    "agree": {"type": "boolean", "default": false},
                    "size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]},
                    "color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}]},
                    "born": {"type": "string", "format": "date"},
                    "at": {"type": "string", "format": "date-time"},
                    "site": {"type": "string", "format": "uri"},
                    "tools": {"type": "array", "minItems": 1, "maxItems": 2,
                              "items": {"anyOf": [{"const": "a", "title": "Axe"}, {"const": "b", "title": "Bow"},
                                                  {"const": "c", "title": "Cane"}]}, "default": ["a"]}
                },
                "required": ["email", "age"]
            }
        }))
        .expect("a form")
    }

    #[test]
    fn a_request_becomes_a_form_of_the_specifications_field_kinds() {
        let form = form();
        assert_eq!(form.message, "Who are you?");
        let field = |n: &str| form.fields.iter().find(|f| f.name == n).expect(n);
        assert!(field("email").required && !field("name").required);
        assert_eq!(field("email").title.as_deref(), Some("Email"));
        assert_eq!(
            field("size").kind,
            FieldKind::Enum {
                options: vec![
                    EnumOption {
                        value: "s".into(),
                        label: "Small".into()
                    },
                    EnumOption {
                        value: "m".into(),
                        label: "Medium".into()
                    }
                ],
                default: None
            }
        );
        assert!(
            matches!(&field("color").kind, FieldKind::Enum { options, .. } if options[0].label == "Red")
        );
        assert!(matches!(
            field("age").kind,
            FieldKind::Number {
                integer: true,
                minimum: Some(0.0),
                ..
            }
        ));
        assert!(matches!(
            field("agree").kind,
            FieldKind::Boolean {
                default: Some(false)
            }
        ));
        assert!(matches!(&field("tools").kind,
            FieldKind::MultiSelect { options, min_items: Some(1), max_items: Some(2), default }
                if options.len() == 3 && options[1].label == "Bow" && default == &["a".to_string()]));
        for (request, says) in [
            (
                json!({"mode": "url", "message": "open", "url": "https://x"}),
                "url elicitation",
            ),
            (
                json!({"message": "m", "requestedSchema": {"properties": {"tags": {"type": "array"}}}}),
                "`tags`",
            ),
            (
                json!({"message": "m", "requestedSchema": {"properties": {"o": {"type": "object"}}}}),
                "`o`",
            ),
            (
                json!({"message": "m", "requestedSchema": {"properties": {"h": {"type": "string", "format": "hostname"}}}}),
                "hostname",
            ),
        ] {
            let err = read_form(&request).expect_err("not a form Tandem shows");
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn values_are_checked_against_the_form() {
        let fields = form().fields;
        let ok = |v: Value| check_values(&fields, v.as_object().expect("object"));
        assert_eq!(ok(json!({"email": "a@b.org", "age": 30})), Ok(()));
        assert_eq!(
            ok(
                json!({"email": "a@b.org", "age": 30, "name": "Ann", "ratio": 0.5, "agree": true, "size": "m",
                      "color": "r", "born": "2001-02-03", "at": "2001-02-03T04:05:06Z", "site": "https://x.org/a"})
            ),
            Ok(())
        );
        for (values, says) in [
            (json!({"age": 30}), "`email` is required"),
            (json!({"email": "a@b.org"}), "`age` is required"),
            (json!({"email": "not-an-email", "age": 1}), "valid email"),
            (json!({"email": "a@b.org", "age": 1.5}), "whole number"),
            (json!({"email": "a@b.org", "age": 200}), "out of range"),
            (json!({"email": "a@b.org", "age": "3"}), "must be a number"),
            (
                json!({"email": "a@b.org", "age": 1, "name": "A"}),
                "shorter than 2",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "name": "Abcdef"}),
                "longer than 5",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "ratio": 2}),
                "out of range",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "agree": "yes"}),
                "true or false",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "size": "xl"}),
                "one of the options",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "born": "2001-13-01"}),
                "valid date",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "at": "yesterday"}),
                "date and time",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "site": "not a uri"}),
                "valid URI",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "extra": 1}),
                "not a field",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "tools": []}),
                "too few",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "tools": ["a", "b", "c"]}),
                "too many",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "tools": ["z"]}),
                "only the options",
            ),
            (
                json!({"email": "a@b.org", "age": 1, "tools": "a"}),
                "a list",
            ),
        ] {
            let err = ok(values.clone()).expect_err(&values.to_string());
            assert!(err.contains(says), "{values}: {err}");
        }
    }
}
