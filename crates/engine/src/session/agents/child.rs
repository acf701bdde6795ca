//! What a sub-agent is made of: the parts it shares with its session ([`SubAgentParts`]), its type looked up, and
//! its runtime made from the session's ([`child_runtime`]: its permission context, shell, tools, approver naming it
//! and tagged sink) — shared by local runs ([`super::sub_agent`]) and remote ones ([`super::remote`]).

use std::path::Path;
use std::sync::{Arc, RwLock};

use tandem_protocol::SubAgentOrigin;

use super::doors::{Bubble, TaggedSink};
use super::team_member::MemberRole;
use crate::exec::ToolRuntime;
use crate::model::{Model, TurnModel};
use crate::permission::PermissionContext;
use crate::query::QueryConfig;
use crate::registry::{self, SubAgentToolInputs, builtin_tools_with};
use crate::session::changes::Attribution;
use crate::settings::{HookSet, RuleSource};
use crate::store::SessionRecorder;
use crate::tool::{DynTool, Mailbox, SubAgentError};
use crate::tools::agent::{AgentCatalog, AgentDefinition, FORK, GENERAL_PURPOSE};
use crate::tools::bash::ShellSession;
use crate::tools::work_list::{WorkBoard, WorkListFamily};

/// What a sub-agent shares with its session.
#[derive(Clone)]
pub(in crate::session) struct SubAgentParts {
    /// What a sub-agent's calls run against, as the session's: its id, folder, permission context (shared, so
    /// grants and reloads apply to both), approver, event sink, file state and completer. Each sub-agent's runtime
    /// is made from it with its own folder, tools, doors and sink; the session's own doors (sub-agents, teams,
    /// mailbox, mode notes) are not in it.
    pub runtime: ToolRuntime,
    /// The session's model client (not the one that records the session's own history).
    pub model: Arc<dyn Model>,
    pub config: QueryConfig,
    /// Every tool a sub-agent could have (the Agent tool is not among them).
    pub tools: Vec<Arc<dyn DynTool>>,
    pub catalog: Arc<AgentCatalog>,
    pub today: String,
    /// The session's MCP tools (those ready when a sub-agent starts are offered to it).
    pub mcp: crate::mcp::McpTools,
    /// Where each sub-agent's conversation is stored as a sidechain of the session (`None`: not stored).
    pub recorder: Option<Arc<SessionRecorder>>,
    /// Which checklist tools a sub-agent gets (each keeps its own list).
    pub work_list: WorkListFamily,
    /// The session's own agent's mailbox: rung when a background sub-agent ends (it wakes Sleep).
    pub lead_mailbox: Arc<Mailbox>,
    /// The files sub-agents changed, for the changes view.
    pub attribution: Arc<Attribution>,
    /// The session's shell state (a sub-agent in the session's folder shares its directory; its background shells
    /// are its own and end with it).
    pub shell: Arc<ShellSession>,
    /// The model of the parent's current turn (a custom command's or a skill's), which its sub-agents inherit.
    pub turn_model: Arc<TurnModel>,
    /// Where `isolation: "remote"` sub-agents run (`None`: no `remoteAgentHost`, or no door to it).
    pub remote: Option<super::remote_door::RemoteDoor>,
}

pub(super) fn agent_of(
    catalog: &AgentCatalog,
    name: &str,
) -> Result<AgentDefinition, SubAgentError> {
    if name == FORK {
        // A fork has the general-purpose agent's tools under its own name; its instructions are its parent's.
        let mut agent = catalog.find(GENERAL_PURPOSE).cloned().ok_or_else(|| {
            SubAgentError::Failed(
                "a fork has the general-purpose agent's tools, and that type is not available here"
                    .into(),
            )
        })?;
        agent.name = FORK.to_string();
        return Ok(agent);
    }
    catalog
        .find(name)
        .cloned()
        .ok_or_else(|| SubAgentError::UnknownType {
            name: name.to_string(),
            available: catalog.names(),
        })
}

/// Who a sub-agent's runtime is for.
pub(super) struct Child<'a> {
    pub agent: &'a AgentDefinition,
    pub agent_id: &'a str,
    pub origin: SubAgentOrigin,
    /// Its events, wrapped.
    pub sink: Arc<TaggedSink>,
    pub background: bool,
    pub cwd: &'a Path,
    pub member: Option<&'a MemberRole>,
}

