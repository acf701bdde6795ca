//! The context a tool call runs in: working directory, cancellation, progress, and the session's file read state.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::SystemTime;

use tokio_util::sync::CancellationToken;

/// What was known about a file when a tool last read or wrote it (for the staleness check before edits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReadState {
    pub modified: Option<SystemTime>,
    pub size: u64,
    /// A hash of the content as read; `None` when a read stopped before the end of a file too large to read whole,
    /// whose freshness is then judged by `modified` and `size`.
    pub content_hash: Option<u64>,
    /// Whether only part of the file was shown (offset/limit, or a file too long to show at once).
    pub partial: bool,
}

/// Where the file tools keep the content a file had before the session changed it (the checkpoint store), so
/// that a change can be rewound. Implemented above the tool contract; the file tools only call it.
///
/// Contract: `before_change` is called before a file is written or removed and must have kept the old content when
/// it returns `Ok` (on `Err` the tool does not touch the file and tells the model why); `after_change` is called
/// once the file is written or removed, and an error there is only logged (the change has happened). Neither is
/// cancellable: each is a short local write.
pub trait FileHistory: Send + Sync + std::fmt::Debug {
    /// Keeps the content `path` has now (`None`: it does not exist) if this is its first change in the current
    /// prompt.
    fn before_change(
        &self,
        path: &Path,
        current: Option<(&[u8], &blake3::Hash)>,
    ) -> Result<(), HistoryError>;

    /// Records the content the session just left `path` with (`None`: removed).
    fn after_change(&self, path: &Path, new: Option<&blake3::Hash>) -> Result<(), HistoryError>;
}

/// Why a [`FileHistory`] could not keep a file's content.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct HistoryError(pub String);

/// Hears of every file a file tool of the session read or wrote.
///
/// Contract: [`FileTouchListener::touched`] is called after the file's state was recorded, possibly while the file
/// tools' write lock is held, so it must be quick and must not call back into the file state store. It cannot
/// fail: what it cannot do, it leaves undone.
pub trait FileTouchListener: Send + Sync + std::fmt::Debug {
    fn touched(&self, path: &Path);
}

/// The session's file read states, keyed by absolute normalised path. Shared by all calls of a session. It also
/// carries the session's file history (if any), its language servers (if any: they hear of every change), who else
/// hears of the files touched (nested skill folders are found this way) and the lock that makes the file tools'
/// critical sections (read, check, replace, write) exclusive within the session.
#[derive(Debug, Default)]
pub struct FileStateStore {
    states: Mutex<HashMap<PathBuf, FileReadState>>,
    write_lock: Mutex<()>,
    history: RwLock<Option<Arc<dyn FileHistory>>>,
    language_servers: RwLock<Option<Arc<dyn super::LanguageServers>>>,
    touch_listener: RwLock<Option<Arc<dyn FileTouchListener>>>,
}

impl FileStateStore {
    /// A store whose file changes are kept in `history`.
    pub fn with_history(history: Arc<dyn FileHistory>) -> Self {
        let store = Self::default();
        store.set_history(Some(history));
        store
    }

    /// Sets (or removes) the history file changes are kept in.
    pub fn set_history(&self, history: Option<Arc<dyn FileHistory>>) {
        let mut slot = match self.history.write() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        *slot = history;
    }

