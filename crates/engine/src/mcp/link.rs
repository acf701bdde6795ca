//! The way to a server that outlives its connections: tools hold the link, the manager puts a new connection in it
//! after a restart, and a call made while the server is down fails at once with a message naming the server. A call
//! made while the server is still starting (its tools known from an earlier session) waits for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use tokio::sync::watch;

use super::client::{ClientError, Connection};
use super::limits::Limits;

/// One server's current connection.
#[derive(Debug)]
pub struct ServerLink {
    /// The server's name as configured.
    pub server: String,
    pub limits: Limits,
    connection: RwLock<Option<Arc<Connection>>>,
    /// The server is starting (a call waits for it).
    starting: AtomicBool,
    /// Bumped when the connection or `starting` changes.
    changes: watch::Sender<u64>,
}

impl ServerLink {
    pub fn new(server: impl Into<String>, limits: Limits) -> Self {
        Self {
            server: server.into(),
            limits,
            connection: RwLock::new(None),
            starting: AtomicBool::new(false),
            changes: watch::channel(0).0,
        }
    }

    /// Records whether the server is starting.
    pub fn set_starting(&self, starting: bool) {
        self.starting.store(starting, Ordering::SeqCst);
        self.changes.send_modify(|v| *v += 1);
    }

    /// The live connection; while the server is starting, waits for it (at most the start-up time).
    pub async fn ready(&self) -> Result<Arc<Connection>, String> {
        let mut changes = self.changes.subscribe();
        let wait = async {
            loop {
                if let Some(c) = self.connection() {
                    return Some(c);
                }
                if !self.starting.load(Ordering::SeqCst) || changes.changed().await.is_err() {
                    return self.connection();
                }
            }
        };
        match tokio::time::timeout(self.limits.startup, wait).await {
            Ok(Some(c)) => Ok(c),
            _ => self.require(),
        }
    }

    /// The live connection, if the server is up.
    pub fn connection(&self) -> Option<Arc<Connection>> {
        let slot = match self.connection.read() {
            Ok(s) => s,
            Err(p) => p.into_inner(),
        };
        slot.clone().filter(|c| !c.has_ended())
    }

    /// Puts `connection` in (or takes the old one out with `None`).
    pub fn set(&self, connection: Option<Arc<Connection>>) {
        let mut slot = match self.connection.write() {
            Ok(s) => s,
            Err(p) => p.into_inner(),
        };
        *slot = connection;
        drop(slot);
        self.changes.send_modify(|v| *v += 1);
    }

    /// The live connection, or the error a call gets while the server is down.
    pub fn require(&self) -> Result<Arc<Connection>, String> {
        self.connection().ok_or_else(|| {
            format!(
                "MCP server `{}` is not connected (it stopped or is restarting); try again later",
                self.server
            )
        })
    }

    /// A client error as the model reads it.
    pub fn describe(&self, error: &ClientError, connection: &Connection) -> String {
        let mut text = format!("MCP server `{}`: {error}", self.server);
        if matches!(error, ClientError::Closed)
            && let Some(tail) = connection.stderr.text()
        {
            text.push_str("\nThe server's last output on stderr:\n");
            text.push_str(&tail);
        }
        text
    }
}
