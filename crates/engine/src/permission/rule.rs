//! Rule text: parsing `Tool` / `Tool(specifier)` into what it matches, and the checks that make a rule invalid
//! (docs/permissions.md §2).

use super::bash_pattern::BashPattern;
pub use crate::settings::{RuleBehavior, RuleSource};
use crate::tool::names;

/// Which tools a rule names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolPattern {
    /// One tool.
    Exact(String),
    /// `mcp__server`: every tool of that server.
    Server(String),
    /// A name with `*` wildcards.
    Glob(String),
}

impl ToolPattern {
    /// Whether the pattern covers the tool called `name`.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Self::Exact(n) => n == name,
            Self::Server(s) => {
                name == s || (name.starts_with(s.as_str()) && name[s.len()..].starts_with("__"))
            }
            // A tool-name wildcard written for an older name still covers the tool (`Kill*` covers TaskStop).
            Self::Glob(g) => wildcard(g, name) || older_names(name).any(|old| wildcard(g, old)),
        }
    }
}

/// What a rule's specifier matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Specifier {
    /// The whole tool (no specifier, `()` or `(*)`).
    Any,
    /// A shell command pattern.
    Bash(BashPattern),
    /// A gitignore-style path pattern, as written.
    Path(String),
    /// A WebFetch host pattern (lower case, no trailing dot).
    Domain(String),
    /// `field:value` on one top-level scalar input field.
    Param { field: String, value: String },
    /// A sub-agent type (`Agent(Explore)`) or a skill name.
    Name(String),
}

/// A valid rule from one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The text as written.
    pub text: String,
    pub behavior: RuleBehavior,
    pub source: RuleSource,
    pub tool: ToolPattern,
    pub spec: Specifier,
    /// Why the rule cannot be compiled (its path pattern does not compile, or cannot be anchored). A deny or ask
    /// rule is kept anyway: what it might cover asks, naming it. An allow rule like this approves nothing.
    pub broken: Option<String>,
}

/// Tools that read paths (`Read(...)` rules govern them all).
pub const READ_TOOLS: &[&str] = &[
    names::READ,
    names::GLOB,
    names::GREP,
    names::NOTEBOOK_READ,
    names::LS,
];
/// Tools that write paths (`Edit(...)` rules govern them all).
pub const WRITE_TOOLS: &[&str] = &[
    names::EDIT,
    names::WRITE,
    names::NOTEBOOK_EDIT,
    names::MULTI_EDIT,
];

/// Built-in tool names a rule may name, with their older aliases.
const KNOWN_TOOLS: &[&str] = &[
    names::AGENT,
    names::BASH,
    names::BASH_OUTPUT,
    names::TASK_OUTPUT,
    names::KILL_SHELL,
    names::READ,
    names::WRITE,
    names::EDIT,
    names::MULTI_EDIT,
    names::NOTEBOOK_EDIT,
    names::NOTEBOOK_READ,
    names::GLOB,
    names::GREP,
    names::LS,
    names::WEB_FETCH,
    names::WEB_SEARCH,
    names::TODO_WRITE,
    names::ASK_USER_QUESTION,
    names::EXIT_PLAN_MODE,
    names::ENTER_PLAN_MODE,
    names::SKILL,
    names::SLASH_COMMAND,
    names::TOOL_SEARCH,
    names::LIST_MCP_RESOURCES,
    names::READ_MCP_RESOURCE,
    names::MCP_AUTH,
    names::ENTER_WORKTREE,
    names::EXIT_WORKTREE,
    names::TASK_CREATE,
    names::TASK_GET,
    names::TASK_UPDATE,
    names::TASK_LIST,
    names::TASK_STOP,
    names::SEND_MESSAGE,
    names::LSP,
    names::CONFIG,
    names::SLEEP,
    names::BRIEF,
    names::STRUCTURED_OUTPUT,
    names::TEAM_CREATE,
    names::TEAM_DELETE,
    names::LIST_PEERS,
    names::CRON_CREATE,
    names::CRON_DELETE,
    names::CRON_LIST,
    names::VERIFY_PLAN_EXECUTION,
    names::TUNGSTEN,
    names::CTX_INSPECT,
    names::SNIP,
    names::MONITOR,
    names::OVERFLOW_TEST,
    names::REPL,
    names::SEND_USER_FILE,
    names::PUSH_NOTIFICATION,
    names::POWERSHELL,
    names::WEB_BROWSER,
    names::SUBSCRIBE_PR,
    names::SUGGEST_BACKGROUND_PR,
    names::REMOTE_TRIGGER,
    names::TERMINAL_CAPTURE,
    names::WORKFLOW,
];

