//! Session events as ACP `session/update` notifications: text and thinking as message and thought chunks, tool
//! calls with their kind, title, locations, input, status and result (a file change as diff content, a command's
//! output as text), the checklist as the plan, mode changes, usage (the context's size against the window, and what
//! the session cost); on `session/load`, the stored prompts as user chunks; a sub-agent's calls nested under its
//! Agent call (`sub_agents`). The slash commands are sent apart ([`UpdateSink::commands`]).

mod sub_agents;

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    self as acp, AvailableCommand, AvailableCommandInput, AvailableCommandsUpdate, ContentBlock,
    ContentChunk, Cost, CurrentModeUpdate, Diff, Plan, PlanEntry, PlanEntryPriority,
    PlanEntryStatus, SessionNotification, SessionUpdate, TextContent, ToolCall, ToolCallContent,
    ToolCallLocation, ToolCallUpdate, ToolCallUpdateFields, UnstructuredCommandInput, UsageUpdate,
};
use serde_json::Value;
use tandem_engine::events::EventSink;
use tandem_protocol::{
    SessionEvent, SlashCommand, TaskItem, TodoItem, TodoStatus, ToolCallStatus, ToolDetail,
    ToolKind, ToolOutcome,
};

/// Turns events into updates. Keeps what one event alone does not say: which calls the client has been told of and
/// the output a running command has printed so far.
#[derive(Default)]
pub struct Translator {
    announced: HashSet<String>,
    output: HashMap<String, String>,
    /// The model's context window in tokens (0: not known yet, and usage is not sent).
    context_window: u64,
}

