//! A read transcript turned into a session to store: the history (a message per run of lines of one role, as the
//! model saw it), the events the window replays (a turn per prompt, the answer's text, each tool call with its input
//! and result, each sub-agent's transcript under the call that started it), the title and the sidechains.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde_json::Value;
use tandem_protocol::{PermissionMode, SessionEvent, ToolOutcome, TurnStopReason, Usage};

use super::hints::hints;
use super::reference::{MessageLine, ParsedTranscript};
use crate::model::{ContentBlock, Message, Role, pricing};
use crate::store::{
    ImportedSession, ImportedSidechain, NewSession, NewSidechain, title_from_prompt,
};

/// The session of a read transcript (`extra`: sub-agents' files kept beside it); `fallback_id` names it when no
/// line does. `None` when it holds no message, or names no folder.
pub fn build_session(
    main: &ParsedTranscript,
    extra: &[ParsedTranscript],
    fallback_id: &str,
    now: i64,
) -> Result<ImportedSession, &'static str> {
    let own: Vec<&MessageLine> = main.messages.iter().filter(|m| !m.sidechain).collect();
    if own.is_empty() {
        return Err("it holds no conversation");
    }
    let id = own
        .iter()
        .find_map(|m| m.session_id.clone())
        .unwrap_or_else(|| fallback_id.to_string());
    let folder = main
        .messages
        .iter()
        .find_map(|m| m.cwd.clone())
        .ok_or("no line names the folder it ran in (cwd)")?;
    let created_at = own.iter().find_map(|m| m.at).unwrap_or(now);
    let model = own
        .iter()
        .filter_map(|m| m.model.as_deref())
        .find(|m| !m.starts_with('<'))
        .unwrap_or("")
        .to_string();

    let sidechain_lines: Vec<&MessageLine> = main
        .messages
        .iter()
        .chain(extra.iter().flat_map(|p| p.messages.iter()))
        .filter(|m| m.sidechain)
        .collect();
    let mut chains = group_sidechains(&sidechain_lines);
    link_sidechains(&own, &mut chains);
    // The chains by the call that started them, taken as their call is met; what is left goes last.
    let mut linked: Vec<&Chain<'_>> = chains.iter().collect();

    let mut clock = Clock(created_at);
    let mut events = Events::default();
    let mut prompts = 0u64;
    let mut counted = HashSet::new();
    let mut session_usage = Usage::default();
    let mut cost = 0.0;
    for line in &own {
        let at = clock.at(line.at);
        if line.meta {
            continue;
        }
        match line.role {
            Role::User => {
                let prompt = prompt_text(&line.content);
                if !prompt.trim().is_empty() {
                    events.end_turn(at);
                    events.push(
                        SessionEvent::TurnStarted {
                            prompt,
                            prompt_id: Some(prompts.to_string()),
                        },
                        at,
                    );
                    events.open = true;
                    prompts += 1;
                }
                for block in &line.content {
                    if let Some(result) = result_event(block) {
                        events.push(result, at);
                    }
                }
            }
            Role::Assistant => {
                for block in &line.content {
                    for event in answer_events(block) {
                        events.push(event, at);
                    }
                    if let ContentBlock::ToolUse { id, .. } = block
                        && let Some(index) =
                            linked.iter().position(|c| c.parent.as_deref() == Some(id))
                    {
                        let chain = linked.remove(index);
                        sub_agent_events(&mut events, chain, &mut clock);
                    }
                }
                let key = line.message_id.clone().unwrap_or_else(|| line.uuid.clone());
                if let Some(usage) = line.usage.as_ref().and_then(read_usage)
                    && counted.insert(key)
                {
                    session_usage = add(session_usage, usage);
                    cost += pricing::cost_usd(line.model.as_deref().unwrap_or(&model), &usage);
                    events.push(
                        SessionEvent::UsageUpdated {
                            turn: usage,
                            session: session_usage,
                            cost_usd: cost,
                        },
                        at,
                    );
                }
            }
        }
    }
    // Sub-agents whose call was not found: their transcripts after the session's own.
    for chain in linked {
        sub_agent_events(&mut events, chain, &mut clock);
    }
    let last = clock.0;
    events.end_turn(last);

    let messages = history(&own, &mut Clock(created_at), true);
    let sidechains = chains
        .iter()
        .map(|chain| ImportedSidechain {
            chain: NewSidechain {
                agent_id: chain.agent_id.clone(),
                parent_tool_use_id: chain.parent.clone().unwrap_or_default(),
                agent_type: chain.agent_type.clone(),
                description: chain.description.clone(),
            },
            created_at: chain.lines.iter().find_map(|l| l.at).unwrap_or(created_at),
            messages: history(&chain.lines, &mut Clock(created_at), false)
                .into_iter()
                .map(|(m, _)| m)
                .collect(),
        })
        .collect();
    let uuids: HashSet<&str> = main.messages.iter().map(|m| m.uuid.as_str()).collect();
    let title = main
        .summaries
        .iter()
        .rev()
        // The agent also keeps summaries of other conversations in a file: only one of this one (or of none in
        // particular) names it.
        .find(|s| s.leaf.as_deref().is_none_or(|l| uuids.contains(l)))
        .map(|s| title_from_prompt(&s.summary))
        .unwrap_or_default();
    Ok(ImportedSession {
        session: NewSession {
            id,
            folder: PathBuf::from(folder),
            model,
            mode: PermissionMode::Default,
        },
        title,
        created_at,
        messages,
        events: events.list,
        sidechains,
    })
}

