//! Deferred tools (MCP tools and others that mark themselves so): when their definitions would take too much of
//! the context window, the model is sent only their names and loads the definitions it needs with ToolSearch.
//! [`DeferredTools`] is the state a session shares between its requests and its ToolSearch tool: which tools may
//! be deferred, whether deferral is on, and which tools were loaded.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use super::DynTool;

/// `ENABLE_TOOL_SEARCH`: when deferred tools are sent as names only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolSearchMode {
    /// When the deferred tools' definitions would take more than [`AUTO_THRESHOLD_PERCENT`] of the context window.
    Auto,
    /// Always (when there is a deferred tool).
    Always,
    /// Never: every definition is sent.
    Never,
}

/// The share of the context window deferred definitions may take before `auto` defers them.
pub const AUTO_THRESHOLD_PERCENT: u64 = 10;

impl ToolSearchMode {
    /// Reads `ENABLE_TOOL_SEARCH` (`auto`, `true`/`1`, `false`/`0`; anything else is `auto`).
    pub fn from_env(value: Option<&str>) -> Self {
        match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true" | "1" | "yes" | "on") => Self::Always,
            Some("false" | "0" | "no" | "off") => Self::Never,
            _ => Self::Auto,
        }
    }

    /// Whether tools whose definitions take `deferred_tokens` are deferred in a window of `context_window`.
    pub fn defers(self, deferred_tokens: u64, context_window: u64) -> bool {
        match self {
            Self::Never => false,
            Self::Always => deferred_tokens > 0,
            Self::Auto => deferred_tokens * 100 > context_window * AUTO_THRESHOLD_PERCENT,
        }
    }
}

/// The tokens a tool's definition takes, estimated (four characters a token).
pub fn definition_tokens(tool: &dyn DynTool) -> u64 {
    let chars =
        tool.name().len() + tool.description().len() + tool.input_schema().to_string().len();
    chars as u64 / 4
}

/// Whether `tool` is deferred when deferral is on.
pub fn is_deferrable(tool: &dyn DynTool) -> bool {
    tool.should_defer() && !tool.always_load()
}

/// The deferred tools of a session and which of them were loaded.
#[derive(Default)]
pub struct DeferredTools {
    /// How the last [`DeferredTools::configure`] decided, to decide again when the pool changes.
    settings: RwLock<Option<(ToolSearchMode, u64)>>,
    /// The names of the pool last configured (sorted), to notice tools arriving or leaving (MCP servers).
    pool_names: RwLock<Vec<String>>,
    active: AtomicBool,
    tools: RwLock<Vec<Arc<dyn DynTool>>>,
    loaded: RwLock<HashSet<String>>,
}

impl std::fmt::Debug for DeferredTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeferredTools")
            .field("active", &self.is_active())
            .field("pending", &self.pending_names())
            .finish()
    }
}

impl DeferredTools {
    /// Takes the deferrable tools among `pool` and decides, by `mode` and the size of their definitions in a
    /// window of `context_window` tokens, whether they are sent as names only.
    pub fn configure(&self, pool: &[Arc<dyn DynTool>], mode: ToolSearchMode, context_window: u64) {
        if let Ok(mut slot) = self.settings.write() {
            *slot = Some((mode, context_window));
        }
        if let Ok(mut names) = self.pool_names.write() {
            *names = sorted_names(pool);
        }
        let deferrable: Vec<Arc<dyn DynTool>> = pool
            .iter()
            .filter(|t| is_deferrable(t.as_ref()))
            .cloned()
            .collect();
        let tokens: u64 = deferrable
            .iter()
            .map(|t| definition_tokens(t.as_ref()))
            .sum();
        self.active
            .store(mode.defers(tokens, context_window), Ordering::SeqCst);
        match self.tools.write() {
            Ok(mut slot) => *slot = deferrable,
            Err(poisoned) => *poisoned.into_inner() = deferrable,
        }
    }

    /// Decides again, as the last [`DeferredTools::configure`] did, when the tools of `pool` are not the ones
    /// configured (an MCP server's tools arrived or left); loaded tools stay loaded. Cheap when nothing changed.
    pub fn follow(&self, pool: &[Arc<dyn DynTool>]) {
        let unchanged = self
            .pool_names
            .read()
            .map(|names| *names == sorted_names(pool))
            .unwrap_or(false);
        let settings = self.settings.read().ok().and_then(|s| *s);
        if let (false, Some((mode, window))) = (unchanged, settings) {
            self.configure(pool, mode, window);
        }
    }

    /// Whether deferred tools are sent as names only now.
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::SeqCst)
    }

    /// The deferred tools (whether loaded or not).
    pub fn tools(&self) -> Vec<Arc<dyn DynTool>> {
        match self.tools.read() {
            Ok(tools) => tools.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Whether the definition of `name` is withheld from the next request (deferred and not loaded).
    pub fn withholds(&self, name: &str) -> bool {
        self.is_active() && !self.is_loaded(name) && self.tools().iter().any(|t| t.name() == name)
    }

    pub fn is_loaded(&self, name: &str) -> bool {
        match self.loaded.read() {
            Ok(loaded) => loaded.contains(name),
            Err(poisoned) => poisoned.into_inner().contains(name),
        }
    }

    /// Marks `names` loaded: their definitions are sent from the next request on.
    pub fn load(&self, names: &[String]) {
        let mut loaded = match self.loaded.write() {
            Ok(loaded) => loaded,
            Err(poisoned) => poisoned.into_inner(),
        };
        loaded.extend(names.iter().cloned());
    }

    /// The names of the deferred tools not loaded yet, in pool order.
    pub fn pending_names(&self) -> Vec<String> {
        self.tools()
            .iter()
            .map(|t| t.name().to_string())
            .filter(|n| !self.is_loaded(n))
            .collect()
    }
}

fn sorted_names(pool: &[Arc<dyn DynTool>]) -> Vec<String> {
    let mut names: Vec<String> = pool.iter().map(|t| t.name().to_string()).collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_follows_the_environment_and_the_threshold() {
        assert_eq!(ToolSearchMode::from_env(None), ToolSearchMode::Auto);
        assert_eq!(
            ToolSearchMode::from_env(Some("TRUE")),
            ToolSearchMode::Always
        );
        assert_eq!(
            ToolSearchMode::from_env(Some("false")),
            ToolSearchMode::Never
        );
        assert_eq!(ToolSearchMode::from_env(Some("auto")), ToolSearchMode::Auto);
        assert!(
            !ToolSearchMode::Auto.defers(20_000, 200_000),
            "exactly 10% is not more"
        );
        assert!(ToolSearchMode::Auto.defers(20_001, 200_000));
        assert!(ToolSearchMode::Always.defers(1, 200_000));
        assert!(!ToolSearchMode::Always.defers(0, 200_000));
        assert!(!ToolSearchMode::Never.defers(1_000_000, 200_000));
    }
}
