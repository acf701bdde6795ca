//! Where a remote session runs: `ssh://[user@]host[:port]/abs/path`, read into a [`Target`] (the `ssh` destination,
//! its port, and the folder on that machine). A host or user that `ssh` would read as an option is refused.

use std::path::PathBuf;

/// A machine reached over SSH and the folder there the session works in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub user: Option<String>,
    pub host: String,
    pub port: Option<u16>,
    /// Absolute, on the far machine.
    pub path: PathBuf,
}

impl Target {
    /// Reads `ssh://[user@]host[:port]/abs/path` (an IPv6 address in brackets). `Err` says what is wrong.
    pub fn parse(url: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!("--remote {url}: {why} (expected ssh://[user@]host[:port]/absolute/path)")
        };
        let rest = url
            .strip_prefix("ssh://")
            .ok_or_else(|| bad("only ssh:// is supported"))?;
        let (authority, path) = match rest.find('/') {
            Some(at) => rest.split_at(at),
            None => return Err(bad("the folder on the remote machine is missing")),
        };
        let (user, hostport) = match authority.rsplit_once('@') {
            Some((user, hostport)) => (Some(user.to_string()), hostport),
            None => (None, authority),
        };
        let (host, port) = if let Some(bracketed) = hostport.strip_prefix('[') {
            let (host, after) = bracketed
                .split_once(']')
                .ok_or_else(|| bad("an unclosed [ in the host"))?;
            match after {
                "" => (host, None),
                _ => (
                    host,
                    Some(after.strip_prefix(':').ok_or_else(|| bad("junk after ]"))?),
                ),
            }
        } else {
            match hostport.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (hostport, None),
            }
        };
        let port = match port {
            Some(port) => Some(
                port.parse::<u16>()
                    .ok()
                    .filter(|p| *p > 0)
                    .ok_or_else(|| bad("the port is not a number from 1 to 65535"))?,
            ),
            None => None,
        };
        if host.is_empty() {
            return Err(bad("the host is missing"));
        }
        let unsafe_word =
            |w: &str| w.starts_with('-') || w.chars().any(|c| c.is_whitespace() || c.is_control());
        if unsafe_word(host)
            || user
                .as_deref()
                .is_some_and(|u| u.is_empty() || unsafe_word(u))
        {
            return Err(bad("the user or host is not a plain name"));
        }
        if path.chars().any(char::is_control) {
            return Err(bad("the folder has control characters"));
        }
        Ok(Self {
            user,
            host: host.to_string(),
            port,
            path: PathBuf::from(path),
        })
    }

    /// What `ssh` is given as the destination: `user@host` or `host`.
    pub fn destination(&self) -> String {
        match &self.user {
            Some(user) => format!("{user}@{}", self.host),
            None => self.host.clone(),
        }
    }

    /// The machine as messages name it: the destination, with the port when one was given.
    pub fn label(&self) -> String {
        match self.port {
            Some(port) => format!("{}:{port}", self.destination()),
            None => self.destination(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_or_refused_with_the_reason() {
        let ok = |url: &str, user: Option<&str>, host: &str, port: Option<u16>, path: &str| {
            let target = Target::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
            assert_eq!(
                target,
                Target {
                    user: user.map(str::to_string),
                    host: host.to_string(),
                    port,
                    path: PathBuf::from(path),
                },
                "{url}"
            );
        };
        ok("ssh://box/srv/app", None, "box", None, "/srv/app");
        ok(
            "ssh://ann@box:2222/home/ann/p",
            Some("ann"),
            "box",
            Some(2222),
            "/home/ann/p",
        );
        ok("ssh://ann@[::1]:22/p", Some("ann"), "::1", Some(22), "/p");
        ok("ssh://[fe80::1]/p", None, "fe80::1", None, "/p");
        ok("ssh://me@corp@box/p", Some("me@corp"), "box", None, "/p");
        let refused = [
            ("box/p", "only ssh://"),
            ("sftp://box/p", "only ssh://"),
            ("ssh://box", "folder on the remote machine is missing"),
            ("ssh:///p", "host is missing"),
            ("ssh://box:0/p", "port"),
            ("ssh://box:99999/p", "port"),
            ("ssh://box:x/p", "port"),
            ("ssh://-oProxyCommand=x/p", "not a plain name"),
            ("ssh://-l@box/p", "not a plain name"),
            ("ssh://@box/p", "not a plain name"),
            ("ssh://[::1/p", "unclosed"),
        ];
        for (url, why) in refused {
            let e = Target::parse(url).expect_err(url);
            assert!(e.contains(why), "{url}: {e}");
        }
    }

    #[test]
    fn messages_name_the_machine_with_its_port() {
        let target = Target::parse("ssh://ann@box:2222/p").expect("parse");
        assert_eq!(target.destination(), "ann@box");
        assert_eq!(target.label(), "ann@box:2222");
    }
}
