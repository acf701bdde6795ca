//! Tool names of MCP servers: `mcp__<server>__<tool>`, each part with the characters outside `[A-Za-z0-9_-]`
//! replaced by `_`, so that the name fits the model's tool-name rules and permission rules can match it.

/// The part of a name as the model sees it.
pub fn normalize(part: &str) -> String {
    part.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The full tool name of `tool` on `server`.
pub fn tool_name(server: &str, tool: &str) -> String {
    format!("mcp__{}__{}", normalize(server), normalize(tool))
}

/// The prefix every tool of `server` shares (`mcp__<server>__`).
pub fn server_prefix(server: &str) -> String {
    format!("mcp__{}__", normalize(server))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised() {
        assert_eq!(
            tool_name("github", "create_issue"),
            "mcp__github__create_issue"
        );
        assert_eq!(tool_name("my.server", "do it!"), "mcp__my_server__do_it_");
        assert_eq!(tool_name("a-b", "x/y:z"), "mcp__a-b__x_y_z");
        assert_eq!(tool_name("ünï", "t"), "mcp___n___t");
        assert_eq!(server_prefix("s p"), "mcp__s_p__");
    }
}
