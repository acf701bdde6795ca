//! Reading settings text the way the editors that write it allow: JSON with comments, trailing commas and a
//! byte-order mark (JSONC, parsed by `jsonc-parser`). Nothing looser is accepted — no single quotes, bare words,
//! missing commas or hexadecimal numbers — so a truncated or mangled file is an error, never read as something else.

use jsonc_parser::ParseOptions;
use serde_json::Value;

/// What JSONC allows beyond JSON: comments and trailing commas.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses settings text (JSONC, an optional byte-order mark first). `Ok(None)` for text that is empty or only
/// white space (and comments); `Err` says what is wrong and where (`… on line 3 column 5`).
pub fn parse_jsonc(text: &str) -> Result<Option<Value>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match jsonc_parser::parse_to_serde_value::<Value>(text, &options()) {
        Ok(Value::Null) if !text.trim_start().starts_with("null") => Ok(None),
        Ok(value) => Ok(Some(value)),
        Err(e) => Err(e.to_string()),
    }
}

/// Whether `text` is JSON as the strict grammar has it (no comments, no trailing commas): such a file can be
/// rewritten without losing anything a person wrote in it.
pub fn is_strict_json(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_editors_write_and_nothing_looser() {
        let read = |t: &str| parse_jsonc(t);
        let expected = json!({"permissions": {"deny": ["Read(.env)"]}});
        for text in [
            r#"{"permissions": {"deny": ["Read(.env)"]}}"#,
            "\u{feff}{\"permissions\": {\"deny\": [\"Read(.env)\"]}}",
            "// the team's rules\n{\"permissions\": {\"deny\": [\"Read(.env)\",],},}\n",
            "{/* no secrets */ \"permissions\": {\"deny\": [\"Read(.env)\"]}}",
        ] {
            assert_eq!(read(text), Ok(Some(expected.clone())), "{text}");
        }
        assert_eq!(read(""), Ok(None));
        assert_eq!(read("  \n// nothing yet\n"), Ok(None));
        for broken in [
            "{\"permissions\": {\"deny\": [\"Read(.env)\"",
            "{'permissions': {}}",
            "{permissions: {}}",
            "{\"a\": 1 \"b\": 2}",
            "{\"a\": 0x10}",
            "{ not json",
        ] {
            let e = read(broken).expect_err(broken);
            assert!(e.contains("line"), "{broken}: {e}");
        }
        assert!(is_strict_json("{\"a\": [1]}"));
        assert!(!is_strict_json("{\"a\": [1,]}"));
        assert!(!is_strict_json("// x\n{}"));
    }
}
