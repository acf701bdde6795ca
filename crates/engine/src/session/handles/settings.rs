//! The settings and trust handle: the folder's trust, the command line's settings source, hook changes the person
//! reviewed and the sandbox's one-click allowances; and the session's settings state it works on (where settings
//! come from, hooks waiting for review, the watcher of the settings files).

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::exec::ToolRuntime;
use crate::mcp::{ApprovalStore, McpManager};
use crate::permission::{CliSettings, PermissionLoader, SettingsWatcher};
use crate::settings::HookSet;

/// Where a session's settings come from, with what waits for the person's review.
pub(in crate::session) struct SettingsState {
    /// Where settings come from; shared with the watcher (trusting the folder changes it).
    loader: Arc<Mutex<PermissionLoader>>,
    /// Hooks changed on disk, waiting for the person's review.
    pending_hooks: Arc<Mutex<Option<HookSet>>>,
    /// Re-reads the settings files when they change (`None`: not watched).
    _watcher: Option<SettingsWatcher>,
}

impl SettingsState {
    /// The state for `loader`; with `watch`, the settings files are watched and changes reach `runtime`.
    pub(in crate::session) fn new(
        loader: PermissionLoader,
        runtime: &ToolRuntime,
        watch: bool,
    ) -> Self {
        let loader = Arc::new(Mutex::new(loader));
        let pending_hooks = Arc::new(Mutex::new(None));
        let watcher = if watch {
            watch_settings(&loader, runtime, &pending_hooks)
        } else {
            None
        };
        Self {
            loader,
            pending_hooks,
            _watcher: watcher,
        }
    }

