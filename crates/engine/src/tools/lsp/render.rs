//! The servers' answers as the model reads them: places as `path:line:character` (1-based, paths as Read shows
//! them), symbols with their kind, hover text as the server wrote it.

use std::collections::BTreeMap;
use std::path::Path;

use lsp_types::{
    CallHierarchyItem, DocumentSymbol, DocumentSymbolResponse, GotoDefinitionResponse, Hover,
    HoverContents, Location, MarkedString, OneOf, SymbolKind, Uri, WorkspaceSymbolResponse,
};

use crate::lsp::path_of;

/// How many places or symbols are listed; more are counted.
const MAX_LISTED: usize = 200;

/// How a path is shown (as Read shows it).
pub type Shown<'a> = &'a (dyn Fn(&Path) -> String + Send + Sync);

fn place(uri: &Uri, line: u32, character: u32, shown: Shown<'_>) -> String {
    let file = path_of(uri).map_or_else(|| uri.as_str().to_string(), |p| shown(&p));
    format!("{file}:{}:{}", line + 1, character + 1)
}

fn kind(k: SymbolKind) -> String {
    let name = format!("{k:?}");
    name.trim_start_matches("SymbolKind(")
        .trim_end_matches(')')
        .to_lowercase()
}

fn capped(lines: Vec<String>) -> String {
    let more = lines.len().saturating_sub(MAX_LISTED);
    let mut out: Vec<String> = lines.into_iter().take(MAX_LISTED).collect();
    if more > 0 {
        out.push(format!("… and {more} more"));
    }
    out.join("\n")
}

/// goToDefinition and goToImplementation.
pub fn locations(answer: Option<GotoDefinitionResponse>, shown: Shown<'_>, what: &str) -> String {
    let places: Vec<String> = match answer {
        None => Vec::new(),
        Some(GotoDefinitionResponse::Scalar(l)) => vec![place(
            &l.uri,
            l.range.start.line,
            l.range.start.character,
            shown,
        )],
        Some(GotoDefinitionResponse::Array(ls)) => ls
            .iter()
            .map(|l| place(&l.uri, l.range.start.line, l.range.start.character, shown))
            .collect(),
        Some(GotoDefinitionResponse::Link(links)) => links
            .iter()
            .map(|l| {
                let r = l.target_selection_range;
                place(&l.target_uri, r.start.line, r.start.character, shown)
            })
            .collect(),
    };
    match places.len() {
        0 => format!("No {what} found at this position."),
        1 => format!("Found 1 {what}:\n{}", places[0]),
        n => format!("Found {n} {what}s:\n{}", capped(places)),
    }
}

/// findReferences, grouped by file.
pub fn references(refs: Vec<Location>, shown: Shown<'_>) -> String {
    if refs.is_empty() {
        return "No references found at this position.".into();
    }
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &refs {
        let file = path_of(&r.uri).map_or_else(|| r.uri.as_str().to_string(), |p| shown(&p));
        by_file.entry(file).or_default().push(format!(
            "  line {}, character {}",
            r.range.start.line + 1,
            r.range.start.character + 1
        ));
    }
    let files = by_file.len();
    let mut lines = Vec::new();
    for (file, places) in by_file {
        lines.push(format!("{file}:"));
        lines.extend(places);
    }
    let noun = if refs.len() == 1 {
        "reference"
    } else {
        "references"
    };
    let fnoun = if files == 1 { "file" } else { "files" };
    format!(
        "Found {} {noun} in {files} {fnoun}:\n{}",
        refs.len(),
        capped(lines)
    )
}

/// hover.
pub fn hover(answer: Option<Hover>) -> String {
    let marked = |m: MarkedString| match m {
        MarkedString::String(s) => s,
        MarkedString::LanguageString(l) => format!("```{}\n{}\n```", l.language, l.value),
    };
    let text = match answer.map(|h| h.contents) {
        None => String::new(),
        Some(HoverContents::Scalar(m)) => marked(m),
        Some(HoverContents::Array(ms)) => {
            ms.into_iter().map(marked).collect::<Vec<_>>().join("\n\n")
        }
        Some(HoverContents::Markup(m)) => m.value,
    };
    if text.trim().is_empty() {
        "No hover information at this position.".into()
    } else {
        text.trim().to_string()
    }
}

/// documentSymbol, nested symbols indented under their parent.
pub fn document_symbols(answer: Option<DocumentSymbolResponse>, shown: Shown<'_>) -> String {
    let mut lines = Vec::new();
    match answer {
        None => {}
        Some(DocumentSymbolResponse::Flat(symbols)) => {
            for s in symbols {
                let container = s
                    .container_name
                    .map(|c| format!(" in {c}"))
                    .unwrap_or_default();
                lines.push(format!(
                    "{} ({}){container} - {}",
                    s.name,
                    kind(s.kind),
                    place(
                        &s.location.uri,
                        s.location.range.start.line,
                        s.location.range.start.character,
                        shown
                    )
                ));
            }
        }
        Some(DocumentSymbolResponse::Nested(symbols)) => nested(&symbols, 0, &mut lines),
    }
    if lines.is_empty() {
        return "No symbols found in this file.".into();
    }
    format!("{} symbols:\n{}", lines.len(), capped(lines))
}

