//! Elicitation forms: a server's `elicitation/create` request read into the form the person sees (the MCP
//! specification's primitive fields: text with a format and a length, number or integer with bounds, boolean,
//! one-of-several and several-of-several with labels), and the person's values checked against it before they go
//! back to the server.

use std::borrow::Cow;

use rmcp::model::{
    ConstTitle, ElicitRequestParams, EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition,
    SingleSelectEnumSchema, StringFormat as McpFormat,
};
use serde_json::{Map, Value};
use tandem_protocol::{ElicitationField, EnumOption, FieldKind, StringFormat};

/// A form read from a request: the server's message and its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub message: String,
    pub fields: Vec<ElicitationField>,
}

/// Reads a request (`message`, `requestedSchema`, already parsed into the protocol's types, which take only the
/// specification's field kinds); an error says why it cannot be shown (a request for a web page rather than a form,
/// a field of a kind newer than this client knows). Fields keep the order the server sent them in.
pub fn read_form(request: &ElicitRequestParams) -> Result<Form, String> {
    let (message, schema) = match request {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => (message.clone(), requested_schema),
        ElicitRequestParams::UrlElicitationParams { .. } => {
            return Err("it asked for a url elicitation, which Tandem does not take".into());
        }
        _ => return Err("it asked for a kind of elicitation Tandem does not take".into()),
    };
    let required = schema.required.clone().unwrap_or_default();
    let order: Vec<&String> = match &schema.property_order {
        Some(order) => order.iter().collect(),
        None => schema.properties.keys().collect(),
    };
    let mut fields = Vec::new();
    for name in order {
        let Some(property) = schema.properties.get(name) else {
            continue;
        };
        let (title, description) = labels(property);
        fields.push(ElicitationField {
            name: name.clone(),
            title,
            description,
            required: required.contains(name),
            kind: field_kind(name, property)?,
        });
    }
    Ok(Form { message, fields })
}

fn owned(text: &Option<Cow<'static, str>>) -> Option<String> {
    text.as_ref().map(|t| t.to_string())
}

/// A field's title and description.
fn labels(property: &PrimitiveSchemaDefinition) -> (Option<String>, Option<String>) {
    use PrimitiveSchemaDefinition as P;
    match property {
        P::String(s) => (owned(&s.title), owned(&s.description)),
        P::Number(n) => (owned(&n.title), owned(&n.description)),
        P::Integer(i) => (owned(&i.title), owned(&i.description)),
        P::Boolean(b) => (owned(&b.title), owned(&b.description)),
        P::Enum(EnumSchema::Single(SingleSelectEnumSchema::Untitled(e))) => {
            (owned(&e.title), owned(&e.description))
        }
        P::Enum(EnumSchema::Single(SingleSelectEnumSchema::Titled(e))) => {
            (owned(&e.title), owned(&e.description))
        }
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Untitled(e))) => {
            (owned(&e.title), owned(&e.description))
        }
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(e))) => {
            (owned(&e.title), owned(&e.description))
        }
        P::Enum(EnumSchema::Legacy(e)) => (owned(&e.title), owned(&e.description)),
        _ => (None, None),
    }
}

/// Options whose value is also their label.
fn plain(values: &[String]) -> Vec<EnumOption> {
    values
        .iter()
        .map(|value| EnumOption {
            value: value.clone(),
            label: value.clone(),
        })
        .collect()
}

/// Options of `{const, title}`.
fn titled(choices: &[ConstTitle]) -> Vec<EnumOption> {
    choices
        .iter()
        .map(|c| EnumOption {
            value: c.const_.clone(),
            label: if c.title.is_empty() {
                c.const_.clone()
            } else {
                c.title.clone()
            },
        })
        .collect()
}

/// A count from the schema, capped at `u32::MAX`.
fn count(n: Option<u64>) -> Option<u32> {
    n.map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

fn multi(
    options: Vec<EnumOption>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    default: &Option<Vec<String>>,
) -> FieldKind {
    FieldKind::MultiSelect {
        options,
        min_items: count(min_items),
        max_items: count(max_items),
        default: default.clone().unwrap_or_default(),
    }
}

fn field_kind(name: &str, property: &PrimitiveSchemaDefinition) -> Result<FieldKind, String> {
    use PrimitiveSchemaDefinition as P;
    Ok(match property {
        P::String(s) => FieldKind::String {
            format: match s.format {
                None => None,
                Some(McpFormat::Email) => Some(StringFormat::Email),
                Some(McpFormat::Uri) => Some(StringFormat::Uri),
                Some(McpFormat::Date) => Some(StringFormat::Date),
                Some(McpFormat::DateTime) => Some(StringFormat::DateTime),
                Some(other) => {
                    return Err(format!(
                        "the field `{name}` has the unknown format {other:?}"
                    ));
                }
            },
            min_length: s.min_length,
            max_length: s.max_length,
            default: s.default.clone(),
        },
        P::Number(n) => FieldKind::Number {
            integer: false,
            minimum: n.minimum,
            maximum: n.maximum,
            default: n.default,
        },
        P::Integer(i) => FieldKind::Number {
            integer: true,
            minimum: i.minimum.map(|n| n as f64),
            maximum: i.maximum.map(|n| n as f64),
            default: i.default.map(|n| n as f64),
        },
        P::Boolean(b) => FieldKind::Boolean { default: b.default },
        P::Enum(EnumSchema::Single(SingleSelectEnumSchema::Untitled(e))) => FieldKind::Enum {
            options: plain(&e.enum_),
            default: e.default.clone(),
        },
        P::Enum(EnumSchema::Single(SingleSelectEnumSchema::Titled(e))) => FieldKind::Enum {
            options: titled(&e.one_of),
            default: e.default.clone(),
        },
        P::Enum(EnumSchema::Legacy(e)) => FieldKind::Enum {
            options: e
                .enum_
                .iter()
                .enumerate()
                .map(|(i, value)| EnumOption {
                    value: value.clone(),
                    label: e
                        .enum_names
                        .as_ref()
                        .and_then(|names| names.get(i))
                        .unwrap_or(value)
                        .clone(),
                })
                .collect(),
            default: e.default.clone(),
        },
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Untitled(e))) => {
            multi(plain(&e.items.enum_), e.min_items, e.max_items, &e.default)
        }
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(e))) => multi(
            titled(&e.items.any_of),
            e.min_items,
            e.max_items,
            &e.default,
        ),
        _ => {
            return Err(format!(
                "the field `{name}` is of a kind Tandem does not know; a form holds only text, numbers, booleans \
                 and choices"
            ));
        }
    })
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

    /// Reads a request as a server sends it on the wire; a request the protocol's types refuse is an error too.
    fn read(request: Value) -> Result<Form, String> {
        let request: ElicitRequestParams = serde_json::from_value(request)
            .map_err(|e| format!("refused by the protocol's types: {e}"))?;
        read_form(&request)
    }

    fn form() -> Form {
        read(json!({
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
            let err = read(request).expect_err("not a form Tandem shows");
            assert!(
                err.contains(says) || err.contains("refused by the protocol"),
                "{err}"
            );
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
