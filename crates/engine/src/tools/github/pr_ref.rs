//! Naming a repository and a pull request: `owner/repo#N`, `#N` or `N` (the folder's `origin` repository), or a pull
//! request's web address; and the GitHub repository a folder's `origin` remote points at.

use std::fmt;
use std::path::Path;
use std::process::Command;

/// A repository on GitHub.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoRef {
    pub owner: String,
    pub name: String,
}

impl fmt::Display for RepoRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.owner, self.name)
    }
}

impl RepoRef {
    /// `owner/name`, each a plain GitHub name (letters, digits, `-`, `_`, `.`).
    pub fn parse(text: &str) -> Option<Self> {
        let (owner, name) = text.trim().split_once('/')?;
        let name = name.strip_suffix(".git").unwrap_or(name);
        let plain = |s: &str| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        (plain(owner) && plain(name)).then(|| Self {
            owner: owner.to_string(),
            name: name.to_string(),
        })
    }
}

/// A pull request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PrRef {
    pub repo: RepoRef,
    pub number: u64,
}

impl fmt::Display for PrRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.repo, self.number)
    }
}

impl PrRef {
    /// Reads `owner/repo#N`, a pull request's address (`https://HOST/owner/repo/pull/N…`), or `#N`/`N` in the
    /// repository `default` gives (asked only then). `Err` says what is wrong.
    pub fn parse(
        text: &str,
        default: impl FnOnce() -> Result<RepoRef, String>,
    ) -> Result<Self, String> {
        let text = text.trim();
        let bad = || {
            format!(
                "`{text}` is not a pull request: give owner/repo#N, a pull request's URL, or #N for the folder's \
                 origin repository"
            )
        };
        let number = |n: &str| n.trim().parse::<u64>().ok().filter(|n| *n > 0);
        if let Some((_, rest)) = text.split_once("://") {
            let mut parts = rest.split('/').skip(1);
            let (owner, name, pull, n) = (parts.next(), parts.next(), parts.next(), parts.next());
            return match (owner, name, pull, n.and_then(number)) {
                (Some(owner), Some(name), Some("pull" | "pulls"), Some(number)) => Ok(Self {
                    repo: RepoRef::parse(&format!("{owner}/{name}")).ok_or_else(bad)?,
                    number,
                }),
                _ => Err(bad()),
            };
        }
        match text.split_once('#') {
            Some(("", n)) => Ok(Self {
                repo: default()?,
                number: number(n).ok_or_else(bad)?,
            }),
            Some((repo, n)) => Ok(Self {
                repo: RepoRef::parse(repo).ok_or_else(bad)?,
                number: number(n).ok_or_else(bad)?,
            }),
            None => Ok(Self {
                number: number(text).ok_or_else(bad)?,
                repo: default()?,
            }),
        }
    }
}

/// The GitHub repository the `origin` remote of the repository containing `dir` points at, on `web_host`
/// (`github.com`, or an Enterprise host). `Err`: no repository, no `origin`, or an `origin` elsewhere.
pub fn origin_repo(dir: &Path, web_host: &str) -> Result<RepoRef, String> {
    let out = Command::new("git")
        .args(["remote", "get-url", "origin"])
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("git could not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{} has no `origin` remote (git: {})",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
    remote_repo(&url, web_host)
        .ok_or_else(|| format!("the `origin` remote ({url}) is not a repository on {web_host}"))
}

/// The repository a remote URL names on `web_host`: `https://HOST/o/r(.git)`, `ssh://git@HOST[:port]/o/r(.git)` or
/// `git@HOST:o/r(.git)`.
pub fn remote_repo(url: &str, web_host: &str) -> Option<RepoRef> {
    let (host, path) = match url.split_once("://") {
        Some((_, rest)) => rest.split_once('/')?,
        None => url.split_once(':')?,
    };
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next().unwrap_or(host);
    if !host.eq_ignore_ascii_case(web_host) {
        return None;
    }
    RepoRef::parse(path.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(o: &str, n: &str) -> RepoRef {
        RepoRef {
            owner: o.into(),
            name: n.into(),
        }
    }

    #[test]
    fn pull_requests_are_read_or_refused() {
        let home = || Ok(repo("acme", "widgets"));
        type Case<'a> = (&'a str, Option<(&'a str, &'a str, u64)>);
        let cases: &[Case<'_>] = &[
            ("acme/widgets#12", Some(("acme", "widgets", 12))),
            ("#7", Some(("acme", "widgets", 7))),
            ("7", Some(("acme", "widgets", 7))),
            ("https://github.com/o/r/pull/3/files", Some(("o", "r", 3))),
            ("https://ghe.example/o/r.js/pull/4", Some(("o", "r.js", 4))),
            ("https://github.com/o/r/issues/3", None),
            ("o/r#x", None),
            ("o/r#0", None),
            ("../x#1", None),
            ("", None),
        ];
        for (text, want) in cases {
            let got = PrRef::parse(text, home);
            match want {
                Some((o, n, number)) => assert_eq!(
                    got,
                    Ok(PrRef {
                        repo: repo(o, n),
                        number: *number
                    }),
                    "{text}"
                ),
                None => assert!(got.is_err(), "{text}: {got:?}"),
            }
        }
        let none = || Err("no origin".to_string());
        assert_eq!(PrRef::parse("#1", none), Err("no origin".to_string()));
    }

    #[test]
    fn remotes_on_the_host_name_their_repository() {
        type Case<'a> = (&'a str, &'a str, Option<(&'a str, &'a str)>);
        let cases: &[Case<'_>] = &[
            (
                "https://github.com/acme/widgets.git",
                "github.com",
                Some(("acme", "widgets")),
            ),
            (
                "https://x:tok@github.com/acme/widgets",
                "github.com",
                Some(("acme", "widgets")),
            ),
            (
                "git@github.com:acme/widgets.git",
                "github.com",
                Some(("acme", "widgets")),
            ),
            (
                "ssh://git@github.com:22/acme/widgets",
                "github.com",
                Some(("acme", "widgets")),
            ),
            ("https://gitlab.com/acme/widgets", "github.com", None),
            ("/srv/git/widgets.git", "github.com", None),
            (
                "https://ghe.example/team/tool",
                "ghe.example",
                Some(("team", "tool")),
            ),
        ];
        for (url, host, want) in cases {
            assert_eq!(
                remote_repo(url, host),
                want.map(|(o, n)| repo(o, n)),
                "{url}"
            );
        }
    }
}
