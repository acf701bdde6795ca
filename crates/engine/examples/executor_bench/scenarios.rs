//! The scripted model turns both agents get, and the project folder they run in.

use std::path::Path;

use serde_json::json;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedTurn};

/// Which agent a script is for (only the ~200 ms tool differs: see `slow_call`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Tandem,
    Reference,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Tandem => "tandem",
            Agent::Reference => "reference",
        }
    }
}

/// A tool call the script makes: in request `request` (1-based), content block `index`.
#[derive(Debug, Clone)]
pub struct Call {
    pub request: usize,
    pub index: u64,
    pub id: String,
    /// The file a Read call opens (dispatch scenario).
    pub file: Option<String>,
}

/// A script and the calls it makes; `batches[n]` is the number of slow calls in request n+1 (ten scenario).
pub struct Scenario {
    pub script: Script,
    pub calls: Vec<Call>,
    pub batches: Vec<usize>,
}

/// Reads per message in the dispatch scenario.
pub const READS_PER_MESSAGE: usize = 2;
/// Text after the tool calls of each dispatch message, streamed one delta per event.
const TAIL: &str =
    "Reading those two files now; I will summarise what they say once both results are back.";

/// The files Read calls open: `read_NNN.txt`, a few lines each.
pub fn make_project(dir: &Path, files: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..files {
        let text: String = (0..20)
            .map(|l| format!("line {l} of file {i}: some ordinary text\n"))
            .collect();
        std::fs::write(dir.join(file_name(i)), text)?;
    }
    Ok(())
}

fn file_name(i: usize) -> String {
    format!("read_{i:03}.txt")
}

/// `messages` messages of two Reads each (distinct small files), each followed by a short text tail; events are
/// `chunk_delay_ms` apart, so a message streams for ~25 ms after its last tool_use block. Then a final answer.
pub fn dispatch(dir: &Path, messages: usize, chunk_delay_ms: u64) -> Scenario {
    let mut turns = Vec::new();
    let mut calls = Vec::new();
    for m in 0..messages {
        let mut blocks = Vec::new();
        for r in 0..READS_PER_MESSAGE {
            let n = m * READS_PER_MESSAGE + r;
            let id = format!("toolu_read_{n:03}");
            let path = dir.join(file_name(n));
            calls.push(Call {
                request: m + 1,
                index: r as u64,
                id: id.clone(),
                file: Some(file_name(n)),
            });
            blocks.push(ScriptBlock::ToolUse {
                id,
                name: "Read".into(),
                input: json!({"file_path": path.to_string_lossy()}),
            });
        }
        blocks.push(ScriptBlock::Text { text: TAIL.into() });
        let mut turn = ScriptedTurn::new(blocks);
        turn.stop_reason = Some("tool_use".into());
        turn.chunk_delay_ms = chunk_delay_ms;
        turn.delta_chars = 32;
        turns.push(turn);
    }
    turns.push(ScriptedTurn::text("Done."));
    Scenario {
        script: Script::turns(turns),
        calls,
        batches: Vec::new(),
    }
}

/// One ~200 ms concurrency-safe call: Tandem's fake `Sleep` tool (no Bash tool on main yet); the reference's Bash
/// `sleep 0.2`, which it classes as read-only and so concurrency-safe.
fn slow_call(agent: Agent, id: String) -> ScriptBlock {
    match agent {
        Agent::Tandem => ScriptBlock::ToolUse {
            id: id.clone(),
            name: "Sleep".into(),
            input: json!({"label": id, "ms": 200}),
        },
        Agent::Reference => ScriptBlock::ToolUse {
            id,
            name: "Bash".into(),
            input: json!({"command": "sleep 0.2", "description": "Wait 200 ms"}),
        },
    }
}

/// `pairs` times: a message with one slow call, then a message with ten; then a final answer.
pub fn ten(agent: Agent, pairs: usize) -> Scenario {
    let mut turns = Vec::new();
    let mut calls = Vec::new();
    let mut batches = Vec::new();
    for p in 0..pairs {
        for size in [1usize, 10] {
            let request = turns.len() + 1;
            let blocks = (0..size)
                .map(|i| {
                    let id = format!("toolu_slow_{p:02}_{size:02}_{i:02}");
                    calls.push(Call {
                        request,
                        index: i as u64,
                        id: id.clone(),
                        file: None,
                    });
                    slow_call(agent, id)
                })
                .collect();
            turns.push(ScriptedTurn::new(blocks));
            batches.push(size);
        }
    }
    turns.push(ScriptedTurn::text("Done."));
    Scenario {
        script: Script::turns(turns),
        calls,
        batches,
    }
}