/// Tools renamed since rules were first written: `(older name, current name)`. A rule written with the older name
/// covers the tool under its current name (the seed's lookup by name or alias).
const RENAMED: &[(&str, &str)] = &[
    (names::TASK, names::AGENT),
    (names::KILL_SHELL, names::TASK_STOP),
    (names::KILL_BASH, names::TASK_STOP),
    (names::BASH_OUTPUT, names::TASK_OUTPUT),
];

/// The current name of a tool called by an older name.
pub fn canonical_tool_name(name: &str) -> &str {
    RENAMED
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, new)| new)
}

/// The older names of the tool currently called `name`.
fn older_names(name: &str) -> impl Iterator<Item = &'static str> + '_ {
    RENAMED
        .iter()
        .filter(move |(_, new)| *new == name)
        .map(|(old, _)| *old)
}

/// Whether `name` is a built-in tool name (or an alias of one).
pub fn is_known_tool(name: &str) -> bool {
    KNOWN_TOOLS.contains(&canonical_tool_name(name))
}

/// Input fields that carry a tool's primary content: parameter rules may not name them.
const PRIMARY_FIELDS: &[&str] = &["command", "file_path", "path", "notebook_path", "url"];

/// Input fields per tool that a `field:value` specifier names (other text is a content pattern).
fn known_fields(tool: &str) -> Option<&'static [&'static str]> {
    Some(match tool {
        names::BASH => &[
            "command",
            "description",
            "run_in_background",
            "dangerouslyDisableSandbox",
        ],
        names::READ | names::NOTEBOOK_READ => {
            &["file_path", "notebook_path", "offset", "limit", "pages"]
        }
        names::EDIT | names::MULTI_EDIT => &[
            "file_path",
            "old_string",
            "new_string",
            "replace_all",
            "edits",
        ],
        names::WRITE => &["file_path", "content"],
        names::NOTEBOOK_EDIT => &[
            "notebook_path",
            "cell_id",
            "new_source",
            "cell_type",
            "edit_mode",
        ],
        names::GLOB | names::LS => &["pattern", "path"],
        names::GREP => &[
            "pattern",
            "path",
            "glob",
            "type",
            "output_mode",
            "multiline",
            "head_limit",
            "-i",
            "-n",
        ],
        names::AGENT => &[
            "model",
            "isolation",
            "subagent_type",
            "run_in_background",
            "name",
            "description",
            "prompt",
            "mode",
            "cwd",
            "team_name",
        ],
        names::SKILL => &["skill", "args"],
        // `domain:HOST` is a domain rule; these name the browser's other fields (`WebBrowser(action:click)`).
        names::WEB_BROWSER => &["action", "selector", "text", "submit"],
        _ => return None,
    })
}

fn param_split(spec: &str) -> Option<(&str, &str)> {
    let (field, value) = spec.split_once(':')?;
    let mut chars = field.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_' || first == '-')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    .then_some((field, value))
}

/// Matches `text` against a pattern where `*` is any text (possibly empty) and everything else is literal.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('*').collect();
    if pieces.len() == 1 {
        return pattern == text;
    }
    let first = pieces[0];
    let last = pieces[pieces.len() - 1];
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Splits `Tool(specifier)` into the tool and the unescaped specifier.
fn split_rule(text: &str) -> Result<(&str, Option<String>), String> {
    let text = text.trim();
    let Some(open) = text.find('(') else {
        if text.contains(')') {
            return Err("unbalanced parenthesis".into());
        }
        return Ok((text, None));
    };
    if !text.ends_with(')') {
        return Err("a rule with a specifier must end with `)`".into());
    }
    let tool = text[..open].trim();
    let inner = &text[open + 1..text.len() - 1];
    // `\(` and `\)` are literal parentheses inside the specifier.
    let spec = inner.replace("\\(", "(").replace("\\)", ")");
    Ok((tool, Some(spec)))
}

