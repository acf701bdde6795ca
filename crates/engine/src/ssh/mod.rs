//! Reaching another machine with the system's OpenSSH client: where (`ssh://[user@]host[:port]/abs/path`, read into
//! a [`Target`]) and the command line that runs a remote command there ([`command`]: `ssh` or the command in
//! `TANDEM_SSH_COMMAND`, `-T -o BatchMode=yes`, the port, the destination, `--`, the remote command). Keys, agent,
//! known hosts and proxies are the person's SSH configuration, untouched. `tandem -p --remote` and RemoteTrigger
//! both build their `ssh` here.

mod target;

pub use target::Target;

/// The variable that replaces `ssh` (e.g. `ssh -F /path/to/ssh_config`), split like a shell would.
pub const SSH_COMMAND_VAR: &str = "TANDEM_SSH_COMMAND";

/// The program and arguments that run `remote_command` on `target`'s machine: `configured` (the value of
/// [`SSH_COMMAND_VAR`], when set and not blank) or `ssh`, then `-T -o BatchMode=yes`, `-p PORT` when the URL gives
/// one, the destination, `--` and `remote_command` (one word: the far shell reads it). `Err`: `configured` cannot be
/// split into words.
pub fn command(
    target: &Target,
    configured: Option<&str>,
    remote_command: &str,
) -> Result<(String, Vec<String>), String> {
    let mut words = match configured {
        Some(line) if !line.trim().is_empty() => shell_words::split(line)
            .map_err(|e| format!("{SSH_COMMAND_VAR} cannot be read: {e}"))?,
        _ => vec!["ssh".to_string()],
    };
    if words.is_empty() {
        words.push("ssh".to_string());
    }
    let program = words.remove(0);
    let mut args = words;
    args.extend(["-T", "-o", "BatchMode=yes"].map(String::from));
    if let Some(port) = target.port {
        args.extend(["-p".to_string(), port.to_string()]);
    }
    args.extend([
        target.destination(),
        "--".to_string(),
        remote_command.to_string(),
    ]);
    Ok((program, args))
}

/// `word` quoted for a POSIX shell (the far machine's), unchanged when it needs no quoting.
pub fn quote(word: &str) -> String {
    shell_words::quote(word).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_ssh_or_the_configured_one_in_batch_mode_with_the_port() {
        let target = Target::parse("ssh://ann@box:2222/srv/app").expect("parse");
        let cases: &[(Option<&str>, &str, &[&str])] = &[
            (None, "ssh", &[]),
            (Some("  "), "ssh", &[]),
            (
                Some("ssh -F '/etc/my config'"),
                "ssh",
                &["-F", "/etc/my config"],
            ),
        ];
        for (configured, program, first) in cases {
            let (got, args) = command(&target, *configured, "echo hi").expect("command");
            assert_eq!(got, *program, "{configured:?}");
            let mut want: Vec<&str> = first.to_vec();
            want.extend([
                "-T",
                "-o",
                "BatchMode=yes",
                "-p",
                "2222",
                "ann@box",
                "--",
                "echo hi",
            ]);
            assert_eq!(args, want, "{configured:?}");
        }
        let e = command(&target, Some("ssh 'unclosed"), "x").expect_err("unclosed quote");
        assert!(e.contains(SSH_COMMAND_VAR), "{e}");
    }
}
