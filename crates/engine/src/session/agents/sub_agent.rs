//! Sub-agents of a session: each runs its own query loop (a sidechain of the conversation) with the tools its type
//! allows, the session's permission context (a custom agent's `permissionMode` applied), the session's approver
//! (questions bubble up, naming the sub-agent) and the session's event sink (events wrapped as
//! [`SessionEvent::SubAgent`]). Implements [`SubAgentRunner`] for the Agent tool.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use tandem_protocol::{
    BackgroundAgent, BackgroundAgentStatus, SessionEvent, SubAgentOrigin, Usage,
};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::hooks::payload::SubagentStart;
use crate::model::{Model, RenamedModel, TurnModel, claude_alias};
use crate::query::QueryConfig;
use crate::store::NewSidechain;
use crate::tool::{SubAgentError, SubAgentReport, SubAgentRequest, SubAgentRunner, WorktreeReport};
use crate::tools::agent::AgentDefinition;

use crate::tools::worktree;

use super::child::{Child, SubAgentParts, agent_of, child_runtime};
use super::doors::TaggedSink;
use super::side_conversation::{SideConversation, agent_transcript, start_sidechain};
use super::team_member::{MemberRole, member_prompt};
use crate::session::transcript::TranscriptModel;

use super::stop::{Background, Outcome, Stop, lock, notification, status_word};

/// The session's sub-agent runner.
pub struct SubAgents {
    parts: Arc<SubAgentParts>,
    /// The background sub-agents by task id.
    background: Mutex<HashMap<String, Background>>,
    /// The synchronous sub-agents running now, by the parent's call that started them.
    running: Mutex<HashMap<String, Stop>>,
    /// Notifications of background sub-agents that ended, not yet given to the parent.
    notifications: Arc<Mutex<Vec<String>>>,
    /// Stops the background sub-agents when the session goes away.
    background_cancel: CancellationToken,
}

impl std::fmt::Debug for SubAgents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubAgents")
            .field("session_id", &self.parts.runtime.session_id)
            .finish()
    }
}

impl SubAgents {
    pub(in crate::session) fn new(parts: SubAgentParts) -> Self {
        Self {
            parts: Arc::new(parts),
            background: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            notifications: Arc::default(),
            background_cancel: CancellationToken::new(),
        }
    }
}

/// A synchronous sub-agent's place in [`SubAgents::running`], removed when dropped.
struct Listed<'a> {
    running: &'a Mutex<HashMap<String, Stop>>,
    key: String,
}

impl Drop for Listed<'_> {
    fn drop(&mut self) {
        lock(self.running).remove(&self.key);
    }
}

impl Drop for SubAgents {
    fn drop(&mut self) {
        self.background_cancel.cancel();
    }
}

