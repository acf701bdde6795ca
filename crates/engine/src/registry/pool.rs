//! The tool pool: filtering, the cache-stable order, and lookup by name or alias.

use std::sync::Arc;

use crate::mcp::McpTools;
use crate::model::ToolSpec;
use crate::tool::DynTool;

/// A set of tools, in the order they are offered to the model.
#[derive(Clone, Default)]
pub struct ToolPool {
    tools: Vec<Arc<dyn DynTool>>,
    /// MCP tools that come and go while the session runs (servers starting, restarting, changing their lists),
    /// read on every lookup: after the fixed tools, sorted, a name already taken left out.
    live: Option<McpTools>,
    /// Tools kept for the calls other tools make (the primitives the REPL mode hides): never offered to the model
    /// nor found for its own calls.
    inner: Vec<Arc<dyn DynTool>>,
}

impl std::fmt::Debug for ToolPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.tools.iter().map(|t| t.name()))
            .finish()
    }
}

impl ToolPool {
    /// Built-in tools sorted by name as a prefix, then MCP tools sorted by name; a name already taken (by a
    /// built-in, or an earlier MCP tool) is dropped. Disabled tools and tools `hidden` names are left out.
    pub fn assemble(
        builtins: &[Arc<dyn DynTool>],
        mcp: &[Arc<dyn DynTool>],
        hidden: impl Fn(&str) -> bool,
    ) -> Self {
        let keep = |t: &&Arc<dyn DynTool>| t.is_enabled() && !hidden(t.name());
        let mut builtin: Vec<_> = builtins.iter().filter(keep).cloned().collect();
        builtin.sort_by(|a, b| a.name().cmp(b.name()));
        let mut remote: Vec<_> = mcp.iter().filter(keep).cloned().collect();
        remote.sort_by(|a, b| a.name().cmp(b.name()));
        let mut tools: Vec<Arc<dyn DynTool>> = Vec::with_capacity(builtin.len() + remote.len());
        for tool in builtin.into_iter().chain(remote) {
            if !tools.iter().any(|t| t.name() == tool.name()) {
                tools.push(tool);
            }
        }
        Self {
            tools,
            live: None,
            inner: Vec::new(),
        }
    }

    /// Adds the live tools of the session's MCP servers.
    pub fn with_live_mcp(mut self, live: McpTools) -> Self {
        self.live = Some(live);
        self
    }

    /// Keeps `inner` for the calls other tools make (see [`Self::find_with_inner`]).
    pub fn with_inner(mut self, inner: Vec<Arc<dyn DynTool>>) -> Self {
        self.inner = inner;
        self
    }

    /// The tool called `name` for a call another tool makes: an offered one, or one kept for such calls only.
    pub fn find_with_inner(&self, name: &str) -> Option<Arc<dyn DynTool>> {
        self.find(name)
            .or_else(|| self.inner.iter().find(|t| t.name() == name).cloned())
    }

    /// The tool called `name`, by its name or one of its aliases.
    pub fn find(&self, name: &str) -> Option<Arc<dyn DynTool>> {
        let fixed = self
            .tools
            .iter()
            .find(|t| t.name() == name || t.aliases().contains(&name))
            .cloned();
        fixed.or_else(|| {
            let live = self.live.as_ref()?.snapshot();
            live.iter().find(|t| t.name() == name).cloned()
        })
    }

    /// The fixed tools in order (the live MCP tools are not included).
    pub fn tools(&self) -> &[Arc<dyn DynTool>] {
        &self.tools
    }

    /// Every tool in order: the fixed tools, then the live MCP tools whose names are free.
    pub fn all(&self) -> Vec<Arc<dyn DynTool>> {
        let mut all = self.tools.clone();
        if let Some(live) = &self.live {
            for tool in live.snapshot().iter() {
                if !self.tools.iter().any(|t| t.name() == tool.name()) {
                    all.push(tool.clone());
                }
            }
        }
        all
    }

    /// The tool list as sent to the model.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.all()
            .iter()
            .map(|t| ToolSpec {
                name: t.name().to_string(),
                description: t.description(),
                input_schema: t.input_schema().clone(),
                server: t.server_definition(),
                strict: t.strict(),
            })
            .collect()
    }
}
