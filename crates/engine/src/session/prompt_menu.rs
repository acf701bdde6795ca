//! What the prompt box offers and how a custom command becomes the turn's prompt: the listing of every slash
//! command with its source, the completions of an `@` mention, and the expansion of `/name args` for a custom
//! command (granting its `allowed-tools` for the turn where that is safe, and answering with the model it names).

use tandem_protocol::{MentionCompletion, MentionKind, SlashCommand, SlashCommandSource};

use super::{Session, custom_commands, slash};

impl Session {
    /// Every slash command the person may send, with where it comes from: the engine's own (`/compact`,
    /// `/model`), the custom commands, the skills, then the prompts of the ready MCP servers
    /// (`mcp__server__prompt`). A custom command or skill named like an engine command is listed but never runs.
    pub fn slash_commands(&self) -> Vec<SlashCommand> {
        let mut commands = slash::builtin_commands();
        commands.extend(
            self.catalogs
                .commands
                .commands
                .iter()
                .map(|c| SlashCommand {
                    name: c.name.clone(),
                    description: c.description.clone(),
                    argument_hint: c.argument_hint.clone(),
                    source: c.source,
                }),
        );
        commands.extend(
            self.skills()
                .into_iter()
                .map(|(name, description)| SlashCommand {
                    name,
                    description,
                    argument_hint: None,
                    source: SlashCommandSource::Skill,
                }),
        );
        commands.extend(self.mcp.prompts().into_iter().map(|p| SlashCommand {
            name: p.command.clone(),
            description: p.summary(),
            argument_hint: None,
            source: SlashCommandSource::McpPrompt,
        }));
        commands
    }

    /// What an `@query` in the prompt box may complete to: the folder's files that match (`.gitignore` respected,
    /// at most `limit`), then `server:` for each MCP server whose name starts with the query. Blocking: lists the
    /// folder when its listing is stale.
    pub fn complete_mention(&self, query: &str, limit: usize) -> Vec<MentionCompletion> {
        let mut found: Vec<MentionCompletion> = self
            .catalogs
            .file_index
            .complete(query, limit)
            .into_iter()
            .map(|path| MentionCompletion {
                text: if path.contains(char::is_whitespace) {
                    format!("\"{path}\"")
                } else {
                    path
                },
                kind: MentionKind::File,
                detail: None,
            })
            .collect();
        let servers = self
            .mcp
            .statuses()
            .into_iter()
            .filter(|s| s.state == tandem_protocol::McpServerState::Ready)
            .filter(|s| !query.is_empty() && s.name.starts_with(query));
        found.extend(servers.map(|s| MentionCompletion {
            text: format!("{}:", s.name),
            kind: MentionKind::Resource,
            detail: Some(format!("a resource of MCP server {}", s.name)),
        }));
        found
    }

    /// For a prompt `/name args` naming a custom command: the prompt the model is given instead (the command's
    /// text with the arguments put in) and the model its frontmatter names, if any. Its `allowed-tools` are
    /// allowed for this turn only — a project command's only in a trusted folder, since project rules need trust;
    /// otherwise a notice says they were ignored. `None` for any other prompt.
    pub(super) fn expand_custom_command(&self, prompt: &str) -> Option<CommandTurn> {
        let (command, args) = self.catalogs.commands.invoked(prompt)?;
        if !command.allowed_tools.is_empty() {
            let ctx = self.runtime.permission_context();
            if command.waits_for_trust && !ctx.trusted {
                self.runtime
                    .events
                    .emit(tandem_protocol::SessionEvent::Notice {
                        message: format!(
                            "/{}: its allowed-tools ({}) were ignored: this folder is not trusted; the tools ask as usual.",
                            command.name,
                            command.allowed_tools.join(", ")
                        ),
                    });
            } else {
                self.turn.skill_grants.record(&command.allowed_tools);
                self.runtime
                    .set_permission_context(ctx.with_session_rules(&command.allowed_tools));
            }
        }
        Some(CommandTurn {
            text: custom_commands::invocation_text(command, args),
            model: command.model.clone(),
        })
    }
}

/// What a custom command makes of a turn.
pub(super) struct CommandTurn {
    /// The prompt the model is given.
    pub text: String,
    /// The model its frontmatter names, for this turn only.
    pub model: Option<String>,
}