fn tool_pattern(tool: &str, behavior: RuleBehavior) -> Result<ToolPattern, String> {
    if tool.is_empty() {
        return Err("the rule names no tool".into());
    }
    if tool
        .chars()
        .any(|c| c.is_whitespace() || c == '(' || c == ')')
    {
        return Err(format!("`{tool}` is not a tool name"));
    }
    if tool.contains('*') {
        if behavior == RuleBehavior::Allow {
            let prefix = tool.split('*').next().unwrap_or("");
            let anchored = prefix
                .strip_prefix("mcp__")
                .and_then(|rest| rest.find("__").map(|at| at > 0))
                .unwrap_or(false);
            if !anchored {
                return Err(format!(
                    "the allow rule `{tool}` uses a tool-name wildcard; allow rules may only use one after a literal \
                     `mcp__<server>__` prefix, so it approves nothing"
                ));
            }
        }
        return Ok(ToolPattern::Glob(tool.to_string()));
    }
    if let Some(rest) = tool.strip_prefix("mcp__") {
        if rest.is_empty() {
            return Err("`mcp__` names no server".into());
        }
        if !rest.contains("__") {
            return Ok(ToolPattern::Server(tool.to_string()));
        }
        return Ok(ToolPattern::Exact(tool.to_string()));
    }
    Ok(ToolPattern::Exact(canonical_tool_name(tool).to_string()))
}

/// The tools a rule that does not parse was meant for, as far as its text tells: the name before its `(` when that
/// is a tool name; `None` when even that cannot be read (the rule could be meant for any tool).
pub fn named_tool(text: &str) -> Option<ToolPattern> {
    let text = text.trim();
    let name = text.split(['(', ')']).next().unwrap_or(text);
    // Read as a deny rule's: a tool-name wildcard then names the tools it covers.
    tool_pattern(name.trim(), RuleBehavior::Deny).ok()
}

/// A parse result: the rule's tool and specifier, and a warning that does not make it invalid.
#[derive(Debug, Clone)]
pub struct ParsedRule {
    pub tool: ToolPattern,
    pub spec: Specifier,
    pub warning: Option<String>,
}

/// Parses one rule of the `behavior` list. `Err` explains why the rule is invalid.
pub fn parse_rule(text: &str, behavior: RuleBehavior) -> Result<ParsedRule, String> {
    let (tool_text, spec) = split_rule(text)?;
    let tool = tool_pattern(tool_text, behavior)?;
    let name = match &tool {
        ToolPattern::Exact(n) => n.as_str(),
        _ => "",
    };
    let warning = (matches!(tool, ToolPattern::Exact(_))
        && !name.starts_with("mcp__")
        && !is_known_tool(name))
    .then(|| format!("`{tool_text}` is not a known tool"));
    let Some(spec) = spec.map(|s| s.trim().to_string()) else {
        return Ok(ParsedRule {
            tool,
            spec: Specifier::Any,
            warning,
        });
    };
    if spec.is_empty() || spec == "*" {
        return Ok(ParsedRule {
            tool,
            spec: Specifier::Any,
            warning,
        });
    }
    let fields = known_fields(name);
    let param = param_split(&spec).filter(|(field, _)| match fields {
        Some(list) => list.contains(field),
        None => !matches!(name, names::WEB_FETCH),
    });
    let spec = if let Some((field, value)) = param {
        if PRIMARY_FIELDS.contains(&field) {
            return Err(format!(
                "`{field}` is the primary content of {tool_text} and cannot be parameter-matched"
            ));
        }
        if behavior == RuleBehavior::Allow {
            return Err(format!(
                "parameter rules (`{field}:{value}`) are valid in deny and ask lists only"
            ));
        }
        Specifier::Param {
            field: field.to_string(),
            value: value.trim().to_string(),
        }
    } else {
        match name {
            names::BASH => Specifier::Bash(BashPattern::parse(&spec)),
            names::WEB_FETCH | names::WEB_BROWSER => match spec.strip_prefix("domain:") {
                Some(host) if !host.trim().is_empty() => {
                    Specifier::Domain(host.trim().trim_end_matches('.').to_ascii_lowercase())
                }
                _ => {
                    return Err(format!("{name} rules take `domain:HOST`, not `{spec}`"));
                }
            },
            names::AGENT | names::SKILL => Specifier::Name(spec.trim_end_matches(":*").to_string()),
            n if READ_TOOLS.contains(&n) || WRITE_TOOLS.contains(&n) => {
                Specifier::Path(spec.clone())
            }
            _ => {
                return Err(format!(
                    "`{tool_text}` takes no specifier other than `field:value` parameter rules"
                ));
            }
        }
    };
    if behavior == RuleBehavior::Allow
        && let Specifier::Path(p) = &spec
        && p.starts_with("\\\\")
    {
        return Err("a UNC path cannot be allowed".into());
    }
    Ok(ParsedRule {
        tool,
        spec,
        warning,
    })
}
