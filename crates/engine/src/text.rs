//! Cutting a long text for a message or for the model, with a marker that says what was cut and how much, so that
//! no echo of outside input (a hook's output, a tool's argument) can grow a request or a message without bound.

/// `text` itself when it has at most `max` characters; otherwise its first and last `max / 2` characters around a
/// marker naming `what` was cut and how many characters.
pub fn cut_middle(text: &str, max: usize, what: &str) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let half = max / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(count - half).collect();
    format!(
        "{head}\n\n[... {what} truncated: {} characters were cut from the middle ...]\n\n{tail}",
        count - 2 * half
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_text_over_the_bound_is_cut_and_the_cut_is_counted() {
        assert_eq!(cut_middle("short", 10, "note"), "short");
        let long = format!("{}{}", "a".repeat(50), "b".repeat(50));
        let cut = cut_middle(&long, 20, "the hook's stderr");
        assert!(
            cut.starts_with(&"a".repeat(10)) && cut.ends_with(&"b".repeat(10)),
            "{cut}"
        );
        assert!(cut.contains(
            "[... the hook's stderr truncated: 80 characters were cut from the middle ...]"
        ));
    }
}