    /// The file history, if the session keeps one.
    pub fn history(&self) -> Option<Arc<dyn FileHistory>> {
        match self.history.read() {
            Ok(slot) => slot.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Sets (or removes) the language servers the file tools tell about their changes.
    pub fn set_language_servers(&self, servers: Option<Arc<dyn super::LanguageServers>>) {
        let mut slot = match self.language_servers.write() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        *slot = servers;
    }

    /// The language servers, if the session has them.
    pub fn language_servers(&self) -> Option<Arc<dyn super::LanguageServers>> {
        match self.language_servers.read() {
            Ok(slot) => slot.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Held by a file tool for its whole critical section (read, staleness check, replace, write, record), so that
    /// no two changes of the session interleave.
    pub fn write_guard(&self) -> MutexGuard<'_, ()> {
        match self.write_lock.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Sets who hears of every file touched (see [`FileTouchListener`]).
    pub fn set_touch_listener(&self, listener: Option<Arc<dyn FileTouchListener>>) {
        let mut slot = match self.touch_listener.write() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        *slot = listener;
    }

    /// Records the state of `path` as just read or written.
    pub fn record(&self, path: &Path, state: FileReadState) {
        if let Ok(mut states) = self.states.lock() {
            states.insert(path.to_path_buf(), state);
        }
        let listener = match self.touch_listener.read() {
            Ok(slot) => slot.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        if let Some(listener) = listener {
            listener.touched(path);
        }
    }

    /// The recorded state of `path`, if it was read in this session.
    pub fn get(&self, path: &Path) -> Option<FileReadState> {
        self.states.lock().ok().and_then(|s| s.get(path).cloned())
    }

    /// Forgets `path` (e.g. after a rewind).
    pub fn forget(&self, path: &Path) {
        if let Ok(mut states) = self.states.lock() {
            states.remove(path);
        }
    }
}

/// Receives progress text from a running call (shell output, status lines).
#[derive(Clone, Default)]
pub struct ProgressSink(Option<Arc<dyn Fn(String) + Send + Sync>>);

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl ProgressSink {
    /// A sink that calls `f` for every progress message.
    pub fn new(f: impl Fn(String) + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(f)))
    }

    /// Reports progress; a no-op when nobody listens.
    pub fn report(&self, text: impl Into<String>) {
        if let Some(f) = &self.0 {
            f(text.into());
        }
    }
}

/// Everything a tool call may use.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The working directory (the project folder unless a tool changed it).
    pub cwd: PathBuf,
    /// The project root plus additional working directories.
    pub working_dirs: Vec<PathBuf>,
    pub file_state: Arc<FileStateStore>,
    /// Fires when the call is cancelled (user interrupt or a sibling's failure).
    pub cancel: CancellationToken,
    pub progress: ProgressSink,
    /// The model's id of this call.
    pub tool_use_id: String,
    /// Runs sub-agents for the Agent tool (`None` where there is no session loop, e.g. one-shot calls).
    pub sub_agents: Option<Arc<dyn super::SubAgentRunner>>,
    /// Runs single model completions (WebFetch's answer from a page); `None` where there is no session model.
    pub completer: Option<Arc<dyn super::ModelCompleter>>,
    /// Whether a deny rule forbids reading a path, for tools that read many files the permission check did not see
    /// one by one (a search skips them). `None`: no rule denies reading anything.
    pub read_denied: Option<ReadDenied>,
    /// The person, for calls that ask them something themselves (plan approval, questions); `None` where nobody
    /// is attached (one-shot calls).
    pub person: Option<super::PersonDoor>,
    /// The permission mode in force when the call started (plan mode tools check it).
    pub mode: tandem_protocol::PermissionMode,
    /// The shell sandbox settings in force when the call started.
    pub sandbox: Arc<super::SandboxConfig>,
    /// Where the sandbox's refusals are reported.
    pub violations: super::ViolationSink,
    /// The calling agent's place in its teams (`None`: teams are off).
    pub team: Option<super::TeamSeat>,
    /// The calling agent's mailbox (messages and background results wake Sleep); `None` where there is none.
    pub mailbox: Option<Arc<super::Mailbox>>,
    /// The conversation as CtxInspect and Snip see it (the session's own agent, with either switched on).
    pub conversation: Option<Arc<super::ConversationLedger>>,
    /// Runs the calls a tool makes of other tools through the whole pipeline (the REPL tool's); `None` where
    /// there is no pipeline above the call.
    pub inner_calls: Option<Arc<dyn super::InnerCalls>>,
    /// Whether anything reads the result's data ([`super::ToolOutput::structured`]): PostToolUse hooks on this
    /// tool. A tool whose data is costly (a whole file's text) leaves it out when not.
    pub result_data_wanted: bool,
}

/// Answers whether a deny rule forbids reading a path (absolute). Built above the tool layer from the rules in force.
#[derive(Clone)]
pub struct ReadDenied(Arc<dyn Fn(&Path) -> bool + Send + Sync>);

impl ReadDenied {
    pub fn new(denies: impl Fn(&Path) -> bool + Send + Sync + 'static) -> Self {
        Self(Arc::new(denies))
    }

    /// Whether reading `path` is denied.
    pub fn denies(&self, path: &Path) -> bool {
        (self.0)(path)
    }
}

impl std::fmt::Debug for ReadDenied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadDenied")
    }
}

impl ToolContext {
    /// A context for `cwd` with fresh state; used by tests and one-shot command-line calls.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        let cwd = cwd.into();
        Self {
            working_dirs: vec![cwd.clone()],
            cwd,
            file_state: Arc::new(FileStateStore::default()),
            cancel: CancellationToken::new(),
            progress: ProgressSink::default(),
            tool_use_id: String::new(),
            sub_agents: None,
            completer: None,
            read_denied: None,
            person: None,
            mode: tandem_protocol::PermissionMode::Default,
            sandbox: Arc::default(),
            violations: super::ViolationSink::default(),
            team: None,
            mailbox: None,
            conversation: None,
            inner_calls: None,
            result_data_wanted: true,
        }
    }

    /// Resolves a path the model gave against the working directory (`~` expands to the home directory).
    pub fn resolve(&self, path: &str) -> PathBuf {
        crate::fsutil::resolve_path(path, &self.cwd, dirs::home_dir().as_deref())
    }
}
