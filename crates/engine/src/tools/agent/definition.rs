//! What an agent type is: its name, what it is for, the tools it may use, and how it runs. The built-in types
//! (general-purpose, Explore, Plan) and the tools no sub-agent gets.

use tandem_protocol::PermissionMode;

use crate::tool::names;

/// Where an agent type comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSource {
    BuiltIn,
    /// `<project>/.claude/agents/<file>.md`
    Project(std::path::PathBuf),
    /// `~/.claude/agents/<file>.md`
    User(std::path::PathBuf),
    /// An agent file of a plugin that is on.
    Plugin(std::path::PathBuf),
}

/// One agent type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDefinition {
    pub name: String,
    /// When to use it (shown to the model in the Agent tool's description).
    pub description: String,
    /// The tools it may use (`None`: every tool a sub-agent may have).
    pub tools: Option<Vec<String>>,
    /// Tools it may not use, on top of those no sub-agent gets.
    pub disallowed_tools: Vec<String>,
    /// The model to use (`None` or `inherit`: the session's).
    pub model: Option<String>,
    /// The permission mode it runs in (`None`: the session's).
    pub permission_mode: Option<PermissionMode>,
    /// Model requests it may make (`None`: the session's limit).
    pub max_turns: Option<u32>,
    /// Its system prompt.
    pub system_prompt: String,
    pub source: AgentSource,
    /// Its own hooks (`hooks:` in its frontmatter), in force while it runs; its `Stop` hooks are SubagentStop hooks.
    pub hooks: crate::settings::HookSet,
}

/// Tools no sub-agent gets (docs/engine-doors.md, Sub-agents): they need the person or the main loop, or would recurse;
/// teams are made and deleted by the lead only, and only the main conversation briefs the person, sleeps or changes
/// worktree.
pub const ALL_AGENT_DISALLOWED_TOOLS: &[&str] = &[
    names::AGENT,
    names::TASK_OUTPUT,
    names::EXIT_PLAN_MODE,
    names::ENTER_PLAN_MODE,
    names::ASK_USER_QUESTION,
    names::TASK_STOP,
    names::TEAM_CREATE,
    names::TEAM_DELETE,
    names::BRIEF,
    names::SLEEP,
    names::ENTER_WORKTREE,
    names::EXIT_WORKTREE,
    names::WORKFLOW,
];

/// Tools a team member gets whatever its type (how it talks to its team).
pub const TEAM_MEMBER_TOOLS: &[&str] = &[names::SEND_MESSAGE, names::LIST_PEERS];

/// The tools of the read-only built-in types.
const READ_ONLY_TOOLS: &[&str] = &[
    names::READ,
    names::GLOB,
    names::GREP,
    names::LS,
    names::NOTEBOOK_READ,
    names::WEB_FETCH,
    names::WEB_SEARCH,
];

/// The tools of the verification type: the read-only ones and the shell (to run the tests), never an editor.
const VERIFY_TOOLS: &[&str] = &[
    names::READ,
    names::GLOB,
    names::GREP,
    names::LS,
    names::NOTEBOOK_READ,
    names::BASH,
    names::BASH_OUTPUT,
    names::WEB_FETCH,
];

pub const GENERAL_PURPOSE: &str = "general-purpose";
pub const EXPLORE: &str = "Explore";
pub const PLAN: &str = "Plan";
pub const VERIFICATION: &str = "verification";
pub const GUIDE: &str = "claude-code-guide";
/// Not a type of the catalogue: a copy of the calling agent that starts from its conversation so far, with its
/// system prompt and the general-purpose agent's tools.
pub const FORK: &str = "fork";

impl AgentDefinition {
    /// Whether a sub-agent of this type may use `tool` (a tool name; aliases are the caller's business).
    pub fn allows(&self, tool: &str) -> bool {
        if ALL_AGENT_DISALLOWED_TOOLS.contains(&tool)
            || self.disallowed_tools.iter().any(|t| t == tool)
        {
            return false;
        }
        match &self.tools {
            None => true,
            Some(list) => list.iter().any(|t| t == tool || t == "*"),
        }
    }

    fn built_in(name: &str, description: &str, tools: Option<&[&str]>, prompt: &str) -> Self {
        Self {
            name: name.to_string(),
            description: description.to_string(),
            tools: tools.map(|t| t.iter().map(|s| s.to_string()).collect()),
            disallowed_tools: Vec::new(),
            model: None,
            permission_mode: None,
            max_turns: None,
            system_prompt: prompt.to_string(),
            hooks: Default::default(),
            source: AgentSource::BuiltIn,
        }
    }
}

