//! A fetched body as text for the model: HTML converted to markdown (scripts, styles and page chrome left out),
//! other text as it is; binary content refused.

/// Most characters of a page given to the model (or to the model answering the prompt).
pub const MAX_PAGE_CHARS: usize = 100_000;

/// Whether a content type is HTML.
fn is_html(content_type: &str) -> bool {
    let ct = content_type.to_ascii_lowercase();
    ct.contains("text/html") || ct.contains("application/xhtml")
}

/// Whether a content type is text that can be given as it is.
fn is_text(content_type: &str) -> bool {
    let ct = content_type.to_ascii_lowercase();
    ct.is_empty()
        || ct.starts_with("text/")
        || ["json", "xml", "javascript", "yaml", "toml", "markdown"]
            .iter()
            .any(|t| ct.contains(t))
}

/// The page as text for the model, or why it cannot be.
pub fn page_text(content_type: &str, body: &[u8]) -> Result<String, String> {
    let text = String::from_utf8_lossy(body);
    if is_html(content_type) || (content_type.is_empty() && looks_like_html(&text)) {
        return html_to_markdown(&text);
    }
    if is_text(content_type) {
        return Ok(text.into_owned());
    }
    Err(format!(
        "The page is {content_type}, which is not text; WebFetch reads HTML and text pages."
    ))
}

fn looks_like_html(text: &str) -> bool {
    let head: String = text
        .chars()
        .take(512)
        .collect::<String>()
        .to_ascii_lowercase();
    head.contains("<html") || head.contains("<!doctype html")
}

/// HTML to markdown with `htmd`.
pub fn html_to_markdown(html: &str) -> Result<String, String> {
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec![
            "script", "style", "noscript", "template", "svg", "head", "iframe", "nav", "footer",
        ])
        .build();
    converter
        .convert(html)
        .map(|md| md.trim().to_string())
        .map_err(|e| format!("The page's HTML could not be read: {e}"))
}

/// `text` cut to `max` characters, saying so when it was cut.
pub fn truncated(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) => format!(
            "{}\n\n[The page was cut at {max} characters.]",
            &text[..cut]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_markdown_without_scripts_or_styles() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body><h1>Guide</h1>\
                    <p>Use <a href=\"https://x.org/y\">the link</a> and <code>cargo</code>.</p>\
                    <ul><li>one</li><li>two</li></ul><script>alert(1)</script></body></html>";
        let md = page_text("text/html; charset=utf-8", html.as_bytes()).expect("converted");
        assert!(md.contains("# Guide"), "{md}");
        assert!(md.contains("[the link](https://x.org/y)"), "{md}");
        assert!(md.contains("`cargo`"), "{md}");
        assert!(md.contains("one") && md.contains("two"), "{md}");
        assert!(!md.contains("alert") && !md.contains("p{}"), "{md}");
    }

    #[test]
    fn text_is_kept_and_binary_is_refused() {
        assert_eq!(
            page_text("application/json", b"{\"a\":1}").as_deref(),
            Ok("{\"a\":1}")
        );
        assert_eq!(page_text("text/plain", b"plain").as_deref(), Ok("plain"));
        assert!(
            page_text("image/png", &[0x89, b'P', b'N', b'G'])
                .is_err_and(|e| e.contains("image/png"))
        );
        assert!(
            page_text("", b"<!DOCTYPE html><html><body><b>x</b></body></html>")
                .is_ok_and(|t| t.contains("**x**"))
        );
    }

    #[test]
    fn long_text_is_cut_with_a_note() {
        assert_eq!(truncated("abc", 3), "abc");
        let cut = truncated("abcdef", 3);
        assert!(
            cut.starts_with("abc\n") && cut.contains("cut at 3"),
            "{cut}"
        );
        assert!(truncated("ééééé", 2).starts_with("éé\n"));
    }
}
