//! The command that reaches `tandem acp` on the far machine: the engine's `ssh` command line
//! ([`crate::ssh::command`]: the system's OpenSSH client, or the command in `TANDEM_SSH_COMMAND`, with
//! `-T -o BatchMode=yes`, the port when the URL gives one, the destination) and a remote command that also finds a
//! `tandem` in `~/.local/bin`. Everything else — keys, agent, known hosts, connection sharing, proxies — is the
//! person's SSH configuration, untouched.

use crate::settings::AgentServer;
use crate::ssh::{self, Target};

/// What the far machine's shell runs: `tandem acp`, found on its PATH or in `~/.local/bin`.
pub const REMOTE_COMMAND: &str = r#"PATH="$PATH:$HOME/.local/bin" exec tandem acp"#;

/// The `ssh` process, as a hosted agent's entry: `ssh`, or the command line `ssh_command` (the value of
/// `TANDEM_SSH_COMMAND`). `Err`: that line cannot be read.
pub fn server(target: &Target, ssh_command: Option<String>) -> Result<AgentServer, String> {
    let (command, args) = ssh::command(target, ssh_command.as_deref(), REMOTE_COMMAND)?;
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
