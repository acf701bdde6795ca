//! The session store's full-text search, driven by `benchmarks/session_search.py`:
//!
//! - `generate DIR SESSIONS MESSAGES`: writes SESSIONS sessions of MESSAGES messages each through the store's write
//!   path (events, the answer streamed as deltas) into `DIR/sessions.db`, and the same text as one file per session
//!   under `DIR/text/` (for rg). Prints the time the writes took and the time indexing what was left took.
//! - `query DIR RUNS QUERY...`: each query RUNS times through `SessionStore::search` (20 hits), as one JSON line
//!   `{"query", "hits", "p50_ms", "p99_ms"}` each.
//! - `write DIR SESSIONS MESSAGES ROUNDS`: the write path with the index against without it (a store of the schema
//!   before it), the same sessions into fresh files, ROUNDS times interleaved; one JSON line with the medians: the
//!   writes (queued and committed), and, with the index, the writes and then indexing all of them.
//!
//! The text is made from a fixed seed: words of a made-up vocabulary of 20,000 drawn with a Zipf-like law, so some
//! words are in most messages and most words in few, as in real text.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use tandem_engine::store::{MIGRATIONS, NewSession, SessionStore};
use tandem_protocol::{
    PermissionMode, RenderHints, SessionEvent, ToolKind, ToolOutcome, TurnStopReason,
};

const VOCABULARY: usize = 20_000;
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tu", "sa", "vel", "dor", "pi", "zan", "ek", "ori", "bu", "fen",
    "gal", "hu", "ix", "jo", "qua", "ry", "sel", "tor", "um", "wa", "yel", "zo", "ne", "cri",
    "pla", "sto",
];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Word `rank` of the vocabulary (rank 0 the most frequent).
fn word(rank: usize) -> String {
    let mut n = rank;
    let mut out = String::new();
    loop {
        out.push_str(SYLLABLES[n % SYLLABLES.len()]);
        n /= SYLLABLES.len();
        if n == 0 {
            break;
        }
    }
    out
}

struct Text {
    rng: Rng,
    words: Vec<String>,
}

impl Text {
    fn new() -> Self {
        Self {
            rng: Rng(0x9E37_79B9_7F4A_7C15),
            words: (0..VOCABULARY).map(word).collect(),
        }
    }

    /// `n` words, ranks drawn log-uniformly (about Zipf's law).
    fn words(&mut self, n: usize) -> String {
        let mut out = String::new();
        for i in 0..n {
            let rank = ((VOCABULARY as f64).powf(self.rng.unit()) as usize).saturating_sub(1);
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&self.words[rank.min(VOCABULARY - 1)]);
        }
        out
    }
}

/// The events of one session: MESSAGES messages as turns of four (prompt, answer in deltas, tool input, tool
/// result), and the same text as lines for the export.
fn session_events(text: &mut Text, index: usize, messages: usize) -> (Vec<SessionEvent>, String) {
    let mut events = Vec::new();
    let mut export = String::new();
    let turns = messages.div_ceil(4);
    for turn in 0..turns {
        let prompt = format!("{} needle{index}x{turn}", text.words(12));
        let _ = writeln!(export, "prompt: {prompt}");
        events.push(SessionEvent::TurnStarted {
            prompt,
            prompt_id: None,
        });
        let length = 20 + text.rng.below(60);
        let answer = text.words(length);
        let _ = writeln!(export, "answer: {answer}");
        let bytes = answer.as_bytes();
        let mut start = 0;
        while start < bytes.len() {
            let mut end = (start + 40).min(bytes.len());
            while !answer.is_char_boundary(end) {
                end += 1;
            }
            events.push(SessionEvent::TextDelta {
                text: answer[start..end].to_string(),
            });
            start = end;
        }
        let id = format!("call-{turn}");
        let command = format!("rg {} src/", text.words(3));
        let _ = writeln!(export, "tool_input: Bash {command}");
        events.push(SessionEvent::ToolCallStarted {
            tool_use_id: id.clone(),
            name: "Bash".into(),
        });
        events.push(SessionEvent::ToolCallInput {
            tool_use_id: id.clone(),
            name: "Bash".into(),
            input: json!({ "command": command }),
            hints: RenderHints {
                kind: ToolKind::Other,
                title: "Bash".into(),
                collapsible: false,
            },
        });
        let length = 30 + text.rng.below(90);
        let result = text.words(length);
        let _ = writeln!(export, "tool_result: {result}");
        events.push(SessionEvent::ToolCallResult {
            tool_use_id: id,
            outcome: ToolOutcome::Success,
            content: result,
            detail: None,
        });
        events.push(SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::EndTurn,
        });
    }
    (events, export)
}

