//! Turns what was recorded (the server's timeline, strace's log of file opens, the engine's marks) into samples in
//! milliseconds, and summarises them.

use std::collections::HashMap;
use std::path::Path;

use tandem_engine::testing::Mark;

use super::agent::{EngineMark, seconds};
use super::scenarios::Scenario;

/// The server's timeline as (request, what, index) → seconds, first occurrence.
pub struct Timeline(HashMap<(usize, String, Option<u64>), f64>);

impl Timeline {
    pub fn new(marks: &[Mark]) -> Self {
        let mut map = HashMap::new();
        for m in marks {
            map.entry((m.request, m.what.clone(), m.index))
                .or_insert_with(|| seconds(m.at));
        }
        Self(map)
    }

    fn at(&self, request: usize, what: &str, index: Option<u64>) -> Option<f64> {
        self.0.get(&(request, what.to_string(), index)).copied()
    }

    fn block_stop(&self, request: usize, index: u64) -> Option<f64> {
        self.at(request, "content_block_stop", Some(index))
    }

    fn arrival(&self, request: usize) -> Option<f64> {
        self.at(request, "arrived", None)
    }

    fn message_stop(&self, request: usize) -> Option<f64> {
        self.at(request, "message_stop", None)
    }
}

/// When each file was first opened, by its name, from `strace -ttt -e trace=openat` output.
pub fn strace_opens(path: &Path) -> HashMap<String, f64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut opens = HashMap::new();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        let (Some(_pid), Some(time)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(time) = time.parse::<f64>() else {
            continue;
        };
        let Some(quoted) = line.split('"').nth(1) else {
            continue;
        };
        let name = quoted.rsplit('/').next().unwrap_or(quoted).to_string();
        opens.entry(name).or_insert(time);
    }
    opens
}

fn ms(from: f64, to: f64) -> f64 {
    (to - from) * 1000.0
}

/// Server wrote a Read's `content_block_stop` → the agent process opened the file.
pub fn dispatch_to_open(s: &Scenario, t: &Timeline, opens: &HashMap<String, f64>) -> Vec<f64> {
    s.calls
        .iter()
        .filter_map(|c| {
            Some(ms(
                t.block_stop(c.request, c.index)?,
                *opens.get(c.file.as_ref()?)?,
            ))
        })
        .collect()
}

fn engine_at(marks: &[EngineMark], what: &str, id: &str) -> Option<f64> {
    marks
        .iter()
        .find(|(_, w, i)| w == what && i == id)
        .map(|(t, _, _)| *t)
}

/// Inside the engine: the model client yields the completed tool_use → the call starts executing.
pub fn dispatch_in_engine(s: &Scenario, marks: &[EngineMark]) -> Vec<f64> {
    s.calls
        .iter()
        .filter_map(|c| {
            Some(ms(
                engine_at(marks, "block_stop", &c.id)?,
                engine_at(marks, "executing", &c.id)?,
            ))
        })
        .collect()
}

/// Server wrote the `content_block_stop` → the engine starts the call (includes the transport and SSE parsing).
pub fn dispatch_server_to_engine(s: &Scenario, t: &Timeline, marks: &[EngineMark]) -> Vec<f64> {
    s.calls
        .iter()
        .filter_map(|c| {
            Some(ms(
                t.block_stop(c.request, c.index)?,
                engine_at(marks, "executing", &c.id)?,
            ))
        })
        .collect()
}

fn tool_requests(s: &Scenario) -> Vec<usize> {
    let mut requests: Vec<usize> = s.calls.iter().map(|c| c.request).collect();
    requests.dedup();
    requests
}

/// Server side: the response with tool calls ended (`message_stop` written) → the next request arrived.
pub fn turnaround_server(s: &Scenario, t: &Timeline) -> Vec<f64> {
    tool_requests(s)
        .into_iter()
        .filter_map(|r| Some(ms(t.message_stop(r)?, t.arrival(r + 1)?)))
        .collect()
}

/// [`turnaround_server`] for the responses after which the next request carried at least `min_history` messages
/// (`history[r - 1]`: how many request r carried), up to the next request's `arrived` mark (parsed, checked and
/// recorded by the server) or, with `received`, up to when the server had read its body.
pub fn turnaround_with_history(
    s: &Scenario,
    t: &Timeline,
    history: &[usize],
    min_history: usize,
    received: bool,
) -> Vec<f64> {
    let what = if received { "received" } else { "arrived" };
    tool_requests(s)
        .into_iter()
        .filter(|r| history.get(*r).is_some_and(|n| *n >= min_history))
        .filter_map(|r| Some(ms(t.message_stop(r)?, t.at(r + 1, what, None)?)))
        .collect()
}

/// Inside the engine: the later of the message's end (as the client yields it) and its last call's end → the next
/// request arrived at the server.
pub fn turnaround_engine(s: &Scenario, t: &Timeline, marks: &[EngineMark]) -> Vec<f64> {
    let message_ends: Vec<f64> = marks
        .iter()
        .filter(|(_, w, _)| w == "message_complete")
        .map(|(t, _, _)| *t)
        .collect();
    tool_requests(s)
        .into_iter()
        .filter_map(|r| {
            let mut ready = *message_ends.get(r - 1)?;
            for c in s.calls.iter().filter(|c| c.request == r) {
                ready = ready.max(engine_at(marks, "completed", &c.id)?);
            }
            Some(ms(ready, t.arrival(r + 1)?))
        })
        .collect()
}

/// Wall time of each batch of slow calls: its first call's `content_block_stop` → the next request arrived. Returns
/// (batches of one, batches of ten).
pub fn batch_walls(s: &Scenario, t: &Timeline) -> (Vec<f64>, Vec<f64>) {
    let mut ones = Vec::new();
    let mut tens = Vec::new();
    for (n, size) in s.batches.iter().enumerate() {
        let request = n + 1;
        let Some(wall) = t
            .block_stop(request, 0)
            .zip(t.arrival(request + 1))
            .map(|(a, b)| ms(a, b))
        else {
            continue;
        };
        if *size == 1 {
            ones.push(wall);
        } else {
            tens.push(wall);
        }
    }
    (ones, tens)
}

/// The value at quantile `q` (nearest rank); NaN when empty.
pub fn quantile(samples: &[f64], q: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
