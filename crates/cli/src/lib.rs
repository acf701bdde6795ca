//! The command line: `-p`, `tool`, `permissions`, `rewind`, `sessions` and `acp` run headless in this process;
//! `tandem [PATH]` starts the desktop app installed beside it. This crate does not link the GUI, so the headless
//! commands start fast.

mod acp;
mod headless;
mod hosted;
mod lazy_model;
mod lines;
mod logging;
pub mod permissions;
mod rewind;
mod sessions;
mod structured;
mod terminal;
mod tool;
mod usage;
mod window;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use tandem_protocol::PermissionMode;

/// How `-p` prints its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// The final answer as plain text.
    Text,
    /// One JSON object with the answer, usage and session id.
    Json,
    /// Every event as a JSON line, then the result object.
    StreamJson,
}

/// Parses a permission mode name for clap.
fn parse_mode(s: &str) -> Result<PermissionMode, String> {
    PermissionMode::parse(s).ok_or_else(|| {
        let names: Vec<&str> = PermissionMode::ALL.iter().map(|m| m.as_str()).collect();
        format!(
            "unknown permission mode {s:?}; expected one of {}",
            names.join(", ")
        )
    })
}

/// Tandem: you and a coding agent, working on a project folder together.
#[derive(Debug, Parser)]
#[command(
    name = "tandem",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// The folder to open in the window.
    pub path: Option<PathBuf>,
    /// Run one headless turn with this prompt in the current folder and print the answer.
    #[arg(short = 'p', long = "print", value_name = "PROMPT")]
    pub prompt: Option<String>,
    #[arg(long, value_enum, default_value_t = OutputFormat::Text, requires = "prompt")]
    pub output_format: OutputFormat,
    /// The permission mode: default, acceptEdits, plan, dontAsk, bypassPermissions or auto (`default` lets the
    /// settings' `defaultMode` decide).
    #[arg(long, value_parser = parse_mode, default_value = "default")]
    pub permission_mode: PermissionMode,
    /// The model to use (overrides settings and ANTHROPIC_MODEL).
    #[arg(long)]
    pub model: Option<String>,
    /// The folder to work in (default: the current folder).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// Answer every permission question with yes (without it, questions are answered no).
    #[arg(long)]
    pub yes: bool,
    /// Allow rules for this run (e.g. "Bash(npm test *)" Read), as the `cliArg` settings source.
    #[arg(long = "allowedTools", alias = "allowed-tools", value_name = "RULE", num_args = 1..)]
    pub allowed_tools: Vec<String>,
    /// Deny rules for this run.
    #[arg(long = "disallowedTools", alias = "disallowed-tools", value_name = "RULE", num_args = 1..)]
    pub disallowed_tools: Vec<String>,
    /// Another working directory the agent may read (and, with approval, change).
    #[arg(long = "add-dir", value_name = "DIR")]
    pub add_dirs: Vec<PathBuf>,
    /// Continue the stored session with this id.
    #[arg(
        long,
        value_name = "ID",
        conflicts_with = "continue_latest",
        requires = "prompt"
    )]
    pub resume: Option<String>,
    /// Continue the folder's most recent session.
    #[arg(short = 'c', long = "continue", requires = "prompt")]
    pub continue_latest: bool,
    /// MCP servers for this run: a file, or JSON text, holding `{"mcpServers": {...}}` (may be repeated).
    #[arg(long = "mcp-config", value_name = "FILE|JSON", num_args = 1..)]
    pub mcp_config: Vec<String>,
    /// Use only the MCP servers of --mcp-config (not those of .mcp.json or the settings).
    #[arg(long = "strict-mcp-config")]
    pub strict_mcp_config: bool,
    /// An MCP tool (`mcp__<server>__<tool>`) that answers the permission questions of a `-p` run instead of
    /// --yes / no: called with the tool's name, input and call id, it answers `{"behavior": "allow"}` (with
    /// `updatedInput` to change the input) or `{"behavior": "deny", "message": "…"}`.
    #[arg(
        long = "permission-prompt-tool",
        value_name = "TOOL",
        requires = "prompt"
    )]
    pub permission_prompt_tool: Option<String>,
    /// Run the turn with this external agent (an entry of `agentServers` in Tandem's settings), hosted over the
    /// Agent Client Protocol, instead of Tandem's own.
    #[arg(long, value_name = "NAME", requires = "prompt")]
    pub agent: Option<String>,
    /// Run the turn with Tandem on another machine, in its folder: `ssh://[user@]host[:port]/abs/path`. The far
    /// side does the tool work on its own files; this one shows, answers its questions and stores the session
    /// (docs/remote.md).
    #[arg(
        long,
        value_name = "ssh://[USER@]HOST[:PORT]/PATH",
        requires = "prompt",
        conflicts_with = "agent"
    )]
    pub remote: Option<String>,
    /// The most model requests one turn may make.
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// A JSON Schema (inline JSON, or a file holding it) the answer must fit: the model answers through the
    /// StructuredOutput tool and the result carries the answer as `structured_output`.
    #[arg(long = "json-schema", value_name = "SCHEMA|FILE", requires = "prompt")]
    pub json_schema: Option<String>,
    /// An image file (PNG, JPEG, GIF or WebP) sent with the prompt, sized down for the model (may be repeated).
    #[arg(long = "image", value_name = "FILE", requires = "prompt")]
    pub images: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run tool calls through the whole pipeline (permissions included) and print each result as a JSON line.
    Tool(tool::ToolArgs),
    /// List a stored session's prompts, or rewind its files and/or conversation to before one of them.
    Rewind(rewind::RewindArgs),
    /// Answer permission questions without running anything, or list the effective rules.
    #[command(subcommand)]
    Permissions(permissions::PermissionsCommand),
    /// List the stored sessions, or search everything said in them.
    #[command(subcommand)]
    Sessions(sessions::SessionsCommand),
    /// What the stored sessions' model requests cost: totals, by day, folder and model, the costliest sessions and
    /// tool calls, and the budgets.
    Usage(usage::UsageArgs),
    /// Serve sessions to an editor over the Agent Client Protocol (JSON-RPC on stdin and stdout).
    Acp(acp::AcpArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    if cli.command.is_none() && cli.prompt.is_none() {
        return window::open(cli.path.as_deref());
    }
    logging::init();
    if let Some(Command::Permissions(command)) = &cli.command {
        return permissions::run(command);
    }
    if let Some(Command::Sessions(command)) = &cli.command {
        return sessions::run(command);
    }
    if let Some(Command::Usage(args)) = &cli.command {
        return usage::run(args);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tandem: cannot start the async runtime: {e}");
            return 1;
        }
    };
    runtime.block_on(async move {
        match (&cli.command, &cli.prompt) {
            (Some(Command::Tool(args)), _) => tool::run(args).await,
            (Some(Command::Permissions(command)), _) => permissions::run(command),
            (Some(Command::Rewind(args)), _) => rewind::run(args),
            (Some(Command::Sessions(command)), _) => sessions::run(command),
            (Some(Command::Usage(args)), _) => usage::run(args),
            (Some(Command::Acp(args)), _) => acp::run(args).await,
            (None, Some(prompt)) => headless::run(&cli, prompt).await,
            (None, None) => 0,
        }
    })
}
