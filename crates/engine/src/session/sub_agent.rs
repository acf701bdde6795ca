//! Sub-agents of a session: each runs its own query loop (a sidechain of the conversation) with the tools its type
//! allows, the session's permission context (a custom agent's `permissionMode` applied), the session's approver
//! (questions bubble up, titled with the sub-agent's name) and the session's event sink (events wrapped as
//! [`SessionEvent::SubAgent`]). Implements [`SubAgentRunner`] for the Agent tool.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde_json::{Map, Value};
use tandem_protocol::{
    ApprovalAnswer, ApprovalRequest, PlanAnswer, PlanRequest, QuestionAnswer, QuestionRequest,
    SessionEvent, Usage,
};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::approver::{Approver, NoAnswer};
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::exec::hook_gate as hooks;
use crate::model::{Message, Model, ModelRequest, ModelStream};
use crate::permission::PermissionContext;
use crate::query::{QueryConfig, run_turn};
use crate::registry::ToolPool;
use crate::settings::HookEvent;
use crate::tool::{
    DynTool, FileStateStore, ModelCompleter, SubAgentError, SubAgentReport, SubAgentRequest,
    SubAgentRunner,
};
use crate::tools::agent::{AgentCatalog, AgentDefinition};

/// How often a blocking SubagentStop hook may make a sub-agent go on.
const MAX_STOP_HOOK_ROUNDS: usize = 3;

/// What a sub-agent shares with its session.
pub(super) struct SubAgentParts {
    pub session_id: String,
    pub cwd: PathBuf,
    /// The session's model client (not the one that records the session's own history).
    pub model: Arc<dyn Model>,
    pub config: QueryConfig,
    pub permissions: Arc<RwLock<Arc<PermissionContext>>>,
    pub approver: Arc<dyn Approver>,
    pub events: Arc<dyn EventSink>,
    pub file_state: Arc<FileStateStore>,
    /// Every tool a sub-agent could have (the Agent tool is not among them).
    pub tools: Vec<Arc<dyn DynTool>>,
    pub catalog: Arc<AgentCatalog>,
    pub today: String,
    /// The session's MCP tools (those ready when a sub-agent starts are offered to it).
    pub mcp: crate::mcp::McpTools,
    /// Single completions for the tools (WebFetch).
    pub completer: Option<Arc<dyn ModelCompleter>>,
}

type Outcome = Result<SubAgentReport, SubAgentError>;

/// The session's sub-agent runner.
pub struct SubAgents {
    parts: Arc<SubAgentParts>,
    /// The background sub-agents by task id, each with its outcome once it ended.
    background: Mutex<HashMap<String, watch::Receiver<Option<Outcome>>>>,
    /// Stops the background sub-agents when the session goes away.
    background_cancel: CancellationToken,
}

impl std::fmt::Debug for SubAgents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubAgents")
            .field("session_id", &self.parts.session_id)
            .finish()
    }
}

impl SubAgents {
    pub(super) fn new(parts: SubAgentParts) -> Self {
        Self {
            parts: Arc::new(parts),
            background: Mutex::new(HashMap::new()),
            background_cancel: CancellationToken::new(),
        }
    }
}

impl Drop for SubAgents {
    fn drop(&mut self) {
        self.background_cancel.cancel();
    }
}

impl SubAgentRunner for SubAgents {
    fn run(&self, request: SubAgentRequest) -> BoxFuture<'_, Outcome> {
        Box::pin(run(self.parts.clone(), request, false))
    }

    fn start_background(&self, request: SubAgentRequest) -> Result<String, SubAgentError> {
        agent_of(&self.parts.catalog, &request.agent_type)?;
        let (done, outcome) = watch::channel(None);
        let task_id = {
            let mut tasks = match self.background.lock() {
                Ok(tasks) => tasks,
                Err(poisoned) => poisoned.into_inner(),
            };
            // Named after the call that started it, so the model can tell its tasks apart.
            let mut task_id = format!("agent-{}", request.parent_tool_use_id);
            if request.parent_tool_use_id.is_empty() || tasks.contains_key(&task_id) {
                task_id = format!("agent-{}", uuid::Uuid::new_v4().simple());
            }
            tasks.insert(task_id.clone(), outcome);
            task_id
        };
        let request = SubAgentRequest {
            cancel: self.background_cancel.child_token(),
            ..request
        };
        let parts = self.parts.clone();
        tokio::spawn(async move {
            let outcome = run(parts, request, true).await;
            let _ = done.send(Some(outcome));
        });
        Ok(task_id)
    }

    fn background_output(
        &self,
        task_id: &str,
        wait: Duration,
    ) -> BoxFuture<'_, Option<Option<Outcome>>> {
        let found = self
            .background
            .lock()
            .ok()
            .and_then(|tasks| tasks.get(task_id).cloned());
        Box::pin(async move {
            let mut outcome = found?;
            if !wait.is_zero() {
                let _ = tokio::time::timeout(wait, outcome.wait_for(Option::is_some)).await;
            }
            let current = outcome.borrow().clone();
            Some(current)
        })
    }
}

