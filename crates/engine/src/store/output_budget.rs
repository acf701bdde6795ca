//! [`OutputBudget`]: how much of a call's terminal output is stored. Every chunk of a long-running command is an
//! event; storing them all lets one `yes` add hundreds of megabytes to the database. The first [`HEAD_BYTES`] of a
//! call's output are stored as they stream; after that only a rolling tail of [`TAIL_BYTES`] is kept in memory and
//! stored as one event when the call ends, saying how much was left out and where the whole output is: a file
//! beside the database, itself capped at [`FILE_BYTES`].

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use tandem_protocol::SessionEvent;

/// Output stored as it streams, per call.
pub const HEAD_BYTES: usize = 64 * 1024;
/// Output kept from the end of a call whose output went past [`HEAD_BYTES`].
pub const TAIL_BYTES: usize = 64 * 1024;
/// The file holding a long call's whole output stops growing here.
pub const FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Per-call accounting of the output stored so far.
#[derive(Default)]
pub struct OutputBudget {
    /// Folder for the output files of this session; `None`: no files are written.
    dir: Option<PathBuf>,
    calls: HashMap<String, CallOutput>,
}

#[derive(Default)]
struct CallOutput {
    stored: usize,
    left_out: usize,
    tail: String,
    file: Option<(PathBuf, File, u64)>,
}

impl CallOutput {
    fn keep_tail(&mut self, text: &str) {
        self.tail.push_str(text);
        if self.tail.len() > TAIL_BYTES {
            let mut cut = self.tail.len() - TAIL_BYTES;
            while !self.tail.is_char_boundary(cut) {
                cut += 1;
            }
            self.tail.drain(..cut);
        }
    }

    fn append_file(&mut self, text: &str) {
        if let Some((path, file, written)) = &mut self.file
            && *written < FILE_BYTES
        {
            let room = (FILE_BYTES - *written) as usize;
            let bytes = &text.as_bytes()[..text.len().min(room)];
            if let Err(e) = file.write_all(bytes) {
                tracing::warn!("output file {}: {e}", path.display());
                *written = FILE_BYTES;
            } else {
                *written += bytes.len() as u64;
            }
        }
    }
}

impl OutputBudget {
    /// A budget whose long outputs are written in full (capped) under `dir`.
    pub fn with_dir(dir: PathBuf) -> Self {
        Self {
            dir: Some(dir),
            calls: HashMap::new(),
        }
    }

    /// The events to store for `event`: itself, nothing (an output chunk past the head), or the kept tail of a
    /// call's output followed by its result.
    pub fn admit(&mut self, event: SessionEvent) -> Vec<SessionEvent> {
        match event {
            SessionEvent::ToolCallProgress { tool_use_id, text } => {
                let dir = self.dir.clone();
                let call = self.calls.entry(tool_use_id.clone()).or_default();
                if call.stored + text.len() <= HEAD_BYTES && call.left_out == 0 {
                    call.stored += text.len();
                    if call.file.is_some() {
                        call.append_file(&text);
                    }
                    return vec![SessionEvent::ToolCallProgress { tool_use_id, text }];
                }
                if call.left_out == 0
                    && call.file.is_none()
                    && let Some(dir) = dir
                {
                    call.file = open_file(&dir, &tool_use_id);
                }
                call.left_out += text.len();
                call.append_file(&text);
                call.keep_tail(&text);
                Vec::new()
            }
            SessionEvent::ToolCallResult {
                ref tool_use_id, ..
            } => {
                let mut out = self.finish(tool_use_id).into_iter().collect::<Vec<_>>();
                out.push(event);
                out
            }
            SessionEvent::TurnEnded { .. } => {
                let ids: Vec<String> = self.calls.keys().cloned().collect();
                let mut out: Vec<SessionEvent> =
                    ids.iter().filter_map(|id| self.finish(id)).collect();
                out.push(event);
                out
            }
            other => vec![other],
        }
    }

    /// Forgets a call; returns the event carrying its kept tail when part of its output was left out.
    fn finish(&mut self, tool_use_id: &str) -> Option<SessionEvent> {
        let call = self.calls.remove(tool_use_id)?;
        if call.left_out <= call.tail.len() && call.left_out > 0 {
            return Some(SessionEvent::ToolCallProgress {
                tool_use_id: tool_use_id.to_string(),
                text: call.tail,
            });
        }
        if call.left_out == 0 {
            return None;
        }
        let skipped = call.left_out - call.tail.len();
        let whole = match &call.file {
            Some((path, _, written)) if *written >= FILE_BYTES => format!(
                "; the first {} MiB of it are in {}",
                FILE_BYTES / (1024 * 1024),
                path.display()
            ),
            Some((path, _, _)) => format!("; all of it is in {}", path.display()),
            None => String::new(),
        };
        Some(SessionEvent::ToolCallProgress {
            tool_use_id: tool_use_id.to_string(),
            text: format!(
                "\n[… {skipped} bytes of output not kept here{whole} …]\n{}",
                call.tail
            ),
        })
    }
}

/// Creates the output file of a call, with what was stored so far left out (it is in the database).
fn open_file(dir: &Path, tool_use_id: &str) -> Option<(PathBuf, File, u64)> {
    let name: String = tool_use_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(80)
        .collect();
    let path = dir.join(format!("{name}.txt"));
    let opened = std::fs::create_dir_all(dir).and_then(|_| File::create(&path));
    match opened {
        Ok(file) => Some((path, file, 0)),
        Err(e) => {
            tracing::warn!("output file {}: {e}", path.display());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_protocol::ToolOutcome;

    fn chunk(text: &str) -> SessionEvent {
        SessionEvent::ToolCallProgress {
            tool_use_id: "t1".into(),
            text: text.into(),
        }
    }

    #[test]
    fn a_long_output_keeps_its_head_and_tail_and_the_file_holds_the_rest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut budget = OutputBudget::with_dir(dir.path().to_path_buf());
        let line = "y\n".repeat(512);
        let mut stored = 0;
        let total = 40 * 1024 * 1024 / line.len();
        for _ in 0..total {
            stored += budget.admit(chunk(&line)).len();
        }
        assert_eq!(stored, HEAD_BYTES / line.len());
        let end = budget.admit(SessionEvent::ToolCallResult {
            tool_use_id: "t1".into(),
            outcome: ToolOutcome::Success,
            content: String::new(),
            detail: None,
        });
        assert_eq!(end.len(), 2);
        let SessionEvent::ToolCallProgress { text, .. } = &end[0] else {
            panic!("the tail comes first");
        };
        assert!(text.contains("bytes of output not kept here"), "{text}");
        assert!(text.len() < TAIL_BYTES + 512);
        let file = std::fs::read_dir(dir.path())
            .expect("dir")
            .next()
            .expect("a file")
            .expect("entry");
        assert_eq!(file.metadata().expect("meta").len(), FILE_BYTES);
    }

    #[test]
    fn a_short_output_is_stored_whole() {
        let mut budget = OutputBudget::default();
        assert_eq!(budget.admit(chunk("hello\n")).len(), 1);
        assert_eq!(
            budget
                .admit(SessionEvent::TurnEnded {
                    stop_reason: tandem_protocol::TurnStopReason::EndTurn
                })
                .len(),
            1
        );
    }
}