impl Translator {
    /// The updates for `event`. `replay`: the event is from the store (`session/load`), so the person's prompts are
    /// sent back as user message chunks (a live prompt is the client's own).
    pub fn updates(&mut self, event: SessionEvent, replay: bool) -> Vec<SessionUpdate> {
        match event {
            SessionEvent::TurnStarted { prompt, .. } if replay => {
                vec![SessionUpdate::UserMessageChunk(chunk(prompt))]
            }
            SessionEvent::TextDelta { text } => vec![SessionUpdate::AgentMessageChunk(chunk(text))],
            SessionEvent::ThinkingDelta { text } => {
                vec![SessionUpdate::AgentThoughtChunk(chunk(text))]
            }
            SessionEvent::ToolCallStarted { tool_use_id, name } => {
                self.announced.insert(tool_use_id.clone());
                vec![SessionUpdate::ToolCall(
                    ToolCall::new(tool_use_id, name.clone())
                        .kind(kind_of(&name, ToolKind::Other))
                        .status(acp::ToolCallStatus::Pending),
                )]
            }
            SessionEvent::ToolCallInput {
                tool_use_id,
                name,
                input,
                hints,
            } => {
                let fields = ToolCallUpdateFields::new()
                    .kind(kind_of(&name, hints.kind))
                    .title(hints.title)
                    .locations(locations(&input))
                    .raw_input(input);
                vec![self.call_update(tool_use_id, fields)]
            }
            SessionEvent::ToolCallStatusChanged {
                tool_use_id,
                status,
            } => {
                let status = match status {
                    ToolCallStatus::Queued | ToolCallStatus::WaitingForApproval => {
                        acp::ToolCallStatus::Pending
                    }
                    ToolCallStatus::Executing => acp::ToolCallStatus::InProgress,
                    // The result follows with the final status.
                    ToolCallStatus::Completed => return Vec::new(),
                };
                vec![self.call_update(tool_use_id, ToolCallUpdateFields::new().status(status))]
            }
            SessionEvent::ToolCallProgress { tool_use_id, text } => {
                let output = self.output.entry(tool_use_id.clone()).or_default();
                output.push_str(&text);
                let content = vec![text_content(output.clone())];
                vec![self.call_update(tool_use_id, ToolCallUpdateFields::new().content(content))]
            }
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                detail,
            } => {
                self.output.remove(&tool_use_id);
                let status = match outcome {
                    ToolOutcome::Success => acp::ToolCallStatus::Completed,
                    ToolOutcome::Error | ToolOutcome::Denied | ToolOutcome::Cancelled => {
                        acp::ToolCallStatus::Failed
                    }
                };
                let mut shown = Vec::new();
                if let Some(diff) = detail.as_ref().and_then(diff_content) {
                    shown.push(diff);
                }
                if !content.is_empty() {
                    shown.push(text_content(content.clone()));
                }
                let fields = ToolCallUpdateFields::new()
                    .status(status)
                    .content(shown)
                    .raw_output(Value::String(content));
                vec![self.call_update(tool_use_id, fields)]
            }
            SessionEvent::TodosChanged { todos } => vec![SessionUpdate::Plan(todo_plan(&todos))],
            SessionEvent::TasksChanged { tasks } => vec![SessionUpdate::Plan(task_plan(&tasks))],
            SessionEvent::ModeChanged { mode } => vec![SessionUpdate::CurrentModeUpdate(
                CurrentModeUpdate::new(mode.as_str()),
            )],
            // What the last response filled of the context window (as the window's meter counts it), and the
            // session's cost so far.
            SessionEvent::UsageUpdated { turn, cost_usd, .. } if self.context_window > 0 => {
                let used = turn.input_tokens
                    + turn.cache_read_input_tokens
                    + turn.cache_creation_input_tokens
                    + turn.output_tokens;
                vec![SessionUpdate::UsageUpdate(
                    UsageUpdate::new(used, self.context_window).cost(Cost::new(cost_usd, "USD")),
                )]
            }
            SessionEvent::SubAgent {
                parent_tool_use_id,
                agent_id,
                event,
            } => self.sub_agent_updates(&parent_tool_use_id, &agent_id, *event),
            _ => Vec::new(),
        }
    }

    /// An update of a call the client knows, or the whole call when it does not know it yet (a call whose start
    /// was not streamed).
    fn call_update(&mut self, id: String, fields: ToolCallUpdateFields) -> SessionUpdate {
        if self.announced.insert(id.clone()) {
            let mut call = ToolCall::new(id, String::new()).status(acp::ToolCallStatus::Pending);
            call.update(fields);
            SessionUpdate::ToolCall(call)
        } else {
            SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(id, fields))
        }
    }
}

/// A text chunk.
fn chunk(text: String) -> ContentChunk {
    ContentChunk::new(ContentBlock::Text(TextContent::new(text)))
}

/// Text as tool call content.
fn text_content(text: String) -> ToolCallContent {
    ToolCallContent::Content(acp::Content::new(ContentBlock::Text(TextContent::new(
        text,
    ))))
}

/// A file change as diff content (`None` when the change was too large to carry its texts).
fn diff_content(detail: &ToolDetail) -> Option<ToolCallContent> {
    let ToolDetail::FileChange {
        path,
        created,
        diff,
        ..
    } = detail
    else {
        return None;
    };
    let diff = diff.as_ref()?;
    let old = (!*created).then(|| diff.old_text.clone());
    Some(ToolCallContent::Diff(
        Diff::new(path.clone(), diff.new_text.clone()).old_text(old),
    ))
}

/// The ACP kind of a call: the tool's own kind, plan mode's tools as a mode switch.
pub fn kind_of(name: &str, kind: ToolKind) -> acp::ToolKind {
    if matches!(name, "EnterPlanMode" | "ExitPlanMode") {
        return acp::ToolKind::SwitchMode;
    }
    match kind {
        ToolKind::Read => acp::ToolKind::Read,
        ToolKind::Search | ToolKind::List => acp::ToolKind::Search,
        ToolKind::Edit | ToolKind::Write => acp::ToolKind::Edit,
        ToolKind::Shell => acp::ToolKind::Execute,
        ToolKind::Fetch => acp::ToolKind::Fetch,
        ToolKind::Agent => acp::ToolKind::Think,
        ToolKind::Other => acp::ToolKind::Other,
    }
}