fn agent_of(catalog: &AgentCatalog, name: &str) -> Result<AgentDefinition, SubAgentError> {
    catalog
        .find(name)
        .cloned()
        .ok_or_else(|| SubAgentError::UnknownType {
            name: name.to_string(),
            available: catalog.names(),
        })
}

/// Runs one sub-agent to its end (see [`SubAgentRunner::run`]).
async fn run(parts: Arc<SubAgentParts>, request: SubAgentRequest, background: bool) -> Outcome {
    let started = Instant::now();
    let agent = agent_of(&parts.catalog, &request.agent_type)?;
    let agent_id = format!("{}", uuid::Uuid::new_v4().simple());
    let sink = Arc::new(TaggedSink {
        parent: parts.events.clone(),
        parent_tool_use_id: request.parent_tool_use_id.clone(),
        agent_id: agent_id.clone(),
        label: agent.name.clone(),
        tool_calls: AtomicU32::new(0),
    });
    let permissions = child_permissions(&parts.permissions, &agent, background);
    let context = read(&permissions);
    let pool = ToolPool::assemble(
        &parts
            .tools
            .iter()
            .filter(|t| agent.allows(t.name()))
            .cloned()
            .collect::<Vec<_>>(),
        &parts
            .mcp
            .snapshot()
            .iter()
            .filter(|t| agent.allows(t.name()))
            .cloned()
            .collect::<Vec<_>>(),
        |name| context.rules.hides(name),
    );
    let runtime = ToolRuntime {
        session_id: parts.session_id.clone(),
        cwd: parts.cwd.clone(),
        pool,
        permissions,
        approver: Arc::new(Bubble {
            parent: parts.approver.clone(),
            label: agent.name.clone(),
        }),
        events: sink.clone(),
        file_state: parts.file_state.clone(),
        sub_agents: None,
        completer: parts.completer.clone(),
        deferred: Default::default(),
    };
    let config = QueryConfig {
        system: vec![system_prompt(&agent, &parts)],
        max_turns: agent.max_turns.unwrap_or(parts.config.max_turns),
        ..parts.config.clone()
    };
    let model = model_for(
        &parts.model,
        request.model.as_deref().or(agent.model.as_deref()),
    );

    let notify = |message: String| sink.parent.emit(SessionEvent::Notice { message });
    let mut prompt = request.prompt.clone();
    let ids = |extra: &mut Map<String, Value>| {
        extra.insert("agent_id".into(), Value::String(agent_id.clone()));
        extra.insert("agent_type".into(), Value::String(agent.name.clone()));
    };
    let mut fields = Map::new();
    ids(&mut fields);
    if let Some(v) = hooks::run_event(
        &context,
        &parts.session_id,
        HookEvent::SubagentStart,
        Some(&agent.name),
        fields,
    )
    .await
    {
        v.errors
            .into_iter()
            .chain(v.system_messages)
            .for_each(&notify);
        for extra in v.additional_context {
            prompt.push_str("\n\n");
            prompt.push_str(&extra);
        }
    }

    let mut history: Vec<Message> = Vec::new();
    let mut usage = Usage::default();
    let mut outcome = run_turn(
        model.as_ref(),
        &runtime,
        &config,
        &mut history,
        &mut usage,
        &prompt,
        &request.cancel,
    )
    .await
    .map_err(|e| SubAgentError::Failed(e.to_string()))?;
    let mut active = false;
    for _ in 0..MAX_STOP_HOOK_ROUNDS {
        if request.cancel.is_cancelled() {
            break;
        }
        let mut fields = Map::new();
        ids(&mut fields);
        fields.insert("stop_hook_active".into(), Value::Bool(active));
        fields.insert("agent_transcript_path".into(), Value::String(String::new()));
        let Some(v) = hooks::run_event(
            &read(&runtime.permissions),
            &parts.session_id,
            HookEvent::SubagentStop,
            Some(&agent.name),
            fields,
        )
        .await
        else {
            break;
        };
        v.errors.into_iter().for_each(&notify);
        match v.block {
            Some(reason) if v.stop.is_none() => {
                active = true;
                outcome = run_turn(
                    model.as_ref(),
                    &runtime,
                    &config,
                    &mut history,
                    &mut usage,
                    &format!("SubagentStop hook feedback: {reason}"),
                    &request.cancel,
                )
                .await
                .map_err(|e| SubAgentError::Failed(e.to_string()))?;
            }
            _ => break,
        }
    }
    if request.cancel.is_cancelled() {
        return Err(SubAgentError::Cancelled);
    }
    Ok(SubAgentReport {
        agent_id,
        agent_type: agent.name,
        final_text: outcome.final_text,
        usage,
        tool_calls: sink.tool_calls.load(Ordering::Relaxed),
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    })
}

