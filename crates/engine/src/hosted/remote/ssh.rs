//! The command that reaches `tandem acp` on the far machine: the system's OpenSSH client (or the command in
//! `TANDEM_SSH_COMMAND`, split like a shell would) with `-T -o BatchMode=yes`, the port when the URL gives one, the
//! destination, and a remote command that also finds a `tandem` in `~/.local/bin`. Everything else — keys, agent,
//! known hosts, connection sharing, proxies — is the person's SSH configuration, untouched.

use crate::settings::AgentServer;

use super::target::Target;

/// The variable that replaces `ssh` (e.g. `ssh -F /path/to/ssh_config`).
pub const SSH_COMMAND_VAR: &str = "TANDEM_SSH_COMMAND";

/// What the far machine's shell runs: `tandem acp`, found on its PATH or in `~/.local/bin`.
pub const REMOTE_COMMAND: &str = r#"PATH="$PATH:$HOME/.local/bin" exec tandem acp"#;

/// The `ssh` process, as a hosted agent's entry: `ssh`, or the command line `ssh_command` (the value of
/// `TANDEM_SSH_COMMAND`). `Err`: that line cannot be read.
pub fn server(target: &Target, ssh_command: Option<String>) -> Result<AgentServer, String> {
    let mut words = match ssh_command {
        Some(line) if !line.trim().is_empty() => shell_words::split(&line)
            .map_err(|e| format!("{SSH_COMMAND_VAR} cannot be read: {e}"))?,
        _ => vec!["ssh".to_string()],
    };
    let command = words.remove(0);
    let mut args = words;
    args.extend(["-T", "-o", "BatchMode=yes"].map(String::from));
    if let Some(port) = target.port {
        args.extend(["-p".to_string(), port.to_string()]);
    }
    args.extend([
        target.destination(),
        "--".to_string(),
        REMOTE_COMMAND.to_string(),
    ]);
    Ok(AgentServer {
        command,
        args,
        env: Default::default(),
    })
}

/// The one command that puts this machine's `tandem` where [`REMOTE_COMMAND`] finds it on `target`.
pub fn install_command(target: &Target) -> String {
    let port = target.port.map(|p| format!("-p {p} ")).unwrap_or_default();
    format!(
        "ssh {port}{} 'mkdir -p ~/.local/bin && cat > ~/.local/bin/tandem && chmod +x ~/.local/bin/tandem' < \"$(command -v tandem)\"",
        target.destination()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_plain_ssh_in_batch_mode_with_the_port() {
        let target = Target::parse("ssh://ann@box:2222/srv/app").expect("parse");
        let server = server(&target, None).expect("server");
        assert_eq!(server.command, "ssh");
        let custom =
            super::server(&target, Some("ssh -F '/tmp/my config'".into())).expect("custom");
        assert_eq!(custom.command, "ssh");
        assert_eq!(custom.args[..2], ["-F", "/tmp/my config"]);
        let tail: Vec<&str> = server.args.iter().map(String::as_str).collect();
        assert!(
            tail.ends_with(&[
                "-T",
                "-o",
                "BatchMode=yes",
                "-p",
                "2222",
                "ann@box",
                "--",
                REMOTE_COMMAND
            ]),
            "{tail:?}"
        );
        assert_eq!(
            install_command(&target),
            "ssh -p 2222 ann@box 'mkdir -p ~/.local/bin && cat > ~/.local/bin/tandem && chmod +x ~/.local/bin/tandem' < \"$(command -v tandem)\""
        );
    }
}