/// The files a call's input names (`file_path`, `notebook_path`, `path`), for the client to follow.
pub fn locations(input: &Value) -> Vec<ToolCallLocation> {
    ["file_path", "notebook_path", "path"]
        .iter()
        .filter_map(|key| input.get(key)?.as_str())
        .map(|path| {
            let line = input
                .get("offset")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok());
            ToolCallLocation::new(path).line(line)
        })
        .take(1)
        .collect()
}

fn entry_status(status: TodoStatus) -> PlanEntryStatus {
    match status {
        TodoStatus::Pending => PlanEntryStatus::Pending,
        TodoStatus::InProgress => PlanEntryStatus::InProgress,
        TodoStatus::Completed => PlanEntryStatus::Completed,
    }
}

fn todo_plan(todos: &[TodoItem]) -> Plan {
    Plan::new(
        todos
            .iter()
            .map(|t| {
                PlanEntry::new(
                    t.content.clone(),
                    PlanEntryPriority::Medium,
                    entry_status(t.status),
                )
            })
            .collect(),
    )
}

fn task_plan(tasks: &[TaskItem]) -> Plan {
    Plan::new(
        tasks
            .iter()
            .map(|t| {
                PlanEntry::new(
                    t.subject.clone(),
                    PlanEntryPriority::Medium,
                    entry_status(t.status),
                )
            })
            .collect(),
    )
}

/// The session's event sink: every event's updates, sent as `session/update` in the order the events came.
pub struct UpdateSink {
    connection: ConnectionTo<Client>,
    session_id: String,
    translator: Mutex<Translator>,
}

impl UpdateSink {
    pub fn new(connection: ConnectionTo<Client>, session_id: String) -> Self {
        Self {
            connection,
            session_id,
            translator: Mutex::new(Translator::default()),
        }
    }

    /// The model's context window, for usage updates (none are sent before it is known).
    pub fn set_context_window(&self, tokens: u64) {
        if let Ok(mut translator) = self.translator.lock() {
            translator.context_window = tokens;
        }
    }

    /// Sends the slash commands the person may use (the engine's, custom commands, skills, MCP prompts).
    pub fn commands(&self, commands: &[SlashCommand]) {
        let available = commands
            .iter()
            .map(|c| {
                let command = AvailableCommand::new(c.name.clone(), c.description.clone());
                match &c.argument_hint {
                    Some(hint) => command.input(AvailableCommandInput::Unstructured(
                        UnstructuredCommandInput::new(hint.clone()),
                    )),
                    None => command,
                }
            })
            .collect();
        self.update(SessionUpdate::AvailableCommandsUpdate(
            AvailableCommandsUpdate::new(available),
        ));
    }

    /// Sends one update, in order with those of the events.
    fn update(&self, update: SessionUpdate) {
        let Ok(_translator) = self.translator.lock() else {
            return;
        };
        let _ = self
            .connection
            .send_notification(SessionNotification::new(self.session_id.clone(), update));
    }

    /// Sends the updates of `event` (`replay`: see [`Translator::updates`]).
    pub fn send(&self, event: SessionEvent, replay: bool) {
        // The lock is held while sending, so that updates leave in the order the events came from any thread.
        let Ok(mut translator) = self.translator.lock() else {
            return;
        };
        for update in translator.updates(event, replay) {
            let _ = self
                .connection
                .send_notification(SessionNotification::new(self.session_id.clone(), update));
        }
    }
}

