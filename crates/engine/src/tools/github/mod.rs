//! The GitHub tools (docs/github-tools.md): SubscribePR (behind `KAIROS_GITHUB_WEBHOOKS`) polls a pull request
//! through the GitHub REST API and wakes the agent when it changes; SuggestBackgroundPR (behind `USER_TYPE=ant`)
//! runs approved work in a background sub-agent on a fresh worktree and opens the pull request. Both talk to
//! `GITHUB_API_URL` (default `https://api.github.com`) with the token in `GITHUB_TOKEN` or `GH_TOKEN`, read from the
//! environment or under `env` in a settings file.

mod api;
mod config;
mod land;
mod poll;
mod pr_ref;
mod state;
mod subscribe;
mod suggest;

pub use api::{Api, ApiError, Fetched};
pub use config::{
    API_URL_ENV, DEFAULT_API_URL, DEFAULT_POLL_INTERVAL, GH_TOKEN_ENV, GithubConfig, GithubSource,
    POLL_INTERVAL_ENV, SERVER_URL_ENV, TOKEN_ENV,
};
pub use pr_ref::{PrRef, RepoRef, origin_repo};
pub use subscribe::{SubscribePrInput, SubscribePrTool};
pub use suggest::{SuggestBackgroundPrInput, SuggestBackgroundPrTool};