/// Writes `sessions` sessions into `store`; with `export`, their text into files there. Returns the time the writes
/// took (queued and committed) and how many events they were.
fn write_sessions(
    store: &SessionStore,
    folder: &Path,
    sessions: usize,
    messages: usize,
    export: Option<&Path>,
) -> (Duration, usize) {
    let mut text = Text::new();
    let mut spent = Duration::ZERO;
    let mut written = 0;
    for i in 0..sessions {
        let (events, lines) = session_events(&mut text, i, messages);
        let id = format!("session-{i:06}");
        written += events.len();
        let start = Instant::now();
        store.create_session_queued(&NewSession {
            id: id.clone(),
            folder: folder.join(format!("project-{}", i % 10)),
            model: "bench".into(),
            mode: PermissionMode::Default,
        });
        for (seq, event) in events.into_iter().enumerate() {
            store.record_event(&id, seq as u64, event);
        }
        // Committed in batches as a busy session's stream is; the time counts to the commit.
        if i % 50 == 49 {
            store.flush().expect("flush");
        }
        spent += start.elapsed();
        if let Some(dir) = export {
            std::fs::write(dir.join(format!("{id}.txt")), lines).expect("export");
        }
    }
    let start = Instant::now();
    store.flush().expect("flush");
    (spent + start.elapsed(), written)
}

fn generate(dir: &Path, sessions: usize, messages: usize) {
    let text_dir = dir.join("text");
    std::fs::create_dir_all(&text_dir).expect("text dir");
    let store = SessionStore::open(&dir.join("sessions.db")).expect("open");
    let (spent, _) = write_sessions(&store, dir, sessions, messages, Some(&text_dir));
    let start = Instant::now();
    store.index_for_search().expect("index");
    let indexing = start.elapsed();
    println!(
        "{}",
        json!({"sessions": sessions, "messages": messages, "write_s": spent.as_secs_f64(),
               "index_s": indexing.as_secs_f64()})
    );
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn query(dir: &Path, runs: usize, queries: &[String]) {
    let store = SessionStore::open(&dir.join("sessions.db")).expect("open");
    // The first search indexes what is pending and warms the cache.
    for q in queries {
        store.search(q, None, 20).expect("search");
    }
    for q in queries {
        let mut times = Vec::with_capacity(runs);
        let mut hits = 0;
        for _ in 0..runs {
            let start = Instant::now();
            hits = store.search(q, None, 20).expect("search").len();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{}",
            json!({"query": q, "hits": hits, "p50_ms": percentile(&times, 0.5), "p99_ms": percentile(&times, 0.99)})
        );
    }
}

fn write_compare(dir: &Path, sessions: usize, messages: usize, rounds: usize) {
    let mut with = Vec::new();
    let mut with_indexed = Vec::new();
    let mut without = Vec::new();
    let mut events = 0;
    for round in 0..rounds {
        for indexed in [true, false] {
            let path: PathBuf = dir.join(format!("write-{round}-{indexed}.db"));
            let store = if indexed {
                SessionStore::open(&path)
            } else {
                SessionStore::open_with_migrations(&path, &MIGRATIONS[..3])
            }
            .expect("open");
            let (spent, written) = write_sessions(&store, dir, sessions, messages, None);
            events = written;
            if indexed {
                let start = Instant::now();
                store.index_for_search().expect("index");
                with_indexed.push((spent + start.elapsed()).as_secs_f64());
            }
            drop(store);
            for suffix in ["", "-wal", "-shm"] {
                let mut p = path.as_os_str().to_owned();
                p.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(p));
            }
            if indexed {
                with.push(spent.as_secs_f64());
            } else {
                without.push(spent.as_secs_f64());
            }
        }
    }
    with.sort_by(f64::total_cmp);
    with_indexed.sort_by(f64::total_cmp);
    without.sort_by(f64::total_cmp);
    let (w, wi, wo) = (
        percentile(&with, 0.5),
        percentile(&with_indexed, 0.5),
        percentile(&without, 0.5),
    );
    println!(
        "{}",
        json!({"sessions": sessions, "messages": messages, "events": events, "with_index_s": w, "with_index_and_indexing_s": wi,
               "without_index_s": wo, "ratio": w / wo, "ratio_with_indexing": wi / wo})
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("argument {i} must be a number"))
    };
    match args.first().map(String::as_str) {
        Some("generate") => generate(Path::new(&args[1]), num(2), num(3)),
        Some("query") => query(Path::new(&args[1]), num(2), &args[3..]),
        Some("write") => write_compare(Path::new(&args[1]), num(2), num(3), num(4)),
        _ => eprintln!(
            "usage: session_search_bench generate DIR SESSIONS MESSAGES | query DIR RUNS QUERY... | \
             write DIR SESSIONS MESSAGES ROUNDS"
        ),
    }
}
