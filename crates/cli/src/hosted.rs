//! `tandem -p --agent NAME PROMPT`: one turn with a hosted agent, printed as `tandem -p` prints Tandem's own
//! (text, one JSON object, or the stream of events), in a session stored like any other (`tandem sessions` lists
//! it). Permission questions the rules leave open are answered as in any headless run: `--yes`, a permission mode,
//! or `--permission-prompt-tool`; otherwise no.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::approver::Approver;
use tandem_engine::events::{EventSink, JsonLinesSink};
use tandem_engine::mcp::{Limits, McpCliConfig, PromptToolApprover};
use tandem_engine::model::ModelConfig;
use tandem_engine::permission::CliSettings;
use tandem_engine::session::{EndReason, Session};
use tandem_engine::settings::{AppSettingsFile, agent_server};
use tandem_engine::store::SessionStore;
use tandem_protocol::{TurnStopReason, Usage};

use crate::headless::{StderrApprover, StderrSink, Stop, store_failure};
use crate::lazy_model::LazyModel;
use crate::{Cli, OutputFormat, terminal};
use tandem_engine::hosted::{
    Host, HostedAgent, HostedApprover, HostedError, TerminalTap, Terminals,
};

/// The flags of `-p` a hosted agent's turn does not take (the agent runs its own model and tools).
fn unsupported(cli: &Cli) -> Option<&'static str> {
    if cli.resume.is_some() || cli.continue_latest {
        Some("--resume and --continue")
    } else if cli.json_schema.is_some() {
        Some("--json-schema")
    } else if !cli.images.is_empty() {
        Some("--image")
    } else if cli.model.is_some() {
        Some("--model")
    } else if cli.max_turns.is_some() {
        Some("--max-turns")
    } else {
        None
    }
}

/// The model name a hosted agent's session is stored with.
pub fn model_name(agent: &str) -> String {
    format!("acp:{agent}")
}

/// Runs the turn and returns the exit code.
pub async fn run(cli: &Cli, prompt: &str, name: &str, stop: &Stop) -> i32 {
    if let Some(flags) = unsupported(cli) {
        eprintln!("tandem: {flags} cannot be used with --agent");
        return 2;
    }
    let cwd = match &cli.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    let servers = match AppSettingsFile::standard().map(|file| file.agent_servers()) {
        Some(Ok(servers)) => servers,
        Some(Err(message)) => {
            eprintln!("tandem: {message}");
            return 2;
        }
        None => Default::default(),
    };
    let server = match agent_server(&servers, name) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    let store = match SessionStore::open_default() {
        Ok(store) => Arc::new(store),
        Err(e) => {
            eprintln!(
                "tandem: the session database cannot be opened, so nothing would be saved: {e}"
            );
            return 1;
        }
    };
    let mut builder = match Session::builder(&cwd) {
        Ok(builder) => builder,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    let session_id = builder.session_id();
    let printed: Arc<dyn EventSink> = match cli.output_format {
        OutputFormat::StreamJson => Arc::new(JsonLinesSink::new(session_id.clone(), 0)),
        _ => Arc::new(StderrSink),
    };
    let terminals = Arc::new(Terminals::default());
    let events = Arc::new(TerminalTap {
        terminals: terminals.clone(),
        inner: printed,
    });
    let stderr_approver: Arc<dyn Approver> = Arc::new(StderrApprover { yes: cli.yes });
    let prompt_tool = match &cli.permission_prompt_tool {
        Some(tool) => match PromptToolApprover::new(tool, stderr_approver.clone()) {
            Ok(approver) => Some(Arc::new(approver)),
            Err(message) => {
                eprintln!("tandem: {message}");
                return 2;
            }
        },
        None => None,
    };
    let inner: Arc<dyn Approver> = match &prompt_tool {
        Some(approver) => approver.clone(),
        None => stderr_approver,
    };
    let approver = Arc::new(HostedApprover::new(inner));
    let model = ModelConfig {
        model: model_name(name),
        ..ModelConfig::default()
    };
    // Tandem's own MCP servers serve only the prompt tool here: the agent has its own.
    let mcp = match &prompt_tool {
        Some(_) => McpCliConfig {
            configs: cli.mcp_config.clone(),
            strict: cli.strict_mcp_config,
        },
        None => McpCliConfig {
            configs: Vec::new(),
            strict: true,
        },
    };
    let opened = builder
        .model(model.clone())
        .model_client(Arc::new(LazyModel::new(model)))
        .mode(cli.permission_mode)
        .approver(approver.clone())
        .events(events)
        .store(Some(store.clone()))
        .command_line(CliSettings {
            allowed_tools: cli.allowed_tools.clone(),
            disallowed_tools: cli.disallowed_tools.clone(),
            mode: None,
            add_dirs: cli.add_dirs.clone(),
        })
        .mcp_config(mcp)
        // Command-line runs treat the folder as trusted (docs/permissions.md §2).
        .assume_trusted()
        .build();
    let session = match opened {
        Ok(session) => Arc::new(session),
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    if let Some(message) =
        crate::permissions::unreadable_settings(&session.runtime().permission_context())
    {
        eprintln!("tandem: {message}");
        return 1;
    }
    if let Some(approver) = &prompt_tool {
        approver.bind(session.mcp().links());
        tokio::select! {
            _ = session.mcp().wait_until_usable(Limits::from_env().startup) => {}
            _ = stop.token().cancelled() => {}
        }
    }
    if cli.output_format == OutputFormat::StreamJson {
        let info = session.info();
        println!(
            "{}",
            json!({
                "type": "system",
                "subtype": "init",
                "session_id": info.session_id,
                "cwd": info.cwd,
                "model": info.model,
                "permission_mode": info.mode,
                "agent": name,
                "tools": [],
                "mcp_servers": [],
            })
        );
    }
    // An agent that cannot start or open its session stores nothing.
    let host = Host::new(session.clone(), approver, terminals);
    let agent = tokio::select! {
        started = HostedAgent::start(host, name, &server, &cli.mcp_config) => started,
        _ = stop.token().cancelled() => return 1,
    };
    let agent = match agent {
        Ok(agent) => agent,
        Err(e) => {
            eprintln!("tandem: {e}");
            return if matches!(e, HostedError::Spawn(_)) {
                2
            } else {
                1
            };
        }
    };
    let turn = agent.prompt(prompt, stop.token()).await;
    drop(agent);
    session.end(EndReason::Other).await;
    if stop.code().is_some() {
        return 1;
    }
    let outcome = match turn {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 1;
        }
    };
    let is_error = matches!(
        outcome.stop_reason,
        TurnStopReason::Error | TurnStopReason::Refusal
    );
    match cli.output_format {
        OutputFormat::Text => println!("{}", terminal::for_stdout(&outcome.final_text)),
        OutputFormat::Json | OutputFormat::StreamJson => println!(
            "{}",
            json!({
                "type": "result",
                "is_error": is_error,
                "result": outcome.final_text,
                "stop_reason": outcome.stop_reason,
                "session_id": session_id,
                "agent": name,
                "num_turns": 1,
                "usage": Usage::default(),
            })
        ),
    }
    if let Some(failure) = store_failure(Some(&store)).await {
        eprintln!("tandem: the session was not saved completely: {failure}");
        return 1;
    }
    if is_error { 1 } else { 0 }
}