/// A sub-agent's runtime, made from the session's: its permission context (moved to its folder when it has one of
/// its own), its shell and tools, its approver naming it, its sink and (a member) its team doors; with the guard
/// that stops its background shells when it ends and the context it starts with.
pub(super) fn child_runtime(
    parts: &SubAgentParts,
    child: Child<'_>,
) -> (OwnShells, Arc<PermissionContext>, ToolRuntime) {
    let Child {
        agent,
        agent_id,
        origin,
        sink,
        background,
        cwd,
        member,
    } = child;
    let mut permissions = child_permissions(&parts.runtime.permissions, agent, background);
    if cwd != parts.runtime.cwd {
        // Its own folder: relative paths resolve there, and it counts as a working directory.
        let mut moved = read(&permissions).with_working_dir(cwd);
        moved.cwd = cwd.to_path_buf();
        permissions = Arc::new(RwLock::new(Arc::new(moved)));
    }
    let context = read(&permissions);
    // In its own folder it gets its own shell (the session's shell keeps the session's directory).
    let shell = if cwd == parts.runtime.cwd {
        parts.shell.clone()
    } else {
        Arc::new(ShellSession::temporary().with_events(parts.runtime.events.clone()))
    };
    let base = if cwd == parts.runtime.cwd {
        parts.tools.clone()
    } else {
        builtin_tools_with(shell.clone())
    };
    // Its Bash calls are its own: the background shells they start end when it does.
    let own_shells = OwnShells {
        shell: shell.clone(),
        agent_id: agent_id.to_string(),
    };
    // Its own checklist, shown under its transcript (the events are wrapped like its others).
    let board = Arc::new(WorkBoard::new(sink.clone()));
    let pool = registry::sub_agent_pool(
        SubAgentToolInputs {
            builtins: base,
            shell,
            agent_id,
            agent,
            member: member.is_some(),
            work_list: parts.work_list,
            work_board: &board,
            mcp: &parts.mcp,
            background,
        },
        |name| context.rules.hides(name),
    );
    let runtime = ToolRuntime {
        cwd: cwd.to_path_buf(),
        pool,
        permissions,
        approver: Arc::new(Bubble {
            parent: parts.runtime.approver.clone(),
            origin,
        }),
        events: sink.clone(),
        deferred: Default::default(),
        team: member.map(|m| m.seat.clone()),
        mailbox: member.map(|m| m.mailbox.clone()),
        ..parts.runtime.clone()
    };
    (own_shells, context, runtime)
}

/// The background shells a sub-agent started: stopped when it ends, however it ends.
pub(super) struct OwnShells {
    shell: Arc<ShellSession>,
    agent_id: String,
}

impl Drop for OwnShells {
    fn drop(&mut self) {
        self.shell.tasks.stop_owned_by(&self.agent_id);
    }
}

fn read(permissions: &RwLock<Arc<PermissionContext>>) -> Arc<PermissionContext> {
    match permissions.read() {
        Ok(ctx) => Arc::clone(&ctx),
        Err(poisoned) => Arc::clone(&poisoned.into_inner()),
    }
}

/// The sub-agent's permission context: the session's own (shared, so grants and reloads apply to both) unless the
/// agent runs in a mode of its own, in the background (where nobody can answer: asks become denies) or with hooks
/// of its own (added to the session's while it runs).
fn child_permissions(
    session: &Arc<RwLock<Arc<PermissionContext>>>,
    agent: &AgentDefinition,
    background: bool,
) -> Arc<RwLock<Arc<PermissionContext>>> {
    let current = read(session);
    let own_hooks = own_hooks(&current, agent);
    if agent.permission_mode.is_none() && !background && own_hooks.is_none() {
        return session.clone();
    }
    let mut ctx = match agent.permission_mode {
        Some(mode) => current.with_mode(mode),
        None => (*current).clone(),
    };
    if background {
        ctx.avoid_prompts = true;
    }
    if let Some(own) = own_hooks {
        let mut hooks = (*ctx.hooks).clone();
        hooks.extend(own);
        ctx = ctx.with_hooks(hooks);
    }
    Arc::new(RwLock::new(Arc::new(ctx)))
}

/// The agent's own hooks that may run: none where the settings turn hooks off or allow only managed ones, and a
/// project agent's only in a trusted folder (as the project's own hooks).
fn own_hooks(ctx: &PermissionContext, agent: &AgentDefinition) -> Option<HookSet> {
    if agent.hooks.is_empty() || !ctx.extra_hooks_allowed {
        return None;
    }
    let kept = agent
        .hooks
        .filtered(|source| ctx.trusted || !matches!(source, RuleSource::Project(_)));
    (!kept.is_empty()).then_some(kept)
}