/// The built-in agent types.
pub fn built_in_agents() -> Vec<AgentDefinition> {
    vec![
        AgentDefinition::built_in(
            GENERAL_PURPOSE,
            "General-purpose agent for researching complex questions, searching for code, and executing multi-step \
             tasks. When you are searching for a keyword or file and are not confident that you will find the right \
             match in the first few tries, use this agent to perform the search for you.",
            None,
            "You are an agent for a coding assistant. Given the user's message, use the tools available to complete \
             the task. Do what has been asked; nothing more, nothing less. When you complete the task, respond with \
             a concise report of what was done and any key findings: the caller will relay it to the user, so it \
             must stand on its own. Share file paths as absolute paths.",
        ),
        AgentDefinition::built_in(
            EXPLORE,
            "Fast read-only agent specialised in exploring codebases: finding files by pattern, searching code for \
             keywords, and answering questions about the code. It cannot change files.",
            Some(READ_ONLY_TOOLS),
            "You are a file search specialist. You explore the codebase with the read-only tools you have (find \
             files by pattern, search their contents, read them) and answer the question you are given. You cannot \
             create, change or delete files. Answer with a concise report; give file paths as absolute paths.",
        ),
        AgentDefinition::built_in(
            PLAN,
            "Software architect agent for designing implementation plans. Use it to plan the strategy for a task: \
             it explores the code read-only and returns a step-by-step plan, the critical files, and the trade-offs.",
            Some(READ_ONLY_TOOLS),
            "You are a software architect. Explore the codebase with the read-only tools you have, then return an \
             implementation plan for the task you are given: the steps in order, the files to change (absolute \
             paths), and the risks or trade-offs. You cannot change files; you only plan.",
        ),
        AgentDefinition::built_in(
            VERIFICATION,
            "Checks that a piece of work is really done: runs the project's tests, build and linters, reads the \
             changed code against what was asked, and reports pass or fail with the evidence. It does not fix \
             anything. Use it after finishing a non-trivial change, before telling the user it works.",
            Some(VERIFY_TOOLS),
            "You are a verification specialist. You are given a task that was said to be done. Find out whether it \
             is: read the changes, run the project's own checks (tests, build, linters, type checks) with the shell, \
             and try the behaviour that was asked for. You cannot edit files, and you must not change the project \
             with shell commands either. Answer with a verdict first (PASS, FAIL or PARTIAL), then the evidence: the \
             commands you ran with their relevant output, and for each problem the file (absolute path), what is \
             wrong and how you know.",
        ),
        AgentDefinition::built_in(
            GUIDE,
            "Answers questions about configuring and using this coding agent and the Claude Code setups it reads: \
             settings files, permission rules and modes, hooks, MCP servers, skills, custom commands and agents, \
             sub-agents, the command line. Use it when the user asks how to do something with the agent itself.",
            Some(READ_ONLY_TOOLS),
            "You are a guide to this coding agent (Tandem), which reads the same configuration as Claude Code. \
             Answer the user's question precisely, with the file or command to use and an example. What you know: \
             settings live in ~/.claude/settings.json (user), .claude/settings.json (project, shared) and \
             .claude/settings.local.json (project, personal), plus managed policy files; permission rules are \
             `permissions.allow`, `ask` and `deny` lists such as `Bash(npm test *)`, `Read(./.env)`, \
             `Edit(/src/**)`, `WebFetch(domain:example.com)`, `mcp__server__tool`; deny beats ask beats allow; \
             modes are default, acceptEdits, plan, dontAsk and bypassPermissions. Hooks are under `hooks` by event \
             (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, …) with matchers and commands that \
             read JSON on stdin. MCP servers come from .mcp.json and `mcpServers`. Skills are \
             .claude/skills/<name>/SKILL.md, custom commands .claude/commands/*.md, agents .claude/agents/*.md, \
             each with frontmatter. Read the user's own configuration files with your tools before answering about \
             their setup, and say when something is not supported rather than guessing.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explore_is_read_only_and_no_type_gets_the_agent_tool() {
        let agents = built_in_agents();
        let explore = agents.iter().find(|a| a.name == EXPLORE).expect("explore");
        assert!(explore.allows(names::READ));
        assert!(!explore.allows(names::WRITE));
        assert!(!explore.allows(names::BASH));
        let general = agents
            .iter()
            .find(|a| a.name == GENERAL_PURPOSE)
            .expect("general");
        assert!(general.allows(names::WRITE));
        assert!(!general.allows(names::AGENT));
        assert!(!general.allows(names::TASK_OUTPUT));
    }

    #[test]
    fn verification_runs_commands_but_never_edits_and_the_guide_only_reads() {
        let agents = built_in_agents();
        let find = |name: &str| agents.iter().find(|a| a.name == name).expect(name);
        let verify = find(VERIFICATION);
        assert!(verify.allows(names::BASH) && verify.allows(names::READ));
        for tool in [
            names::EDIT,
            names::WRITE,
            names::MULTI_EDIT,
            names::NOTEBOOK_EDIT,
        ] {
            assert!(!verify.allows(tool), "verification may use {tool}");
        }
        let guide = find(GUIDE);
        assert!(guide.allows(names::READ) && guide.allows(names::WEB_FETCH));
        assert!(!guide.allows(names::BASH) && !guide.allows(names::WRITE));
    }

    #[test]
    fn lead_only_tools_are_refused_to_every_sub_agent_type() {
        let lead_only = [
            names::TEAM_CREATE,
            names::TEAM_DELETE,
            names::BRIEF,
            names::SLEEP,
            names::ENTER_WORKTREE,
            names::EXIT_WORKTREE,
        ];
        let mut permissive = built_in_agents()
            .into_iter()
            .find(|a| a.name == GENERAL_PURPOSE)
            .expect("general");
        permissive.tools = Some(vec!["*".into()]);
        for agent in built_in_agents().into_iter().chain([permissive]) {
            for tool in lead_only {
                assert!(!agent.allows(tool), "{} may use {tool}", agent.name);
            }
            assert!(agent.name != GENERAL_PURPOSE || agent.allows(names::TODO_WRITE));
        }
    }
}
