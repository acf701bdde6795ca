//! PDFs for Read: the text of each page (pure Rust, via lopdf), for the pages asked for.

use std::path::Path;

use tandem_protocol::{ReadContent, ToolDetail};

use crate::tool::{ToolError, ToolOutput};

/// Pages read in one call at most.
pub const MAX_PAGES_PER_CALL: usize = 20;
/// Longer PDFs need the `pages` parameter.
pub const MAX_PAGES_WITHOUT_RANGE: usize = 10;

/// Parses a page selection such as `3`, `1-5` or `1-3,7` into sorted page numbers (1-based).
pub fn parse_pages(spec: &str, page_count: usize) -> Result<Vec<u32>, String> {
    let mut pages = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let parse = |s: &str| {
            s.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
                format!("`{part}` is not a page or range of pages (pages count from 1)")
            })
        };
        let (a, b) = (parse(a)?, parse(b)?);
        if a > b {
            return Err(format!("the range `{part}` runs backwards"));
        }
        if b as usize > page_count {
            return Err(format!(
                "the PDF has {page_count} pages; `{part}` is past its end"
            ));
        }
        pages.extend(a..=b);
        if pages.len() > MAX_PAGES_PER_CALL {
            return Err(format!(
                "at most {MAX_PAGES_PER_CALL} pages can be read per call"
            ));
        }
    }
    pages.sort_unstable();
    pages.dedup();
    if pages.is_empty() {
        return Err("`pages` names no page".into());
    }
    Ok(pages)
}

/// Reads the text of a PDF's pages.
pub fn read_pdf(path: &Path, bytes: &[u8], pages: Option<&str>) -> Result<ToolOutput, ToolError> {
    let doc = lopdf::Document::load_mem(bytes).map_err(|e| {
        ToolError::to_model(format!("{} is not a readable PDF: {e}", path.display()))
    })?;
    if doc.is_encrypted() {
        return Err(ToolError::to_model(format!(
            "{} is an encrypted PDF; its text cannot be read.",
            path.display()
        )));
    }
    let count = doc.get_pages().len();
    let selected = match pages {
        Some(spec) => parse_pages(spec, count).map_err(ToolError::to_model)?,
        None if count > MAX_PAGES_WITHOUT_RANGE => {
            return Err(ToolError::to_model(format!(
                "{} has {count} pages; give `pages` (e.g. \"1-{MAX_PAGES_WITHOUT_RANGE}\") to read at most \
                 {MAX_PAGES_PER_CALL} at a time.",
                path.display()
            )));
        }
        None => (1..=count as u32).collect(),
    };
    let mut out = String::new();
    for page in &selected {
        let text = doc
            .extract_text(&[*page])
            .unwrap_or_else(|e| format!("[the text of this page could not be extracted: {e}]"));
        out.push_str(&format!(
            "--- Page {page} of {count} ---\n{}\n",
            text.trim_end()
        ));
    }
    Ok(ToolOutput::text(out).with_detail(ToolDetail::Read {
        path: path.display().to_string(),
        content: ReadContent::Pdf {
            pages: selected,
            page_count: u32::try_from(count).unwrap_or(u32::MAX),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_page_ranges() {
        assert_eq!(parse_pages("1-3,7", 10), Ok(vec![1, 2, 3, 7]));
        assert!(parse_pages("0", 10).is_err());
        assert!(parse_pages("5-2", 10).is_err());
        assert!(parse_pages("11", 10).is_err());
        assert!(parse_pages("1-30", 40).is_err());
    }
}
