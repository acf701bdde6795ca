//! One configured server over the session: started on first use, its open documents, restarted after a crash with
//! a growing delay (at most `maxRestarts` times), its whole process group killed when it is dropped.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Initialized,
};
use lsp_types::request::Initialize;
use lsp_types::{
    ClientCapabilities, ClientInfo, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, InitializeParams, InitializedParams,
    ServerCapabilities, TextDocumentContentChangeEvent, TextDocumentIdentifier, TextDocumentItem,
    TextDocumentSyncCapability, TextDocumentSyncSaveOptions, Uri, VersionedTextDocumentIdentifier,
    WorkspaceFolder,
};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::connection::{Connection, Replies};
use super::{LspError, ServerConfig, uri_of};
use crate::process_group::GroupGuard;

/// The first delay before a restart; each further crash doubles it, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(8);
/// How many lines of the server's error output are kept for the notice when it stops.
const STDERR_LINES: usize = 10;

/// A document as the server was last told it.
#[derive(Debug, Clone, Copy)]
struct Doc {
    version: i32,
    hash: blake3::Hash,
}

/// A started server: its connection, what it can do, its open documents and its process.
#[derive(Debug)]
pub struct Running {
    pub conn: Connection,
    pub capabilities: ServerCapabilities,
    docs: Mutex<HashMap<String, Doc>>,
    _child: tokio::process::Child,
    _group: GroupGuard,
}

/// How a document was brought up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synced {
    /// The server already had this text.
    Unchanged,
    /// The server was sent it (opened or changed) as this version.
    Sent(i32),
}

impl Running {
    /// Makes the server's copy of `uri` be `text`: opens it, or sends the whole new text as the next version.
    pub fn sync(&self, uri: &Uri, language: &str, text: &str) -> Synced {
        let hash = blake3::hash(text.as_bytes());
        let Ok(mut docs) = self.docs.lock() else {
            return Synced::Unchanged;
        };
        match docs.get_mut(uri.as_str()) {
            Some(doc) if doc.hash == hash => Synced::Unchanged,
            Some(doc) => {
                doc.version += 1;
                doc.hash = hash;
                self.conn
                    .notify::<DidChangeTextDocument>(DidChangeTextDocumentParams {
                        text_document: VersionedTextDocumentIdentifier::new(
                            uri.clone(),
                            doc.version,
                        ),
                        content_changes: vec![TextDocumentContentChangeEvent {
                            range: None,
                            range_length: None,
                            text: text.to_string(),
                        }],
                    });
                Synced::Sent(doc.version)
            }
            None => {
                docs.insert(uri.as_str().to_string(), Doc { version: 1, hash });
                self.conn
                    .notify::<DidOpenTextDocument>(DidOpenTextDocumentParams {
                        text_document: TextDocumentItem::new(
                            uri.clone(),
                            language.to_string(),
                            1,
                            text.to_string(),
                        ),
                    });
                Synced::Sent(1)
            }
        }
    }

    /// Tells the server `uri` was saved (with its text when the server asked for it).
    pub fn saved(&self, uri: &Uri, text: &str) {
        let include = match &self.capabilities.text_document_sync {
            Some(TextDocumentSyncCapability::Options(o)) => match &o.save {
                Some(TextDocumentSyncSaveOptions::SaveOptions(s)) => s.include_text == Some(true),
                _ => false,
            },
            _ => false,
        };
        self.conn
            .notify::<DidSaveTextDocument>(DidSaveTextDocumentParams {
                text_document: TextDocumentIdentifier::new(uri.clone()),
                text: include.then(|| text.to_string()),
            });
    }
}

#[derive(Debug)]
enum State {
    Idle,
    Running(Arc<Running>),
    /// Crashed; may start again from `retry_at`.
    Crashed {
        retry_at: Instant,
    },
    /// Will not start again this session.
    Off(LspError),
}

/// A configured server and its state.
#[derive(Debug)]
pub struct Server {
    pub config: ServerConfig,
    root: PathBuf,
    state: tokio::sync::Mutex<State>,
    crashes: AtomicU32,
}

impl Server {
    pub fn new(config: ServerConfig, root: &Path) -> Self {
        Self {
            config,
            root: root.to_path_buf(),
            state: tokio::sync::Mutex::new(State::Idle),
            crashes: AtomicU32::new(0),
        }
    }

