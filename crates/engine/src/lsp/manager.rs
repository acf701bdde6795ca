//! The session's language servers: which server handles a file (by extension), requests on a file brought up to
//! date first, and the diagnostics after a file tool's change ([`LanguageServers`]). Dropping the manager kills
//! every server it started.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lsp_types::Uri;
use lsp_types::request::Request;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::config::{self, ServerConfig};
use super::diagnostics::{new_errors, render_errors};
use super::server::{Running, Server, Synced};
use super::{LspError, uri_of};
use crate::permission::PermissionLoader;
use crate::tool::{LanguageServers, Mailbox};

/// The manager's bounds.
#[derive(Debug, Clone, Copy)]
pub struct LspOptions {
    /// How long a file tool waits for the server's diagnostics after a change (and, for a file the server did not
    /// have open, for those of the text before the change).
    pub diagnostics_wait: Duration,
    /// How long diagnostics that missed `diagnostics_wait` are still waited for, to reach the agent with its next
    /// request.
    pub late_wait: Duration,
    /// How long one request of the `LSP` tool may take.
    pub request_timeout: Duration,
    /// For a server that does not say which version its diagnostics are for: how long after a publication without
    /// new errors a further one (for the same change, a later stage of its checking) is still waited for.
    pub quiet: Duration,
}

impl Default for LspOptions {
    fn default() -> Self {
        Self {
            diagnostics_wait: Duration::from_secs(3),
            late_wait: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
            quiet: Duration::from_millis(500),
        }
    }
}

/// The session's servers.
#[derive(Debug)]
pub struct LspManager {
    root: PathBuf,
    servers: Vec<Arc<Server>>,
    options: LspOptions,
    /// Problems with the configuration, and why servers the folder configures do not start.
    pub problems: Vec<String>,
    /// Servers whose failure a file tool already reported (each is reported once).
    reported: Mutex<Vec<String>>,
}

impl LspManager {
    /// A manager of `configs` for the project at `root`.
    pub fn new(root: &Path, configs: Vec<ServerConfig>, options: LspOptions) -> Self {
        Self {
            root: root.to_path_buf(),
            servers: configs
                .into_iter()
                .map(|c| Arc::new(Server::new(c, root)))
                .collect(),
            options,
            problems: Vec::new(),
            reported: Mutex::default(),
        }
    }

    /// The session's manager, `None` when language servers are switched off ([`config::ENABLE_ENV`] in the
    /// environment or the settings files `loader` reads). The project's `.lsp.json` servers are taken only when the
    /// folder is trusted: they are commands the project names.
    pub fn for_session(loader: &PermissionLoader) -> Option<Arc<Self>> {
        if !config::switched_on(|k| std::env::var(k).ok(), &loader.paths.all()) {
            return None;
        }
        let root = &loader.project_root;
        let trusted = loader.trust.as_ref().is_none_or(|t| t.is_trusted(root));
        let (configs, mut problems) = config::project_config(root);
        let mut configs = if trusted {
            configs
        } else {
            if !configs.is_empty() {
                problems.push(
                    "the language servers of this folder's .lsp.json start once you trust the folder".into(),
                );
            }
            Vec::new()
        };
        // Plugins that are on add theirs; those of a plugin only the project turns on wait for trust too.
        for plugin in loader.plugins().active() {
            if plugin.parts.lsp_servers.is_empty() || (plugin.needs_trust() && !trusted) {
                continue;
            }
            let value = serde_json::Value::Object(plugin.parts.lsp_servers.clone());
            let (found, wrong) = config::parse_config(&value, &plugin.root);
            problems.extend(
                wrong
                    .into_iter()
                    .map(|w| format!("plugin {}: {w}", plugin.id)),
            );
            for server in found {
                configs.retain(|c| c.name != server.name);
                configs.push(server);
            }
        }
        let mut manager = Self::new(root, configs, LspOptions::default());
        manager.problems = problems;
        Some(Arc::new(manager))
    }

    /// The configured servers.
    pub fn configs(&self) -> impl Iterator<Item = &ServerConfig> {
        self.servers.iter().map(|s| &s.config)
    }

    /// How many times the server named `name` has crashed.
    pub fn crashes(&self, name: &str) -> u32 {
        self.servers
            .iter()
            .find(|s| s.config.name == name)
            .map_or(0, |s| s.crashes())
    }

    fn server_for(&self, path: &Path) -> Option<(&Arc<Server>, String)> {
        self.servers
            .iter()
            .find_map(|s| s.config.language_of(path).map(|l| (s, l.to_string())))
    }

