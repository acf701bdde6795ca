//! Environment variables that carry a command, code or a file to write: what programs do with their value.
//! `PAGER=…`, `GIT_SSH_COMMAND=…` and the like are commands (analysed like any other); `LD_PRELOAD`, `BASH_ENV` and
//! interpreter start-up options load code that cannot be analysed; `GIT_TRACE=/path` and history files are written.
//! Read for leading assignments (`PAGER=x git log`), `export`/`declare`, and the assignments `env` and `sudo` take.

/// What a program does with a variable's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarRole {
    /// Shell text a program runs (`PAGER`, `GIT_SSH_COMMAND`, `PROMPT_COMMAND`).
    Script,
    /// A program (with arguments of its own, split on blanks) a program runs: `GIT_SSH`, `CC`, `RUSTC_WRAPPER`.
    Program,
    /// A file of code or a library loaded into the program (`LD_PRELOAD`, `BASH_ENV`, `PYTHONSTARTUP`).
    Code,
    /// Start-up options of an interpreter, code only when they load a module or evaluate text (`NODE_OPTIONS`).
    InterpreterOptions,
    /// A configuration file or folder programs read, and configuration can run commands (`GIT_CONFIG_GLOBAL`).
    Config,
    /// A file the program writes (`GIT_TRACE=/tmp/t`, `LESSHISTFILE`).
    Write,
    /// A trace destination: a file when the value is a path, standard error for `1`, `2`, `true`.
    Trace,
}

/// The variables, by exact name.
const VARIABLES: &[(&str, VarRole)] = &[
    ("PAGER", VarRole::Script),
    ("GIT_PAGER", VarRole::Script),
    ("MANPAGER", VarRole::Script),
    ("SYSTEMD_PAGER", VarRole::Script),
    ("PSQL_PAGER", VarRole::Script),
    ("BAT_PAGER", VarRole::Script),
    ("DELTA_PAGER", VarRole::Script),
    ("EDITOR", VarRole::Script),
    ("VISUAL", VarRole::Script),
    ("GIT_EDITOR", VarRole::Script),
    ("GIT_SEQUENCE_EDITOR", VarRole::Script),
    ("SUDO_EDITOR", VarRole::Script),
    ("FCEDIT", VarRole::Script),
    ("GIT_SSH_COMMAND", VarRole::Script),
    ("GIT_EXTERNAL_DIFF", VarRole::Script),
    ("GIT_PROXY_COMMAND", VarRole::Script),
    ("PROMPT_COMMAND", VarRole::Script),
    ("LESSOPEN", VarRole::Script),
    ("LESSCLOSE", VarRole::Script),
    ("BROWSER", VarRole::Script),
    ("GIT_SSH", VarRole::Program),
    ("GIT_ASKPASS", VarRole::Program),
    ("SSH_ASKPASS", VarRole::Program),
    ("SUDO_ASKPASS", VarRole::Program),
    ("SHELL", VarRole::Program),
    ("CC", VarRole::Program),
    ("CXX", VarRole::Program),
    ("CPP", VarRole::Program),
    ("LD", VarRole::Program),
    ("AR", VarRole::Program),
    ("AS", VarRole::Program),
    ("FC", VarRole::Program),
    ("MAKE", VarRole::Program),
    ("RUSTC", VarRole::Program),
    ("RUSTDOC", VarRole::Program),
    ("RUSTC_WRAPPER", VarRole::Program),
    ("RUSTC_WORKSPACE_WRAPPER", VarRole::Program),
    ("CARGO_BUILD_RUSTC_WRAPPER", VarRole::Program),
    ("CCACHE_PREFIX", VarRole::Program),
    ("LD_PRELOAD", VarRole::Code),
    ("LD_AUDIT", VarRole::Code),
    ("LD_LIBRARY_PATH", VarRole::Code),
    ("DYLD_INSERT_LIBRARIES", VarRole::Code),
    ("DYLD_LIBRARY_PATH", VarRole::Code),
    ("BASH_ENV", VarRole::Code),
    ("ENV", VarRole::Code),
    ("PYTHONSTARTUP", VarRole::Code),
    ("PYTHONBREAKPOINT", VarRole::Code),
    ("PERL5DB", VarRole::Code),
    ("GIT_EXEC_PATH", VarRole::Code),
    ("GIT_TEMPLATE_DIR", VarRole::Code),
    ("GIT_CONFIG_PARAMETERS", VarRole::Config),
    ("GIT_CONFIG_COUNT", VarRole::Config),
    ("GIT_CONFIG", VarRole::Config),
    ("GIT_CONFIG_GLOBAL", VarRole::Config),
    ("GIT_CONFIG_SYSTEM", VarRole::Config),
    ("XDG_CONFIG_HOME", VarRole::Config),
    ("NODE_OPTIONS", VarRole::InterpreterOptions),
    ("PERL5OPT", VarRole::InterpreterOptions),
    ("RUBYOPT", VarRole::InterpreterOptions),
    ("LESSHISTFILE", VarRole::Write),
    ("HISTFILE", VarRole::Write),
    ("SSLKEYLOGFILE", VarRole::Write),
    ("GIT_INDEX_FILE", VarRole::Write),
];