/// Times in order: a line without one takes the one before.
struct Clock(i64);

impl Clock {
    fn at(&mut self, at: Option<i64>) -> i64 {
        if let Some(at) = at {
            self.0 = at;
        }
        self.0
    }
}

#[derive(Default)]
struct Events {
    list: Vec<(SessionEvent, i64)>,
    open: bool,
}

impl Events {
    fn push(&mut self, event: SessionEvent, at: i64) {
        self.list.push((event, at));
    }

    fn end_turn(&mut self, at: i64) {
        if std::mem::take(&mut self.open) {
            self.push(
                SessionEvent::TurnEnded {
                    stop_reason: TurnStopReason::EndTurn,
                },
                at,
            );
        }
    }
}

/// What the person typed in a user line (its text blocks; tool results are not).
fn prompt_text(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn result_event(block: &ContentBlock) -> Option<SessionEvent> {
    let ContentBlock::ToolResult {
        tool_use_id,
        content,
        is_error,
    } = block
    else {
        return None;
    };
    Some(SessionEvent::ToolCallResult {
        tool_use_id: tool_use_id.clone(),
        outcome: if *is_error {
            ToolOutcome::Error
        } else {
            ToolOutcome::Success
        },
        content: content.as_text(),
        detail: None,
    })
}

fn answer_events(block: &ContentBlock) -> Vec<SessionEvent> {
    match block {
        ContentBlock::Text { text } => vec![SessionEvent::TextDelta { text: text.clone() }],
        ContentBlock::Thinking { thinking, .. } => vec![SessionEvent::ThinkingDelta {
            text: thinking.clone(),
        }],
        ContentBlock::ToolUse { id, name, input }
        | ContentBlock::ServerToolUse { id, name, input } => {
            vec![
                SessionEvent::ToolCallStarted {
                    tool_use_id: id.clone(),
                    name: name.clone(),
                },
                SessionEvent::ToolCallInput {
                    tool_use_id: id.clone(),
                    name: name.clone(),
                    input: input.clone(),
                    hints: hints(name, input),
                },
            ]
        }
        _ => Vec::new(),
    }
}

/// A sub-agent's transcript, wrapped as the events of a sub-agent are.
fn sub_agent_events(events: &mut Events, chain: &Chain<'_>, clock: &mut Clock) {
    let parent = chain.parent.clone().unwrap_or_default();
    for line in &chain.lines {
        let at = clock.at(line.at);
        let inner: Vec<SessionEvent> = match line.role {
            Role::User => line.content.iter().filter_map(result_event).collect(),
            Role::Assistant => line.content.iter().flat_map(answer_events).collect(),
        };
        for event in inner {
            events.push(
                SessionEvent::SubAgent {
                    parent_tool_use_id: parent.clone(),
                    agent_id: chain.agent_id.clone(),
                    event: Box::new(event),
                },
                at,
            );
        }
    }
}

/// The model history of `lines`: consecutive lines of one role make one message (an answer written a block a
/// line, a tool's results a line each). `prompts`: mark the person's prompts with their ids, as the events do.
fn history(lines: &[&MessageLine], clock: &mut Clock, prompts: bool) -> Vec<(Message, i64)> {
    let mut out: Vec<(Message, i64)> = Vec::new();
    let mut next_prompt = 0u64;
    for line in lines.iter().filter(|l| !l.meta) {
        let at = clock.at(line.at);
        if line.content.is_empty() {
            continue;
        }
        let is_prompt =
            prompts && line.role == Role::User && !prompt_text(&line.content).trim().is_empty();
        match out.last_mut() {
            Some((last, _)) if last.role == line.role => {
                last.content.extend(line.content.iter().cloned())
            }
            _ => out.push((Message::new(line.role, line.content.clone()), at)),
        }
        if is_prompt && let Some((last, _)) = out.last_mut() {
            last.marks.prompts.push(next_prompt.to_string());
            next_prompt += 1;
        }
    }
    out
}

/// A sub-agent's lines.
struct Chain<'a> {
    agent_id: String,
    lines: Vec<&'a MessageLine>,
    parent: Option<String>,
    agent_type: String,
    description: String,
}

