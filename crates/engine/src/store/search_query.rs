//! A person's search words as an FTS5 query that cannot be a syntax error: every word and every "quoted phrase"
//! becomes a quoted FTS5 string (so `AND`, `NEAR(`, `-`, `col:` are words like any other), a trailing `*` asks for
//! words that begin so, and all of them must match — in the text's column, and in a folder's scope when asked.

/// The most characters a query may have.
pub const MAX_QUERY_CHARS: usize = 1_000;

/// The most words and phrases a query may have.
pub const MAX_TERMS: usize = 32;

/// Why a query cannot be searched for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the search has no words to look for")]
    Empty,
    #[error("the search is too long ({0} characters; at most {MAX_QUERY_CHARS})")]
    TooLong(usize),
    #[error("the search has too many words ({0}; at most {MAX_TERMS})")]
    TooManyTerms(usize),
}

/// One word or phrase of the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub text: String,
    /// Its last word matches words that begin so.
    pub prefix: bool,
}

impl Term {
    /// The term as an FTS5 string.
    pub fn fts(&self) -> String {
        let q = format!("\"{}\"", self.text.replace('"', "\"\""));
        if self.prefix { format!("{q} *") } else { q }
    }
}

/// The FTS5 expression matching texts that hold every term (in the text's column), of the folder whose scope token
/// is `scope` when given.
pub fn match_expr(terms: &[Term], scope: Option<&str>) -> String {
    let body: Vec<String> = terms.iter().map(Term::fts).collect();
    let mut expr = format!("body : ({})", body.join(" "));
    if let Some(scope) = scope {
        expr.push_str(&format!(" AND scope : \"{scope}\""));
    }
    expr
}

/// The FTS5 query for `input`: its terms, quoted.
#[cfg(test)]
fn fts_query(input: &str) -> Result<String, QueryError> {
    Ok(terms(input)?
        .iter()
        .map(Term::fts)
        .collect::<Vec<_>>()
        .join(" "))
}

/// The words and phrases of `input`.
pub fn terms(input: &str) -> Result<Vec<Term>, QueryError> {
    let chars = input.chars().count();
    if chars > MAX_QUERY_CHARS {
        return Err(QueryError::TooLong(chars));
    }
    let terms: Vec<Term> = split(input)
        .into_iter()
        .filter(|t| t.text.chars().any(char::is_alphanumeric))
        .collect();
    if terms.is_empty() {
        return Err(QueryError::Empty);
    }
    if terms.len() > MAX_TERMS {
        return Err(QueryError::TooManyTerms(terms.len()));
    }
    Ok(terms)
}

/// Words split on white space, and phrases between double quotes (an unbalanced quote runs to the end).
fn split(input: &str) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut word = String::new();
    let mut in_phrase = false;
    let finish = |word: &mut String, terms: &mut Vec<Term>| {
        let text = std::mem::take(word);
        let (text, prefix) = match text.strip_suffix('*') {
            Some(stem) => (stem.trim_end_matches('*').to_string(), true),
            None => (text, false),
        };
        if !text.trim().is_empty() {
            terms.push(Term {
                text: text.trim().to_string(),
                prefix,
            });
        }
    };
    for c in input.chars() {
        if c == '"' {
            finish(&mut word, &mut terms);
            in_phrase = !in_phrase;
        } else if c.is_whitespace() && !in_phrase {
            finish(&mut word, &mut terms);
        } else {
            word.push(c);
        }
    }
    finish(&mut word, &mut terms);
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_phrases_become_quoted_strings() {
        let cases: &[(&str, Result<&str, QueryError>)] = &[
            ("tokio runtime", Ok(r#""tokio" "runtime""#)),
            (r#""exact phrase" here"#, Ok(r#""exact phrase" "here""#)),
            (
                r#"unbalanced "quote runs"#,
                Ok(r#""unbalanced" "quote runs""#),
            ),
            ("NEAR(a b)", Ok(r#""NEAR(a" "b)""#)),
            ("a AND b OR NOT c", Ok(r#""a" "AND" "b" "OR" "NOT" "c""#)),
            ("-excluded", Ok(r#""-excluded""#)),
            ("body:secret", Ok(r#""body:secret""#)),
            ("pref*", Ok(r#""pref" *"#)),
            ("pref**", Ok(r#""pref" *"#)),
            ("*", Err(QueryError::Empty)),
            ("  - * \" ", Err(QueryError::Empty)),
            ("", Err(QueryError::Empty)),
            (r#"say ""hi"""#, Ok(r#""say" "hi""#)),
            ("x\"y", Ok(r#""x" "y""#)),
        ];
        for (input, want) in cases {
            let got = fts_query(input);
            assert_eq!(got.as_deref(), want.as_ref().map(|s| *s), "{input:?}");
        }
    }

    #[test]
    fn the_match_is_on_the_text_and_on_the_folder_when_asked() {
        let terms = terms("a \"b c\" d*").expect("terms");
        assert_eq!(match_expr(&terms, None), r#"body : ("a" "b c" "d" *)"#);
        assert_eq!(
            match_expr(&terms, Some("f00")),
            r#"body : ("a" "b c" "d" *) AND scope : "f00""#
        );
    }

    #[test]
    fn long_queries_are_refused_with_a_reason() {
        let long = "a".repeat(MAX_QUERY_CHARS + 1);
        assert_eq!(
            fts_query(&long),
            Err(QueryError::TooLong(MAX_QUERY_CHARS + 1))
        );
        let many = vec!["w"; MAX_TERMS + 1].join(" ");
        assert_eq!(
            fts_query(&many),
            Err(QueryError::TooManyTerms(MAX_TERMS + 1))
        );
    }
}
