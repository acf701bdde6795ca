//! Where the GitHub tools find GitHub: the API's base URL, the token and how often SubscribePR polls, read when a
//! call needs them from the environment or (where the environment does not set them) under `env` in the session's
//! settings files.

use std::path::PathBuf;
use std::time::Duration;

/// The API's base URL (GitHub Enterprise: `https://HOST/api/v3`).
pub const API_URL_ENV: &str = "GITHUB_API_URL";
/// The web address whose remotes are this API's repositories (default: `https://github.com` for the public API,
/// else the API's own host), as GitHub Actions sets it.
pub const SERVER_URL_ENV: &str = "GITHUB_SERVER_URL";
/// The token, first choice.
pub const TOKEN_ENV: &str = "GITHUB_TOKEN";
/// The token, second choice (the `gh` command line's name).
pub const GH_TOKEN_ENV: &str = "GH_TOKEN";
/// How often SubscribePR polls, in milliseconds (GitHub's `X-Poll-Interval` may ask for longer).
pub const POLL_INTERVAL_ENV: &str = "TANDEM_GITHUB_POLL_INTERVAL_MS";
/// The API of github.com.
pub const DEFAULT_API_URL: &str = "https://api.github.com";
/// How often SubscribePR polls unless told otherwise.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(60);

/// What a GitHub call needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubConfig {
    /// Without a trailing `/`.
    pub api_url: String,
    /// `GITHUB_SERVER_URL`, when set.
    pub server_url: Option<String>,
    /// `None`: no token is set (the tools refuse to start).
    pub token: Option<String>,
    pub poll_interval: Duration,
}

impl GithubConfig {
    /// The configuration `lookup` (an environment) gives.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let set = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Self {
            api_url: set(API_URL_ENV)
                .unwrap_or_else(|| DEFAULT_API_URL.to_string())
                .trim_end_matches('/')
                .to_string(),
            server_url: set(SERVER_URL_ENV),
            token: set(TOKEN_ENV).or_else(|| set(GH_TOKEN_ENV)),
            poll_interval: set(POLL_INTERVAL_ENV)
                .and_then(|ms| ms.parse::<u64>().ok())
                .filter(|ms| *ms > 0)
                .map(Duration::from_millis)
                .unwrap_or(DEFAULT_POLL_INTERVAL),
        }
    }

    /// The token, or the error a call gives without one (before any work starts).
    pub fn require_token(&self) -> Result<&str, String> {
        self.token.as_deref().ok_or_else(|| {
            format!(
                "no GitHub token: set {TOKEN_ENV} (or {GH_TOKEN_ENV}) in the environment or under `env` in a \
                 settings file; nothing was started"
            )
        })
    }

    /// The web host whose remotes belong to this API: `GITHUB_SERVER_URL`'s host when set, else `github.com` for
    /// the public API, else the API URL's host.
    pub fn web_host(&self) -> String {
        let url = self.server_url.as_deref().unwrap_or(&self.api_url);
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        let host = rest.split('/').next().unwrap_or(rest);
        let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
        match host.strip_prefix("api.") {
            Some(public) => public.to_string(),
            None => host.to_string(),
        }
    }
}

/// Where a tool reads its [`GithubConfig`] from.
#[derive(Debug, Clone)]
pub enum GithubSource {
    /// Fixed (tests, embedders).
    Fixed(GithubConfig),
    /// The environment, then `env` in these settings files (highest precedence first), read at each call.
    Settings(Vec<PathBuf>),
}

impl GithubSource {
    /// The configuration now.
    pub fn config(&self) -> GithubConfig {
        match self {
            GithubSource::Fixed(config) => config.clone(),
            GithubSource::Settings(files) => GithubConfig::from_lookup(|name| {
                crate::settings::env_value(name, |n| std::env::var(n).ok(), files)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_comes_from_the_lookup_with_defaults() {
        let cfg = |pairs: &'static [(&'static str, &'static str)]| {
            GithubConfig::from_lookup(|name| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        let none = cfg(&[]);
        assert_eq!(none.api_url, DEFAULT_API_URL);
        assert_eq!(none.token, None);
        assert_eq!(none.poll_interval, DEFAULT_POLL_INTERVAL);
        assert!(none.require_token().is_err());
        assert_eq!(none.web_host(), "github.com");
        let both = cfg(&[
            (TOKEN_ENV, "t1"),
            (GH_TOKEN_ENV, "t2"),
            (API_URL_ENV, "https://ghe.example/api/v3/"),
            (POLL_INTERVAL_ENV, "250"),
        ]);
        assert_eq!(both.token.as_deref(), Some("t1"));
        assert_eq!(both.api_url, "https://ghe.example/api/v3");
        assert_eq!(both.web_host(), "ghe.example");
        assert_eq!(both.poll_interval, Duration::from_millis(250));
        assert_eq!(cfg(&[(GH_TOKEN_ENV, "t2")]).token.as_deref(), Some("t2"));
        assert_eq!(cfg(&[(TOKEN_ENV, " ")]).token, None);
        let served = cfg(&[
            (API_URL_ENV, "http://127.0.0.1:9"),
            (SERVER_URL_ENV, "https://github.com"),
        ]);
        assert_eq!(served.web_host(), "github.com");
    }
}