fn read(permissions: &RwLock<Arc<PermissionContext>>) -> Arc<PermissionContext> {
    match permissions.read() {
        Ok(ctx) => Arc::clone(&ctx),
        Err(poisoned) => Arc::clone(&poisoned.into_inner()),
    }
}

/// The sub-agent's permission context: the session's own (shared, so grants and reloads apply to both) unless the
/// agent runs in a mode of its own or in the background (where nobody can answer: asks become denies).
fn child_permissions(
    session: &Arc<RwLock<Arc<PermissionContext>>>,
    agent: &AgentDefinition,
    background: bool,
) -> Arc<RwLock<Arc<PermissionContext>>> {
    if agent.permission_mode.is_none() && !background {
        return session.clone();
    }
    let current = read(session);
    let mut ctx = match agent.permission_mode {
        Some(mode) => current.with_mode(mode),
        None => (*current).clone(),
    };
    if background {
        ctx.avoid_prompts = true;
    }
    Arc::new(RwLock::new(Arc::new(ctx)))
}

/// The agent's instructions, then the environment.
fn system_prompt(agent: &AgentDefinition, parts: &SubAgentParts) -> String {
    format!(
        "{}\n\n<env>\nWorking directory: {}\nPlatform: {}\nToday's date: {}\n</env>",
        agent.system_prompt,
        parts.cwd.display(),
        std::env::consts::OS,
        parts.today
    )
}

/// The model a sub-agent runs on: the session's, or the one named (`sonnet`, `opus`, `haiku` or a model id) when
/// the session talks to a Claude model (a local model has no such aliases; it is kept).
fn model_for(session: &Arc<dyn Model>, wanted: Option<&str>) -> Arc<dyn Model> {
    let Some(wanted) = wanted.filter(|w| *w != "inherit") else {
        return session.clone();
    };
    if !session.model_name().starts_with("claude") {
        return session.clone();
    }
    let name = match wanted {
        "sonnet" => "claude-sonnet-4-5",
        "opus" => "claude-opus-4-1",
        "haiku" => "claude-haiku-4-5",
        other => other,
    };
    Arc::new(Renamed {
        inner: session.clone(),
        name: name.to_string(),
    })
}

/// A model client sending another model name.
struct Renamed {
    inner: Arc<dyn Model>,
    name: String,
}

impl Model for Renamed {
    fn model_name(&self) -> &str {
        &self.name
    }
    fn stream(&self, mut request: ModelRequest) -> ModelStream {
        request.model = self.name.clone();
        self.inner.stream(request)
    }
}

/// Forwards a sub-agent's events to the session's sink wrapped as [`SessionEvent::SubAgent`]; its approval
/// requests go unwrapped (the person must see them), titled with the agent's name. Counts the tool calls.
struct TaggedSink {
    parent: Arc<dyn EventSink>,
    parent_tool_use_id: String,
    agent_id: String,
    label: String,
    tool_calls: AtomicU32,
}

impl EventSink for TaggedSink {
    fn emit(&self, event: SessionEvent) {
        match event {
            SessionEvent::ApprovalRequested { mut request } => {
                request.title = titled(&self.label, &request.title);
                self.parent
                    .emit(SessionEvent::ApprovalRequested { request });
            }
            event @ (SessionEvent::ApprovalResolved { .. }
            | SessionEvent::PlanReviewRequested { .. }
            | SessionEvent::QuestionsAsked { .. }) => self.parent.emit(event),
            event => {
                if matches!(event, SessionEvent::ToolCallResult { .. }) {
                    self.tool_calls.fetch_add(1, Ordering::Relaxed);
                }
                self.parent.emit(SessionEvent::SubAgent {
                    parent_tool_use_id: self.parent_tool_use_id.clone(),
                    agent_id: self.agent_id.clone(),
                    event: Box::new(event),
                });
            }
        }
    }
}

fn titled(agent: &str, title: &str) -> String {
    format!("[{agent} agent] {title}")
}

/// Passes a sub-agent's questions to the session's approver, titled with the agent's name.
struct Bubble {
    parent: Arc<dyn Approver>,
    label: String,
}

impl Approver for Bubble {
    fn ask(&self, mut request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        request.title = titled(&self.label, &request.title);
        self.parent.ask(request)
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        self.parent.review_plan(request)
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        self.parent.ask_questions(request)
    }
}