    /// The running server, started (or restarted, after its backoff) when it is not running. Fails with a notice
    /// when it cannot start, has crashed too often, or `cancel` fires.
    pub async fn running(&self, cancel: &CancellationToken) -> Result<Arc<Running>, LspError> {
        let mut state = self.state.lock().await;
        loop {
            match &*state {
                State::Running(r) if r.conn.is_alive() => return Ok(r.clone()),
                State::Running(r) => {
                    let reason = r.conn.close_reason().unwrap_or_default();
                    *state = self.after_crash(reason);
                    continue;
                }
                State::Off(e) => return Err(e.clone()),
                State::Idle => {}
                State::Crashed { retry_at, .. } => {
                    let retry_at = *retry_at;
                    tokio::select! {
                        () = tokio::time::sleep_until(retry_at) => {}
                        () = cancel.cancelled() => return Err(LspError::Cancelled),
                    }
                }
            }
            match self.start(cancel).await {
                Ok(running) => {
                    let running = Arc::new(running);
                    *state = State::Running(running.clone());
                    return Ok(running);
                }
                Err(LspError::Crashed { reason, .. }) => {
                    *state = self.after_crash(reason.clone());
                    if let State::Crashed { .. } = &*state {
                        // Starting failed: the caller hears now rather than after the next backoff.
                        return Err(LspError::Crashed {
                            server: self.config.name.clone(),
                            reason: format!("{reason}; it is started again on next use"),
                        });
                    }
                }
                Err(e @ LspError::Missing { .. }) => {
                    *state = State::Off(e.clone());
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The state after one more crash.
    fn after_crash(&self, reason: String) -> State {
        let crashes = self.crashes.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.config.restart_on_crash || crashes > self.config.max_restarts {
            return State::Off(LspError::GaveUp {
                server: self.config.name.clone(),
                crashes,
                reason,
            });
        }
        let backoff = FIRST_BACKOFF
            .saturating_mul(1 << crashes.saturating_sub(1).min(8))
            .min(MAX_BACKOFF);
        State::Crashed {
            retry_at: Instant::now() + backoff,
        }
    }

    /// How many times the server has crashed so far (a crash is counted when the next use finds it).
    pub fn crashes(&self) -> u32 {
        self.crashes.load(Ordering::Relaxed)
    }

    async fn start(&self, cancel: &CancellationToken) -> Result<Running, LspError> {
        let config = &self.config;
        let folder = config
            .workspace_folder
            .clone()
            .unwrap_or_else(|| self.root.clone());
        let mut command = tokio::process::Command::new(&config.command);
        command
            .args(&config.args)
            .envs(&config.env)
            .current_dir(&folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        let mut child = command.spawn().map_err(|e| LspError::Missing {
            server: config.name.clone(),
            command: config.command.clone(),
            reason: e.to_string(),
        })?;
        let group = GroupGuard::new(child.id().unwrap_or_default());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(self.crashed("its standard streams could not be opened"));
        };
        // The last lines of the server's error output, read as it comes (a full pipe would stall the server) and
        // handed over once it ends (to say why the server stopped).
        let tail = tokio::spawn(async move {
            let mut tail = VecDeque::new();
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
            tail.into_iter().collect::<Vec<_>>().join(" | ")
        });
        let tail = async move { tail.await.unwrap_or_default() };
        let folder_uri =
            uri_of(&folder).ok_or_else(|| self.crashed("its folder has no file URI"))?;
        let folders = vec![WorkspaceFolder {
            uri: folder_uri.clone(),
            name: folder
                .file_name()
                .map_or_else(|| "workspace".into(), |n| n.to_string_lossy().into_owned()),
        }];
        let replies = Replies {
            settings: config.settings.clone(),
            folders: serde_json::to_value(&folders).unwrap_or_default(),
        };
        let conn = Connection::start(&config.name, stdin, stdout, replies, tail);
        #[allow(deprecated)] // root_uri: older servers read it rather than workspaceFolders
        let params = InitializeParams {
            process_id: Some(std::process::id()),
            root_uri: Some(folder_uri),
            initialization_options: config.initialization_options.clone(),
            capabilities: client_capabilities(),
            workspace_folders: Some(folders),
            client_info: Some(ClientInfo {
                name: "tandem".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            ..InitializeParams::default()
        };
        let result = match conn
            .request::<Initialize>(params, config.startup_timeout, cancel)
            .await
        {
            Ok(result) => result,
            Err(LspError::Timeout { .. }) => {
                return Err(self.crashed(&format!(
                    "it did not finish starting within {} ms (startupTimeout)",
                    config.startup_timeout.as_millis()
                )));
            }
            Err(LspError::Server { message, .. }) => {
                return Err(self.crashed(&format!("it refused to start: {message}")));
            }
            Err(e) => return Err(e),
        };
        conn.notify::<Initialized>(InitializedParams {});
        if let Some(settings) = &config.settings {
            conn.notify::<DidChangeConfiguration>(DidChangeConfigurationParams {
                settings: settings.clone(),
            });
        }
        Ok(Running {
            conn,
            capabilities: result.capabilities,
            docs: Mutex::default(),
            _child: child,
            _group: group,
        })
    }

    fn crashed(&self, reason: &str) -> LspError {
        LspError::Crashed {
            server: self.config.name.clone(),
            reason: reason.to_string(),
        }
    }
}

/// What the client tells servers it understands: document sync with save, versioned diagnostics, the requests the
/// `LSP` tool sends.
fn client_capabilities() -> ClientCapabilities {
    serde_json::from_value(json!({
        "workspace": {
            "workspaceFolders": true,
            "configuration": true,
            "symbol": {}
        },
        "textDocument": {
            "synchronization": {"didSave": true, "dynamicRegistration": false},
            "publishDiagnostics": {"versionSupport": true, "relatedInformation": false},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "definition": {"linkSupport": true},
            "implementation": {"linkSupport": true},
            "references": {},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
            "callHierarchy": {}
        },
        "window": {"workDoneProgress": false},
        "general": {"positionEncodings": ["utf-16"]}
    }))
    .unwrap_or_default()
}