/// Sidechain lines by sub-agent: by `agentId` when lines have one, else by the first line of their thread
/// (`parentUuid` back to a line without a parent).
fn group_sidechains<'a>(lines: &[&'a MessageLine]) -> Vec<Chain<'a>> {
    let parents: HashMap<&str, Option<&str>> = lines
        .iter()
        .map(|l| (l.uuid.as_str(), l.parent.as_deref()))
        .collect();
    let root = |mut uuid: &'a str| -> String {
        let mut steps = 0;
        while let Some(Some(parent)) = parents.get(uuid) {
            if !parents.contains_key(parent) || steps > lines.len() {
                break;
            }
            uuid = parent;
            steps += 1;
        }
        uuid.to_string()
    };
    let mut chains: Vec<Chain<'a>> = Vec::new();
    let mut keys: HashMap<String, usize> = HashMap::new();
    for line in lines {
        let key = match &line.agent_id {
            Some(agent) => format!("agent:{agent}"),
            None => format!("root:{}", root(line.uuid.as_str())),
        };
        let index = *keys.entry(key).or_insert_with(|| {
            let n = chains.len();
            chains.push(Chain {
                agent_id: line
                    .agent_id
                    .clone()
                    .unwrap_or_else(|| format!("sidechain-{}", n + 1)),
                lines: Vec::new(),
                parent: None,
                agent_type: "general-purpose".into(),
                description: String::new(),
            });
            n
        });
        chains[index].lines.push(line);
    }
    chains
}

/// Finds the call (Task or Agent) that started each sub-agent: the one whose prompt is its first message, else the
/// first such call not yet taken; its type and description come from the call's input.
fn link_sidechains(own: &[&MessageLine], chains: &mut [Chain<'_>]) {
    let calls: Vec<(&str, &Value)> = own
        .iter()
        .flat_map(|l| l.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolUse { id, name, input } if name == "Task" || name == "Agent" => {
                Some((id.as_str(), input))
            }
            _ => None,
        })
        .collect();
    let mut taken: HashSet<&str> = HashSet::new();
    for chain in chains.iter_mut() {
        let first = chain
            .lines
            .iter()
            .find(|l| l.role == Role::User)
            .map(|l| prompt_text(&l.content));
        let by_prompt = calls.iter().find(|(id, input)| {
            !taken.contains(id)
                && first.is_some()
                && input.get("prompt").and_then(Value::as_str) == first.as_deref()
        });
        let Some((id, input)) =
            by_prompt.or_else(|| calls.iter().find(|(id, _)| !taken.contains(id)))
        else {
            continue;
        };
        taken.insert(id);
        chain.parent = Some(id.to_string());
        let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_string);
        if let Some(kind) = text("subagent_type") {
            chain.agent_type = kind;
        }
        chain.description = text("description").unwrap_or_default();
    }
}

fn read_usage(value: &Value) -> Option<Usage> {
    let n = |key: &str| value.get(key).and_then(Value::as_u64).unwrap_or(0);
    let usage = Usage {
        input_tokens: n("input_tokens"),
        output_tokens: n("output_tokens"),
        cache_creation_input_tokens: n("cache_creation_input_tokens"),
        cache_read_input_tokens: n("cache_read_input_tokens"),
    };
    (usage != Usage::default()).then_some(usage)
}

fn add(a: Usage, b: Usage) -> Usage {
    Usage {
        input_tokens: a.input_tokens + b.input_tokens,
        output_tokens: a.output_tokens + b.output_tokens,
        cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
        cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::parse_transcript;

    #[test]
    fn a_summary_names_the_session_only_when_it_is_of_this_conversation() {
        let line = r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/w","timestamp":"2026-01-01T00:00:00Z","isSidechain":false,"message":{"role":"user","content":"hello"}}"#;
        let cases = [
            (
                r#"{"type":"summary","summary":"Mine","leafUuid":"u1"}"#,
                "Mine",
            ),
            (
                r#"{"type":"summary","summary":"Someone else's","leafUuid":"other"}"#,
                "",
            ),
            (r#"{"type":"summary","summary":"Unanchored"}"#, "Unanchored"),
        ];
        for (summary, title) in cases {
            let parsed = parse_transcript(format!("{summary}\n{line}\n").as_bytes());
            let session = build_session(&parsed, &[], "file", 0).expect("a session");
            assert_eq!(session.title, title, "{summary}");
            assert_eq!(session.session.id, "s");
        }
        let parsed = parse_transcript(b"{\"type\":\"summary\",\"summary\":\"x\"}\n");
        assert_eq!(
            build_session(&parsed, &[], "file", 0),
            Err("it holds no conversation")
        );
    }
}