impl SubAgentRunner for SubAgents {
    fn run(&self, request: SubAgentRequest) -> BoxFuture<'_, Outcome> {
        let stop = Stop::child_of(&request.cancel);
        let key = request.parent_tool_use_id.clone();
        lock(&self.running).insert(key.clone(), stop.clone());
        let request = SubAgentRequest {
            cancel: stop.cancel.clone(),
            ..request
        };
        Box::pin(async move {
            // Forgotten when the run ends or its future is dropped (the parent's call cancelled).
            let _listed = Listed {
                running: &self.running,
                key,
            };
            let outcome = run(self.parts.clone(), request, false).await;
            stop.explain(outcome)
        })
    }

    fn start_background(&self, request: SubAgentRequest) -> Result<String, SubAgentError> {
        agent_of(&self.parts.catalog, &request.agent_type)?;
        let (done, outcome) = watch::channel(None);
        let stop = Stop::child_of(&self.background_cancel);
        let task_id = {
            let mut tasks = lock(&self.background);
            // Named after the call that started it, so the model can tell its tasks apart.
            let mut task_id = format!("agent-{}", request.parent_tool_use_id);
            if request.parent_tool_use_id.is_empty() || tasks.contains_key(&task_id) {
                task_id = format!("agent-{}", uuid::Uuid::new_v4().simple());
            }
            tasks.insert(
                task_id.clone(),
                Background {
                    outcome,
                    stop: stop.clone(),
                    parent_tool_use_id: request.parent_tool_use_id.clone(),
                },
            );
            task_id
        };
        let mut listed = BackgroundAgent {
            task_id: task_id.clone(),
            parent_tool_use_id: request.parent_tool_use_id.clone(),
            agent_type: request.agent_type.clone(),
            description: request.description.clone(),
            status: BackgroundAgentStatus::Running,
        };
        self.parts
            .runtime
            .events
            .emit(SessionEvent::BackgroundAgentChanged {
                agent: listed.clone(),
            });
        let request = SubAgentRequest {
            cancel: stop.cancel.clone(),
            ..request
        };
        let parts = self.parts.clone();
        let notifications = self.notifications.clone();
        tokio::spawn(async move {
            let events = parts.runtime.events.clone();
            let outcome = stop.explain(run(parts.clone(), request, true).await);
            let (status, text) = match &outcome {
                Ok(report) => (BackgroundAgentStatus::Completed, report.final_text.clone()),
                Err(SubAgentError::Cancelled) => (BackgroundAgentStatus::Stopped, String::new()),
                Err(e @ SubAgentError::StoppedByPerson) => {
                    (BackgroundAgentStatus::Stopped, e.to_string())
                }
                Err(e) => (BackgroundAgentStatus::Failed, e.to_string()),
            };
            let word = status_word(status);
            let (id, description) = (&listed.task_id, &listed.description);
            // In this order: whoever sees the notice finds the task ended and the notification queued.
            let _ = done.send(Some(outcome));
            lock(&notifications).push(notification(id, description, word, &text));
            parts.lead_mailbox.ring();
            events.emit(SessionEvent::Notice {
                message: format!("Background agent {id} ({description}) {word}."),
            });
            listed.status = status;
            events.emit(SessionEvent::BackgroundAgentChanged { agent: listed });
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
            .and_then(|tasks| tasks.get(task_id).map(|t| t.outcome.clone()));
        Box::pin(async move {
            let mut outcome = found?;
            if !wait.is_zero() {
                let _ = tokio::time::timeout(wait, outcome.wait_for(Option::is_some)).await;
            }
            let current = outcome.borrow().clone();
            Some(current)
        })
    }

    fn stop_background(&self, task_id: &str) -> Option<bool> {
        self.stop(task_id)
    }

    fn stop_by_person(&self, id: &str) -> bool {
        if let Some(stop) = lock(&self.running).get(id) {
            stop.by_person();
            return true;
        }
        let tasks = lock(&self.background);
        let found = tasks
            .get(id)
            .or_else(|| tasks.values().find(|task| task.parent_tool_use_id == id));
        match found {
            Some(task) if task.outcome.borrow().is_none() => {
                task.stop.by_person();
                true
            }
            _ => false,
        }
    }

    fn take_notifications(&self) -> Vec<String> {
        self.drain()
    }
}

impl SubAgents {
    fn stop(&self, task_id: &str) -> Option<bool> {
        let tasks = lock(&self.background);
        let task = tasks.get(task_id)?;
        let running = task.outcome.borrow().is_none();
        task.stop.cancel.cancel();
        Some(running)
    }

    fn drain(&self) -> Vec<String> {
        self.notifications
            .lock()
            .map(|mut list| std::mem::take(&mut *list))
            .unwrap_or_default()
    }
}

/// Runs one sub-agent to its end (see [`SubAgentRunner::run`]), in a worktree of its own when asked: a worktree
/// without changes is removed afterwards, one with changes is kept and named in the report.
async fn run(parts: Arc<SubAgentParts>, request: SubAgentRequest, background: bool) -> Outcome {
    if request.remote {
        return super::remote::run(parts, request, background).await;
    }
    if !request.worktree {
        let cwd = request
            .cwd
            .clone()
            .unwrap_or_else(|| parts.runtime.cwd.clone());
        return run_in(parts, request, background, cwd, None).await;
    }
    let made = match &request.branch {
        Some(branch) => worktree::create_on_branch(&parts.runtime.cwd, branch),
        None => {
            let name = format!("agent-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
            worktree::create(&parts.runtime.cwd, &name)
        }
    };
    let wt = made
        .map_err(|e| SubAgentError::Failed(format!("its git worktree could not be made: {e}")))?;
    // A folder asked for is the same folder in the worktree.
    let cwd = request
        .cwd
        .as_deref()
        .and_then(|asked| asked.strip_prefix(&parts.runtime.cwd).ok())
        .map(|relative| wt.path.join(relative))
        .filter(|folder| folder.is_dir())
        .unwrap_or_else(|| wt.path.clone());
    let outcome = run_in(parts, request, background, cwd, None).await;
    let end = match worktree::finish(&wt) {
        Ok(end) => WorktreeReport {
            path: end.path,
            branch: end.branch,
            changed_files: end.changed_files,
            kept: end.kept,
        },
        Err(e) => {
            tracing::warn!("worktree {}: {e}", wt.path.display());
            WorktreeReport {
                path: wt.path.clone(),
                branch: wt.branch.clone(),
                changed_files: Vec::new(),
                kept: true,
            }
        }
    };
    match outcome {
        Ok(report) => Ok(SubAgentReport {
            worktree: Some(end),
            ..report
        }),
        Err(SubAgentError::Failed(why)) if end.kept => Err(SubAgentError::Failed(format!(
            "{why} (its worktree {} on branch {} is kept with its changes)",
            end.path.display(),
            end.branch
        ))),
        Err(e) => Err(e),
    }
}

/// Runs a team member in the session's folder: a sub-agent that, once a turn ends, reports to the lead and waits
/// for messages until it is stopped (its request's cancellation).
pub(super) async fn run_member(
    parts: Arc<SubAgentParts>,
    request: SubAgentRequest,
    role: MemberRole,
) -> Outcome {
    let cwd = parts.runtime.cwd.clone();
    run_in(parts, request, false, cwd, Some(role)).await
}

/// Runs one sub-agent to its end with `cwd` as its working directory (a team member: until it is stopped), in a
/// `sub_agent` span naming its type, its id and the call that started it.
#[tracing::instrument(
    name = "sub_agent",
    skip_all,
    fields(
        agent_type = %request.agent_type,
        agent_id = tracing::field::Empty,
        tool_use = %request.parent_tool_use_id,
    )
)]
async fn run_in(
    parts: Arc<SubAgentParts>,
    request: SubAgentRequest,
    background: bool,
    cwd: PathBuf,
    member: Option<MemberRole>,
) -> Outcome {
    let started = Instant::now();
    let mut agent = agent_of(&parts.catalog, &request.agent_type)?;
    if let Some(mode) = request.mode {
        agent.permission_mode = Some(mode);
    }
    let agent_id = match &member {
        Some(role) => role.agent_id.clone(),
        None => format!("{}", uuid::Uuid::new_v4().simple()),
    };
    tracing::Span::current().record("agent_id", tracing::field::display(&agent_id));
    let origin = SubAgentOrigin {
        agent_type: agent.name.clone(),
        description: request.description.clone(),
        parent_tool_use_id: request.parent_tool_use_id.clone(),
        agent_id: agent_id.clone(),
        name: member.as_ref().map(|m| m.name.clone()),
    };
    let sink = Arc::new(TaggedSink {
        parent: parts.runtime.events.clone(),
        origin: origin.clone(),
        tool_calls: AtomicU32::new(0),
        attribution: parts.attribution.clone(),
    });
    // Declared first, dropped last: the runtime goes before its background shells are stopped.
    let (_own_shells, context, runtime) = child_runtime(
        &parts,
        Child {
            agent: &agent,
            agent_id: &agent_id,
            origin,
            sink: sink.clone(),
            background,
            cwd: &cwd,
            member: member.as_ref(),
        },
    );
    let mut system = match &request.fork {
        Some(fork) => fork.system.clone(),
        None => vec![system_prompt(&agent, &parts, &cwd)],
    };
    if let Some(role) = &member {
        system.push(member_prompt(role));
    }
    let config = QueryConfig {
        system,
        max_turns: agent.max_turns.unwrap_or(parts.config.max_turns),
        ..parts.config.clone()
    };
    let model = model_for(
        &parts.model,
        request.model.as_deref().or(agent.model.as_deref()),
        &parts.turn_model,
    );
    let session_id = &parts.runtime.session_id;
    let transcript = agent_transcript(session_id, &agent_id, &cwd);
    let hook_ids = SubagentStart {
        agent_id: agent_id.clone(),
        agent_type: agent.name.clone(),
    };
    let mut prompt = match &request.fork {
        Some(_) => fork_directive(&request.prompt),
        None => request.prompt.clone(),
    };
    start_sidechain(
        &context,
        session_id,
        &hook_ids,
        sink.parent.as_ref(),
        &mut prompt,
        parts.recorder.as_deref(),
        NewSidechain {
            agent_id: agent_id.clone(),
            parent_tool_use_id: request.parent_tool_use_id.clone(),
            agent_type: agent.name.clone(),
            description: request.description.clone(),
        },
    )
    .await;
    let mut conversation = SideConversation {
        model: Arc::new(TranscriptModel::new(model, transcript.clone())),
        runtime: &runtime,
        config: &config,
        cancel: &request.cancel,
        recorder: parts.recorder.as_ref(),
        agent_id: &agent_id,
        history: request
            .fork
            .as_ref()
            .map(|fork| fork.messages.clone())
            .unwrap_or_default(),
        usage: Usage::default(),
    };
    let first = conversation.turn(&prompt).await?;
    let mut outcome = conversation
        .through_stop_hooks(first, &hook_ids, &transcript, sink.parent.as_ref())
        .await?;
    if let Some(role) = &member {
        outcome = conversation.as_member(outcome, role).await?;
    }
    let usage = conversation.usage;
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
        worktree: None,
        remote: None,
    })
}

