//! The engine's own slash commands (`/compact [instructions]`, `/model [name]`): recognised in a prompt before
//! anything else, and listed with the others for the `/` menu.

use tandem_protocol::{SlashCommand, SlashCommandSource};

/// One of the engine's own commands, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin<'a> {
    /// `/compact [instructions]`.
    Compact { instructions: &'a str },
    /// `/model [name]`: show the model and the choices, or switch to `name`.
    Model { name: Option<&'a str> },
}

/// The engine command a prompt is, if it is one (`/compact`, `/model`, with or without arguments).
pub fn builtin(prompt: &str) -> Option<Builtin<'_>> {
    let rest = prompt.trim().strip_prefix('/')?;
    let (name, args) = rest
        .split_once(char::is_whitespace)
        .map_or((rest, ""), |(n, a)| (n, a.trim()));
    match name {
        "compact" => Some(Builtin::Compact { instructions: args }),
        "model" => Some(Builtin::Model {
            name: Some(args).filter(|a| !a.is_empty()),
        }),
        _ => None,
    }
}

/// The engine's own commands, for the `/` menu.
pub fn builtin_commands() -> Vec<SlashCommand> {
    let command = |name: &str, description: &str, hint: &str| SlashCommand {
        name: name.into(),
        description: description.into(),
        argument_hint: Some(hint.into()),
        source: SlashCommandSource::Builtin,
    };
    vec![
        command(
            "compact",
            "Summarise the conversation now to free context",
            "[what the summary should focus on]",
        ),
        command(
            "model",
            "Show the model and the choices, or switch this session's model",
            "[name]",
        ),
    ]
}

/// Model names offered for an Anthropic endpoint (any other name the endpoint serves works too).
pub const ANTHROPIC_MODELS: &[&str] = &["claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands_are_recognised() {
        let table: &[(&str, Option<Builtin>)] = &[
            ("/compact", Some(Builtin::Compact { instructions: "" })),
            (
                " /compact  keep the API notes ",
                Some(Builtin::Compact {
                    instructions: "keep the API notes",
                }),
            ),
            ("/model", Some(Builtin::Model { name: None })),
            (
                "/model claude-haiku-4-5",
                Some(Builtin::Model {
                    name: Some("claude-haiku-4-5"),
                }),
            ),
            ("/compaction", None),
            ("compact", None),
            ("/models x", None),
        ];
        for (prompt, want) in table {
            assert_eq!(builtin(prompt), *want, "{prompt}");
        }
    }
}
