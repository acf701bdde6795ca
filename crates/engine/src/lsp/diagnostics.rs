//! The diagnostics a server published, kept per file as they arrive; which errors a change introduced (those the
//! file did not have before, compared by message, code and source, not by place, since an edit moves lines); and
//! how they are worded for the model.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, PublishDiagnosticsParams};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many new errors are listed; more are counted.
const MAX_LISTED: usize = 20;

/// One publication for a file.
#[derive(Debug, Clone)]
pub struct Published {
    /// Its place in the order of all publications of the server (from 1).
    pub seq: u64,
    /// The document version it is for, when the server says.
    pub version: Option<i32>,
    pub items: Vec<Diagnostic>,
}

/// The latest publication per file (by URI text), and a counter that moves with every publication.
#[derive(Debug)]
pub struct DiagnosticStore {
    latest: Mutex<HashMap<String, Published>>,
    counter: watch::Sender<u64>,
}

impl Default for DiagnosticStore {
    fn default() -> Self {
        Self {
            latest: Mutex::default(),
            counter: watch::channel(0).0,
        }
    }
}

impl DiagnosticStore {
    /// Keeps a publication.
    pub fn publish(&self, params: PublishDiagnosticsParams) {
        let Ok(mut latest) = self.latest.lock() else {
            return;
        };
        let seq = *self.counter.borrow() + 1;
        latest.insert(
            params.uri.as_str().to_string(),
            Published {
                seq,
                version: params.version,
                items: params.diagnostics,
            },
        );
        self.counter.send_replace(seq);
    }

    /// The number of publications so far.
    pub fn seq(&self) -> u64 {
        *self.counter.borrow()
    }

    /// The latest publication for `uri`.
    pub fn latest(&self, uri: &str) -> Option<Published> {
        self.latest.lock().ok()?.get(uri).cloned()
    }

    /// Waits for a publication for `uri` later than publication `after` and not for a version before `version`;
    /// `None` when `deadline` passes, `cancel` fires or `stop` fires (the server stopped) first.
    pub async fn wait_for(
        &self,
        uri: &str,
        after: u64,
        version: Option<i32>,
        deadline: Instant,
        cancel: &CancellationToken,
        stop: &CancellationToken,
    ) -> Option<Published> {
        let mut counter = self.counter.subscribe();
        let found = async {
            loop {
                if let Some(p) = self.latest(uri)
                    && p.seq > after
                    && !matches!((p.version, version), (Some(got), Some(want)) if got < want)
                {
                    return Some(p);
                }
                if counter.changed().await.is_err() {
                    return None;
                }
            }
        };
        tokio::select! {
            p = found => p,
            () = tokio::time::sleep_until(deadline) => None,
            () = cancel.cancelled() => None,
            () = stop.cancelled() => None,
        }
    }
}

fn is_error(d: &Diagnostic) -> bool {
    d.severity == Some(DiagnosticSeverity::ERROR)
}

fn key(d: &Diagnostic) -> (String, Option<String>, Option<String>) {
    let code = d.code.as_ref().map(|c| match c {
        NumberOrString::Number(n) => n.to_string(),
        NumberOrString::String(s) => s.clone(),
    });
    (d.message.clone(), code, d.source.clone())
}

/// The errors of `after` that `before` did not have: each (message, code, source) counted, so a second copy of an
/// error that was there once is new.
pub fn new_errors(before: &[Diagnostic], after: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut had: HashMap<_, usize> = HashMap::new();
    for d in before.iter().filter(|d| is_error(d)) {
        *had.entry(key(d)).or_default() += 1;
    }
    after
        .iter()
        .filter(|d| is_error(d))
        .filter(|d| match had.get_mut(&key(d)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

/// The errors as the model reads them: the file, then one line each with its 1-based line and column.
pub fn render_errors(server: &str, shown: &Path, errors: &[Diagnostic]) -> String {
    let count = errors.len();
    let noun = if count == 1 { "error" } else { "errors" };
    let mut out = format!(
        "The language server `{server}` reports {count} new {noun} in {} after this change:",
        shown.display()
    );
    for d in errors.iter().take(MAX_LISTED) {
        let code = d
            .code
            .as_ref()
            .map(|c| match c {
                NumberOrString::Number(n) => format!(" [{n}]"),
                NumberOrString::String(s) => format!(" [{s}]"),
            })
            .unwrap_or_default();
        let source = d
            .source
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "\n  line {}, column {}: {}{code}{source}",
            d.range.start.line + 1,
            d.range.start.character + 1,
            d.message.trim()
        ));
    }
    if count > MAX_LISTED {
        out.push_str(&format!("\n  … and {} more", count - MAX_LISTED));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn diag(message: &str, line: u32, severity: DiagnosticSeverity) -> Diagnostic {
        Diagnostic {
            range: Range::new(Position::new(line, 4), Position::new(line, 9)),
            severity: Some(severity),
            message: message.to_string(),
            source: Some("Pyright".into()),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn only_errors_the_file_did_not_have_are_new() {
        let e = DiagnosticSeverity::ERROR;
        let w = DiagnosticSeverity::WARNING;
        let cases: &[(&[Diagnostic], &[Diagnostic], &[&str])] = &[
            (&[], &[diag("a", 1, e)], &["a"]),
            // The same error moved down by the edit is not new.
            (&[diag("a", 1, e)], &[diag("a", 7, e)], &[]),
            // A second copy is.
            (
                &[diag("a", 1, e)],
                &[diag("a", 1, e), diag("a", 9, e)],
                &["a"],
            ),
            // Warnings are not errors.
            (&[], &[diag("w", 1, w)], &[]),
            // A fixed error is not reported.
            (&[diag("a", 1, e)], &[], &[]),
        ];
        for (before, after, want) in cases {
            let got: Vec<_> = new_errors(before, after)
                .into_iter()
                .map(|d| d.message)
                .collect();
            assert_eq!(got, *want, "{before:?} -> {after:?}");
        }
    }

    #[test]
    fn errors_are_listed_one_based() {
        let text = render_errors(
            "python",
            Path::new("src/a.py"),
            &[diag("Bad type", 2, DiagnosticSeverity::ERROR)],
        );
        assert_eq!(
            text,
            "The language server `python` reports 1 new error in src/a.py after this change:\n  line 3, column 5: Bad type (Pyright)"
        );
    }
}