    /// A copy of how settings are loaded now.
    pub(in crate::session) fn loader(&self) -> PermissionLoader {
        match self.loader.lock() {
            Ok(l) => l.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Changes how settings are loaded, then reloads them into `runtime` (rules apply at once; the hook snapshot is
    /// replaced too, since the person asked for the change).
    fn change_loader(&self, runtime: &ToolRuntime, change: impl FnOnce(&mut PermissionLoader)) {
        let loader = {
            let mut shared = match self.loader.lock() {
                Ok(l) => l,
                Err(p) => p.into_inner(),
            };
            change(&mut shared);
            shared.clone()
        };
        reload_with(runtime, &loader);
    }

    /// Reloads the settings as they are on disk now into `runtime`, taking new hooks as well.
    pub(in crate::session) fn reload(&self, runtime: &ToolRuntime) {
        reload_with(runtime, &self.loader());
    }
}

/// Reloads the settings with `loader` into `runtime`, taking new hooks as well.
fn reload_with(runtime: &ToolRuntime, loader: &PermissionLoader) {
    runtime.update_permission_context(|current| {
        let reloaded = loader.reload(current);
        let hooks = reloaded
            .changed_hooks
            .unwrap_or_else(|| (*current.hooks).clone());
        reloaded.context.with_hooks(hooks)
    });
}

/// What a caller holds to read and change a session's settings and the folder's trust.
#[derive(Clone, Copy)]
pub struct SettingsHandle<'a> {
    pub(in crate::session) cwd: &'a Path,
    pub(in crate::session) state: &'a SettingsState,
    pub(in crate::session) runtime: &'a ToolRuntime,
    pub(in crate::session) mcp: &'a McpManager,
}

impl SettingsHandle<'_> {
    /// The folder's installed plugins, each on or off as the settings on disk now say.
    pub fn plugins(&self) -> crate::plugins::PluginSet {
        self.state.loader().plugins()
    }

    /// Whether the folder is trusted and what trusting it enables.
    pub fn folder_trust(&self) -> tandem_protocol::FolderTrust {
        self.state.loader().folder_trust()
    }

    /// Records that the person trusts this folder and applies its project allow rules, directories and hooks; the
    /// project's MCP servers that waited for approval (the trust question lists them) are approved and start.
    pub fn trust_folder(&self) -> std::io::Result<()> {
        let loader = self.state.loader();
        if let Some(store) = &loader.trust {
            store.trust(self.cwd)?;
        }
        reload_with(self.runtime, &loader);
        self.mcp.approve_waiting(&ApprovalStore::standard())?;
        Ok(())
    }

    /// Withdraws the person's trust in this folder: its project allow rules, directories and hooks stop applying.
    pub fn revoke_trust(&self) -> std::io::Result<()> {
        let loader = self.state.loader();
        if let Some(store) = &loader.trust {
            store.revoke(self.cwd)?;
        }
        reload_with(self.runtime, &loader);
        Ok(())
    }

    /// Applies command-line flags (`--allowedTools`, `--disallowedTools`, `--add-dir`) as the `cliArg` settings
    /// source, keeping them for later reloads.
    pub fn apply_command_line_flags(&self, flags: CliSettings) {
        self.state
            .change_loader(self.runtime, |loader| loader.cli = flags);
    }

    /// Treats the folder as trusted for this session only, without recording it (command-line runs).
    pub fn assume_trusted(&self) {
        self.state
            .change_loader(self.runtime, |loader| loader.trust = None);
    }

    /// Applies hook changes the person has reviewed (see the notice sent when they changed on disk).
    pub fn accept_hook_changes(&self) {
        let pending = self
            .state
            .pending_hooks
            .lock()
            .ok()
            .and_then(|mut p| p.take());
        if let Some(hooks) = pending {
            self.runtime
                .update_permission_context(|current| current.with_hooks(hooks));
        }
    }

    /// The one-click answer to something the shell sandbox refused: adds the host to
    /// `sandbox.network.allowedDomains` or the folder to `sandbox.filesystem.allowWrite` of the project's local
    /// settings and applies the settings at once. Returns what was added.
    pub fn allow_sandbox_violation(
        &self,
        violation: &tandem_protocol::SandboxViolation,
    ) -> Result<crate::sandbox::SandboxAllowance, crate::permission::SaveError> {
        let file = self
            .runtime
            .permission_context()
            .local_settings_file
            .clone();
        let added = crate::sandbox::allow_sandbox_violation(&file, violation)?;
        self.state.reload(self.runtime);
        Ok(added)
    }
}

/// Watches the settings files: new rules apply from the next call; changed hooks wait for review.
fn watch_settings(
    loader: &Arc<Mutex<PermissionLoader>>,
    runtime: &ToolRuntime,
    pending: &Arc<Mutex<Option<HookSet>>>,
) -> Option<SettingsWatcher> {
    let loader = loader.clone();
    let files = match loader.lock() {
        Ok(l) => l.paths.all(),
        Err(p) => p.into_inner().paths.all(),
    };
    let runtime = runtime.clone();
    let pending = pending.clone();
    SettingsWatcher::start(files, move || {
        let loader = match loader.lock() {
            Ok(l) => l.clone(),
            Err(p) => p.into_inner().clone(),
        };
        // Re-read under the context's lock, so that a rule granted or a mode chosen meanwhile is kept.
        let mut changed_hooks = None;
        let mut unreadable = None;
        runtime.update_permission_context(|current| {
            let reloaded = loader.reload(current);
            changed_hooks = reloaded.changed_hooks;
            // A file fixed, broken, or changed since the person accepted running without it: the window's notice
            // is told the files as they are now.
            let after = reloaded.context.unreadable_files();
            unreadable =
                (!current.unreadable_settings.is_empty() || !after.is_empty()).then_some(after);
            reloaded.context
        });
        let events = &runtime.events;
        if let Some(files) = unreadable {
            events.emit(tandem_protocol::SessionEvent::UnreadableSettings { files });
        }
        if let Some(hooks) = changed_hooks {
            if let Ok(mut p) = pending.lock() {
                *p = Some(hooks);
            }
            events.emit(tandem_protocol::SessionEvent::Notice {
                message:
                    "The hooks in the settings files changed. Review them to apply the change."
                        .into(),
            });
        }
    })
    .ok()
}