impl EventSink for UpdateSink {
    fn emit(&self, event: SessionEvent) {
        self.send(event, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tandem_protocol::{FileDiff, RenderHints};

    fn kinds(updates: &[SessionUpdate]) -> Vec<Value> {
        updates
            .iter()
            .map(|u| serde_json::to_value(u).expect("serialises"))
            .collect()
    }

    #[test]
    fn a_write_streams_as_a_call_with_its_diff() {
        let mut t = Translator::default();
        let mut all = Vec::new();
        for event in [
            SessionEvent::ToolCallStarted {
                tool_use_id: "w1".into(),
                name: "Write".into(),
            },
            SessionEvent::ToolCallInput {
                tool_use_id: "w1".into(),
                name: "Write".into(),
                input: json!({"file_path": "/p/a.txt", "content": "new"}),
                hints: RenderHints {
                    kind: ToolKind::Write,
                    title: "Write a.txt".into(),
                    collapsible: false,
                },
            },
            SessionEvent::ToolCallStatusChanged {
                tool_use_id: "w1".into(),
                status: ToolCallStatus::Executing,
            },
            SessionEvent::ToolCallResult {
                tool_use_id: "w1".into(),
                outcome: ToolOutcome::Success,
                content: "wrote".into(),
                detail: Some(ToolDetail::FileChange {
                    path: "/p/a.txt".into(),
                    created: false,
                    replacements: None,
                    hunks: Vec::new(),
                    diff: Some(FileDiff {
                        path: "/p/a.txt".into(),
                        old_text: "old".into(),
                        new_text: "new".into(),
                        is_new_file: false,
                    }),
                    cell: None,
                    changed_by: None,
                    revised: None,
                    diagnostics: None,
                }),
            },
        ] {
            all.extend(t.updates(event, false));
        }
        let v = kinds(&all);
        assert_eq!(v[0]["sessionUpdate"], "tool_call");
        // `pending` is the protocol's default status, left out on the wire.
        assert_eq!(v[0]["status"].as_str().unwrap_or("pending"), "pending");
        assert_eq!(v[1]["sessionUpdate"], "tool_call_update");
        assert_eq!(v[1]["kind"], "edit");
        assert_eq!(v[1]["title"], "Write a.txt");
        assert_eq!(v[1]["locations"][0]["path"], "/p/a.txt");
        assert_eq!(v[2]["status"], "in_progress");
        assert_eq!(v[3]["status"], "completed");
        assert_eq!(v[3]["content"][0]["type"], "diff");
        assert_eq!(v[3]["content"][0]["oldText"], "old");
        assert_eq!(v[3]["content"][0]["newText"], "new");
    }

    #[test]
    fn outcomes_map_to_completed_or_failed_and_prompts_replay_only_from_the_store() {
        for (outcome, status) in [
            (ToolOutcome::Success, "completed"),
            (ToolOutcome::Error, "failed"),
            (ToolOutcome::Denied, "failed"),
            (ToolOutcome::Cancelled, "failed"),
        ] {
            let mut t = Translator::default();
            let u = t.updates(
                SessionEvent::ToolCallResult {
                    tool_use_id: "x".into(),
                    outcome,
                    content: "r".into(),
                    detail: None,
                },
                false,
            );
            assert_eq!(kinds(&u)[0]["status"], status);
        }
        let mut t = Translator::default();
        let started = SessionEvent::TurnStarted {
            prompt: "hi".into(),
            prompt_id: None,
        };
        assert!(t.updates(started.clone(), false).is_empty());
        assert_eq!(
            kinds(&t.updates(started, true))[0]["sessionUpdate"],
            "user_message_chunk"
        );
    }

    #[test]
    fn todos_become_the_plan() {
        let mut t = Translator::default();
        let u = t.updates(
            SessionEvent::TodosChanged {
                todos: vec![TodoItem {
                    content: "Run the tests".into(),
                    status: TodoStatus::InProgress,
                    active_form: "Running the tests".into(),
                }],
            },
            false,
        );
        let v = kinds(&u);
        assert_eq!(v[0]["sessionUpdate"], "plan");
        assert_eq!(v[0]["entries"][0]["content"], "Run the tests");
        assert_eq!(v[0]["entries"][0]["status"], "in_progress");
    }
}