/// The agent's instructions, then the environment.
/// A fork's first prompt: what it is, and its task.
fn fork_directive(task: &str) -> String {
    format!(
        "<fork>\nYou are now a fork of the agent whose conversation is above: a copy started to do one task on its \
         own while it goes on. You cannot start agents or ask the user questions. Do only the task below, then end \
         with a short report of what you did and found; the agent that started you reads only that report.\n</fork>\n\n{task}"
    )
}

fn system_prompt(agent: &AgentDefinition, parts: &SubAgentParts, cwd: &std::path::Path) -> String {
    format!(
        "{}\n\n<env>\nWorking directory: {}\nPlatform: {}\nToday's date: {}\n</env>",
        agent.system_prompt,
        cwd.display(),
        std::env::consts::OS,
        parts.today
    )
}

/// The model a sub-agent runs on, first found: the one its call or its type names (`sonnet`, `opus`, `haiku` or a
/// model id; only when the session talks to a Claude model — a local model has no such aliases — and `inherit`
/// names none), the model of the parent's turn (a custom command's or a skill's), the session's. The precedence
/// of the reference agent: an agent inherits the model its parent runs on unless it names its own.
fn model_for(session: &Arc<dyn Model>, wanted: Option<&str>, turn: &TurnModel) -> Arc<dyn Model> {
    let named = wanted
        .filter(|w| *w != "inherit")
        .filter(|_| session.model_name().starts_with("claude"));
    if let Some(wanted) = named {
        return Arc::new(RenamedModel::new(session.clone(), claude_alias(wanted)));
    }
    match turn.resolved(session.model_name()) {
        Some(name) => Arc::new(RenamedModel::new(session.clone(), name)),
        None => session.clone(),
    }
}