/// What programs do with the variable `name`, if it is one the table knows.
pub fn variable_role(name: &str) -> Option<VarRole> {
    if let Some((_, role)) = VARIABLES.iter().find(|(n, _)| *n == name) {
        return Some(*role);
    }
    // Every GIT_TRACE* variable (GIT_TRACE, GIT_TRACE2_EVENT, GIT_TRACE_PACKET, ...) takes a destination.
    if name.starts_with("GIT_TRACE") {
        return Some(VarRole::Trace);
    }
    // Numbered `-c` entries: GIT_CONFIG_KEY_0 / GIT_CONFIG_VALUE_0.
    if name.starts_with("GIT_CONFIG_KEY_") || name.starts_with("GIT_CONFIG_VALUE_") {
        return Some(VarRole::Config);
    }
    // The runner or linker cargo uses for a target (CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER).
    if name.starts_with("CARGO_TARGET_") && (name.ends_with("_RUNNER") || name.ends_with("_LINKER"))
    {
        return Some(VarRole::Program);
    }
    None
}

/// A trace destination that names a file: not a number (a file descriptor), a boolean, or empty.
pub fn trace_file(value: &str) -> Option<&str> {
    let lower = value.to_ascii_lowercase();
    let off_or_stderr = value.is_empty()
        || value.chars().all(|c| c.is_ascii_digit())
        || matches!(
            lower.as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off"
        );
    (!off_or_stderr).then_some(value)
}

/// Interpreter start-up options that load or evaluate code: `--require`/`--import`/`--loader`/`-r` (Node),
/// `-M`/`-m`/`-d` (Perl), `-r` (Ruby), each given whole, attached (`-rfoo`) or as `--opt=value`.
pub fn options_load_code(name: &str, value: &str) -> bool {
    value.split_whitespace().any(|option| {
        let flag = option.split('=').next().unwrap_or(option);
        match name {
            "NODE_OPTIONS" => {
                matches!(
                    flag,
                    "--require"
                        | "--import"
                        | "--loader"
                        | "--experimental-loader"
                        | "--eval"
                        | "--print"
                        | "-e"
                        | "-p"
                ) || (flag.starts_with("-r") && !flag.starts_with("--"))
            }
            "PERL5OPT" => {
                let f = flag.trim_start_matches('-');
                option.starts_with('-')
                    && (f.starts_with('M') || f.starts_with('m') || f.starts_with('d'))
            }
            _ => option.starts_with("-r") || option.starts_with("--require"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_says_what_a_variable_carries() {
        assert_eq!(variable_role("PAGER"), Some(VarRole::Script));
        assert_eq!(variable_role("GIT_SSH"), Some(VarRole::Program));
        assert_eq!(variable_role("LD_PRELOAD"), Some(VarRole::Code));
        assert_eq!(variable_role("GIT_TRACE2_EVENT"), Some(VarRole::Trace));
        assert_eq!(variable_role("GIT_CONFIG_KEY_0"), Some(VarRole::Config));
        assert_eq!(
            variable_role("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"),
            Some(VarRole::Program)
        );
        assert_eq!(variable_role("RUST_LOG"), None);
        assert_eq!(trace_file("1"), None);
        assert_eq!(trace_file("true"), None);
        assert_eq!(trace_file("/tmp/t"), Some("/tmp/t"));
        assert!(options_load_code("NODE_OPTIONS", "--require ./x.js"));
        assert!(options_load_code("NODE_OPTIONS", "-r./x.js"));
        assert!(!options_load_code(
            "NODE_OPTIONS",
            "--max-old-space-size=4096"
        ));
        assert!(options_load_code("PERL5OPT", "-MDevel::Peek"));
        assert!(!options_load_code("PERL5OPT", "-w"));
        assert!(options_load_code("RUBYOPT", "-rjson"));
        assert!(!options_load_code("RUBYOPT", "-W0"));
    }
}