fn nested(symbols: &[DocumentSymbol], depth: usize, lines: &mut Vec<String>) {
    for s in symbols {
        let detail = s
            .detail
            .as_deref()
            .filter(|d| !d.is_empty())
            .map(|d| format!(" {d}"))
            .unwrap_or_default();
        lines.push(format!(
            "{}{} ({}){detail} - line {}",
            "  ".repeat(depth),
            s.name,
            kind(s.kind),
            s.selection_range.start.line + 1
        ));
        if let Some(children) = &s.children {
            nested(children, depth + 1, lines);
        }
    }
}

/// workspaceSymbol.
pub fn workspace_symbols(
    query: &str,
    answer: Option<WorkspaceSymbolResponse>,
    shown: Shown<'_>,
) -> String {
    let lines: Vec<String> = match answer {
        None => Vec::new(),
        Some(WorkspaceSymbolResponse::Flat(symbols)) => symbols
            .into_iter()
            .map(|s| {
                let r = s.location.range.start;
                format!(
                    "{} ({}) - {}",
                    s.name,
                    kind(s.kind),
                    place(&s.location.uri, r.line, r.character, shown)
                )
            })
            .collect(),
        Some(WorkspaceSymbolResponse::Nested(symbols)) => symbols
            .into_iter()
            .map(|s| {
                let at = match &s.location {
                    OneOf::Left(l) => {
                        place(&l.uri, l.range.start.line, l.range.start.character, shown)
                    }
                    OneOf::Right(w) => {
                        path_of(&w.uri).map_or_else(|| w.uri.as_str().to_string(), |p| shown(&p))
                    }
                };
                format!("{} ({}) - {at}", s.name, kind(s.kind))
            })
            .collect(),
    };
    if lines.is_empty() {
        return format!("No symbols match \"{query}\".");
    }
    format!(
        "{} symbols match \"{query}\":\n{}",
        lines.len(),
        capped(lines)
    )
}

fn item_line(item: &CallHierarchyItem, shown: Shown<'_>) -> String {
    let r = item.selection_range.start;
    let at = place(&item.uri, r.line, r.character, shown);
    // The detail names the item's module or file, so an item in a hidden file goes without it.
    let detail = item
        .detail
        .as_deref()
        .filter(|d| !d.is_empty() && !at.starts_with(super::HIDDEN_FILE))
        .map(|d| format!(" {d}"))
        .unwrap_or_default();
    format!("{} ({}){detail} - {at}", item.name, kind(item.kind))
}

/// prepareCallHierarchy.
pub fn call_items(items: &[CallHierarchyItem], shown: Shown<'_>) -> String {
    if items.is_empty() {
        return "No function or method at this position.".into();
    }
    capped(items.iter().map(|i| item_line(i, shown)).collect())
}

/// incomingCalls (`incoming`) or outgoingCalls of `item`: each other function with how many call sites.
pub fn calls(
    item: &CallHierarchyItem,
    found: &[(CallHierarchyItem, usize)],
    incoming: bool,
    shown: Shown<'_>,
) -> String {
    let head = if incoming {
        format!("Calls to {}", item.name)
    } else {
        format!("Calls from {}", item.name)
    };
    if found.is_empty() {
        return format!("{head}: none found.");
    }
    let lines: Vec<String> = found
        .iter()
        .map(|(other, sites)| {
            let times = if *sites > 1 {
                format!(" ({sites} call sites)")
            } else {
                String::new()
            };
            format!("{}{times}", item_line(other, shown))
        })
        .collect();
    format!("{head} ({}):\n{}", found.len(), capped(lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};
    use std::str::FromStr;

    fn shown(p: &Path) -> String {
        p.strip_prefix("/p").unwrap_or(p).display().to_string()
    }

    #[test]
    fn places_are_one_based_and_relative() {
        let uri = Uri::from_str("file:///p/src/a.py").expect("test value");
        let l = Location::new(
            uri.clone(),
            Range::new(Position::new(2, 4), Position::new(2, 9)),
        );
        assert_eq!(
            locations(
                Some(GotoDefinitionResponse::Scalar(l.clone())),
                &shown,
                "definition"
            ),
            "Found 1 definition:\nsrc/a.py:3:5"
        );
        assert_eq!(
            references(vec![l.clone(), l], &shown),
            "Found 2 references in 1 file:\nsrc/a.py:\n  line 3, character 5\n  line 3, character 5"
        );
        assert_eq!(
            locations(None, &shown, "definition"),
            "No definition found at this position."
        );
        assert_eq!(kind(SymbolKind::FUNCTION), "function");
    }
}
