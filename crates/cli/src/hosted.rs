//! `tandem -p --agent NAME PROMPT` (and `--remote URL`, Tandem on another machine as the agent): one turn with a
//! hosted agent, printed as `tandem -p` prints Tandem's own
//! (text, one JSON object, or the stream of events), in a session stored like any other (`tandem sessions` lists
//! it). Permission questions the rules leave open are answered as in any headless run: `--yes`, a permission mode,
//! or `--permission-prompt-tool`; otherwise no.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::{EventSink, JsonLinesSink};
use tandem_engine::hosted::{Door, HostedError, Wiring, agent_session_id};
use tandem_engine::mcp::{Limits, McpCliConfig};
use tandem_engine::model::ModelConfig;
use tandem_engine::permission::CliSettings;
use tandem_engine::session::{
    EndReason, HOSTED_MODEL_PREFIX, Session, SessionBuilder, is_hosted_model,
};
use tandem_engine::settings::AppSettingsFile;
use tandem_engine::store::SessionStore;
use tandem_protocol::{TurnStopReason, Usage};

use crate::headless::{
    RunApprover, StderrSink, Stop, read_images, resume_when_free, run_approver, store_failure,
};
use crate::lazy_model::LazyModel;
use crate::{Cli, OutputFormat, terminal};

/// The flags of `-p` a hosted agent's turn does not take (the agent runs its own model and tools).
fn unsupported(cli: &Cli) -> Option<&'static str> {
    if cli.continue_latest {
        Some("--continue")
    } else if cli.json_schema.is_some() {
        Some("--json-schema")
    } else if cli.model.is_some() {
        Some("--model")
    } else if cli.max_turns.is_some() {
        Some("--max-turns")
    } else {
        None
    }
}

/// Runs the turn and returns the exit code.
pub async fn run(cli: &Cli, prompt: &str, stop: &Stop) -> i32 {
    let flag = if cli.agent.is_some() {
        "--agent"
    } else {
        "--remote"
    };
    if let Some(flags) = unsupported(cli) {
        eprintln!("tandem: {flags} cannot be used with {flag}");
        return 2;
    }
    let door = match (&cli.agent, &cli.remote) {
        (Some(agent), _) => Door::agent(AppSettingsFile::standard().as_ref(), agent),
        (None, Some(url)) => Door::remote(url),
        (None, None) => Err("neither --agent nor --remote was given".to_string()),
    };
    let door = match door {
        Ok(door) => door,
        Err(message) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    let door = &door;
    // The images are read and sized before anything starts: one that cannot be sent ends the run, nothing sent.
    let images: Vec<_> = match read_images(&cli.images) {
        Ok(images) => images.into_iter().map(|i| i.into_image()).collect(),
        Err(message) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    let cwd = match &cli.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    let name = door.name();
    let name = name.as_str();
    // A remote's ssh connection is made while this side's session is built.
    let early = match door.spawn_early(&cwd) {
        Ok(early) => early,
        Err(message) => {
            eprintln!("tandem: {message}");
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
    // `--resume ID`: the stored session goes on, and the agent continues its own session of it.
    let opened = match &cli.resume {
        Some(id) => resume_when_free(&store, id, stop)
            .await
            .map_err(|e| e.to_string())
            .and_then(|builder| {
                let agent_session = continued(&builder, id, door)?;
                Ok((builder, Some(agent_session)))
            }),
        None => Session::builder(&cwd)
            .map(|builder| (builder, None))
            .map_err(|e| e.to_string()),
    };
    let (mut builder, agent_session) = match opened {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    let session_id = builder.session_id();
    let printed: Arc<dyn EventSink> = match cli.output_format {
        OutputFormat::StreamJson => Arc::new(JsonLinesSink::new(session_id.clone(), 0)),
        _ => Arc::new(StderrSink),
    };
    let Some(RunApprover {
        approver: inner,
        prompt_tool,
    }) = run_approver(cli)
    else {
        return 2;
    };
    let wiring = Wiring::new(inner, printed);
    let model = ModelConfig {
        model: door.model(),
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
        .approver(wiring.approver.clone())
        .events(wiring.events.clone())
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
                "remote": cli.remote,
                "tools": [],
                "mcp_servers": [],
            })
        );
    }
    // An agent that cannot start or open its session stores nothing.
    let starting = door.start(
        wiring.host(session.clone()),
        &cli.mcp_config,
        early,
        agent_session.as_deref(),
    );
    let agent = tokio::select! {
        started = starting => started,
        _ = stop.token().cancelled() => return 1,
    };
    let agent = match agent {
        Ok(agent) => agent,
        Err((e, message)) => {
            eprintln!("tandem: {message}");
            return match (door, e) {
                (Door::Agent { .. }, HostedError::Spawn(_) | HostedError::Refused(_))
                | (Door::Remote(_), _) => 2,
                _ => 1,
            };
        }
    };
    if !images.is_empty() && !agent.abilities().image {
        eprintln!(
            "tandem: {name} does not take images (its ACP promptCapabilities offer no `image`): run it without --image"
        );
        door.end(agent, &session, EndReason::Other).await;
        return 2;
    }
    let turn = agent.prompt_with(prompt, &images, stop.token()).await;
    // A remote's far engine ends and saves its session there while this one ends and saves its own.
    door.end(agent, &session, EndReason::Other).await;
    if stop.code().is_some() {
        return 1;
    }
    let outcome = match turn {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("tandem: {}", door.turn_failure(&e));
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
                "remote": cli.remote,
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

/// The agent's own session to continue in the stored session `id` (resumed by `builder`) with `door`. `Err` says why
/// it cannot be: another agent ran it (or Tandem's own), or it holds no agent session id.
fn continued(builder: &SessionBuilder, id: &str, door: &Door) -> Result<String, String> {
    let Some(loaded) = builder.stored() else {
        return Err(format!("session {id} is not a stored session"));
    };
    let ran = &loaded.record.model;
    if *ran != door.model() {
        let by = if is_hosted_model(ran) {
            format!("the agent `{}`", &ran[HOSTED_MODEL_PREFIX.len()..])
        } else {
            "Tandem's own agent".to_string()
        };
        return Err(format!(
            "session {id} was run by {by}, not by `{}`: resume it with the --agent or --remote it was run with, \
             or without either to continue it with Tandem's own agent",
            door.name()
        ));
    }
    agent_session_id(loaded).ok_or_else(|| {
            format!(
                "session {id} holds no session of `{}` to continue (it was stored before Tandem kept the agent's \
                 session id); continue it without --agent or --remote, with Tandem's own agent",
                door.name()
            )
        })
}