    /// The server for `path` started, and its copy of the file brought up to `text`.
    pub async fn open(
        &self,
        path: &Path,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<FileHandle, LspError> {
        let no_server = || {
            LspError::NoServer(path.extension().map_or_else(
                || "extension-less".into(),
                |e| format!(".{}", e.to_string_lossy()),
            ))
        };
        let (server, language) = self.server_for(path).ok_or_else(no_server)?;
        let uri = uri_of(path).ok_or_else(no_server)?;
        let running = server.running(cancel).await?;
        running.sync(&uri, &language, text);
        Ok(FileHandle {
            running,
            uri,
            server: server.config.name.clone(),
            timeout: self.options.request_timeout,
        })
    }

    /// Says once per server that it is missing or broken.
    fn report_once(&self, server: &str, error: LspError) -> Option<String> {
        let mut reported = self.reported.lock().ok()?;
        if reported.iter().any(|s| s == server) {
            return None;
        }
        reported.push(server.to_string());
        Some(format!("Note: {error}; no diagnostics for this change."))
    }

    async fn changed(
        &self,
        path: &Path,
        before: Option<&str>,
        after: &str,
        cancel: &CancellationToken,
        late: Option<Arc<Mailbox>>,
    ) -> Option<String> {
        let (server, language) = self.server_for(path)?;
        let uri = uri_of(path)?;
        let running = match server.running(cancel).await {
            Ok(r) => r,
            Err(LspError::Cancelled) => return None,
            Err(e) => return self.report_once(&server.config.name, e),
        };
        let store = running.conn.diagnostics.clone();
        let stop = running.conn.closed();
        let wait = self.options.diagnostics_wait;
        // What the file had before: the server's latest word on the text before the change.
        let before_seq = store.seq();
        let baseline = match before.map(|b| running.sync(&uri, &language, b)) {
            Some(Synced::Sent(version)) => {
                let deadline = Instant::now() + wait;
                let mut last = store
                    .wait_for(
                        uri.as_str(),
                        before_seq,
                        Some(version),
                        deadline,
                        cancel,
                        &stop,
                    )
                    .await;
                // Without versions, later publications may still be for this text: take the last of a burst.
                while let Some(p) = last.as_ref().filter(|p| p.version.is_none()) {
                    let quiet = (Instant::now() + self.options.quiet).min(deadline);
                    match store
                        .wait_for(uri.as_str(), p.seq, None, quiet, cancel, &stop)
                        .await
                    {
                        Some(next) => last = Some(next),
                        None => break,
                    }
                }
                last.map(|p| p.items)
            }
            _ => store.latest(uri.as_str()).map(|p| p.items),
        }
        .unwrap_or_default();
        let after_seq = store.seq();
        let version = match running.sync(&uri, &language, after) {
            Synced::Sent(v) => Some(v),
            Synced::Unchanged => None,
        };
        running.saved(&uri, after);
        let shown = path.strip_prefix(&self.root).unwrap_or(path).to_path_buf();
        let name = server.config.name.clone();
        let deadline = Instant::now() + wait;
        let mut seen = after_seq;
        let mut until = deadline;
        loop {
            let Some(published) = store
                .wait_for(uri.as_str(), seen, version, until, cancel, &stop)
                .await
            else {
                break;
            };
            let new = new_errors(&baseline, &published.items);
            if !new.is_empty() {
                return Some(render_errors(&name, &shown, &new));
            }
            if published.version.is_some() {
                // The server's word on this very version: nothing new.
                return None;
            }
            // Without a version this may be an earlier stage (or the text before): wait a little for more.
            seen = published.seq;
            until = (Instant::now() + self.options.quiet).min(deadline);
        }
        if cancel.is_cancelled() {
            return None;
        }
        if !running.conn.is_alive() {
            let error = LspError::Crashed {
                server: name,
                reason: running.conn.close_reason().unwrap_or_default(),
            };
            return Some(format!("Note: {error}; no diagnostics for this change."));
        }
        if let Some(mailbox) = late {
            let late_deadline = deadline + self.options.late_wait;
            tokio::spawn(late_errors(
                running,
                uri,
                seen,
                version,
                late_deadline,
                mailbox,
                name,
                shown,
                baseline,
            ));
        }
        None
    }
}

/// Waits on for diagnostics that missed the bound and posts the new errors to the agent's mailbox.
#[allow(clippy::too_many_arguments)]
async fn late_errors(
    running: Arc<Running>,
    uri: Uri,
    after_seq: u64,
    version: Option<i32>,
    deadline: Instant,
    mailbox: Arc<Mailbox>,
    name: String,
    shown: PathBuf,
    baseline: Vec<lsp_types::Diagnostic>,
) {
    let stop = running.conn.closed();
    let never = CancellationToken::new();
    let mut seen = after_seq;
    while let Some(published) = running
        .conn
        .diagnostics
        .wait_for(uri.as_str(), seen, version, deadline, &never, &stop)
        .await
    {
        let new = new_errors(&baseline, &published.items);
        if !new.is_empty() {
            mailbox.post(render_errors(&name, &shown, &new));
            return;
        }
        if published.version.is_some() {
            return;
        }
        seen = published.seq;
    }
}

#[async_trait::async_trait]
impl LanguageServers for LspManager {
    async fn file_changed(
        &self,
        path: &Path,
        before: Option<&str>,
        after: &str,
        cancel: &CancellationToken,
        late: Option<Arc<Mailbox>>,
    ) -> Option<String> {
        self.changed(path, before, after, cancel, late).await
    }
}

/// A file open on its server, for requests about it.
#[derive(Debug, Clone)]
pub struct FileHandle {
    running: Arc<Running>,
    pub uri: Uri,
    /// The server's configured name.
    pub server: String,
    timeout: Duration,
}

impl FileHandle {
    /// Sends request `R`; see [`super::connection::Connection::request`].
    pub async fn request<R: Request>(
        &self,
        params: R::Params,
        cancel: &CancellationToken,
    ) -> Result<R::Result, LspError> {
        self.running
            .conn
            .request::<R>(params, self.timeout, cancel)
            .await
    }

    /// What the server can do.
    pub fn capabilities(&self) -> &lsp_types::ServerCapabilities {
        &self.running.capabilities
    }
}
