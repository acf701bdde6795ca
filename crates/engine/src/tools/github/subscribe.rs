//! SubscribePR (behind `KAIROS_GITHUB_WEBHOOKS`): subscribes the session to a GitHub pull request, read at once
//! (a missing token, an unknown pull request or a refused token is an error and nothing is started), then polled;
//! new reviews, review comments, comments, check-run conclusions, new commits and a merge or close reach the agent
//! as a `<github-pr-notification>` in its mailbox. Also lists and ends the session's subscriptions. Subscribing
//! talks to GitHub over the network: it asks unless a `SubscribePR` rule allows it; listing and unsubscribing only
//! touch the session's own subscriptions.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::api::Api;
use super::config::GithubSource;
use super::poll::{Reader, Watch};
use super::pr_ref::{PrRef, origin_repo};
use crate::tool::{
    InterruptBehavior, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PrAction {
    /// Start watching `pr` (the default).
    Subscribe,
    /// The session's subscriptions and what each is doing.
    List,
    /// Stop watching (`subscription_id` or `pr`).
    Unsubscribe,
}

/// SubscribePR's input.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscribePrInput {
    /// subscribe (default), list or unsubscribe.
    pub action: Option<PrAction>,
    /// The pull request: owner/repo#N, its URL (https://github.com/owner/repo/pull/N), or #N for the folder's
    /// origin repository. Needed to subscribe; to unsubscribe, this or subscription_id.
    pub pr: Option<String>,
    /// To unsubscribe: the id subscribing returned (e.g. `pr_1`).
    pub subscription_id: Option<String>,
}

impl SubscribePrInput {
    fn action(&self) -> PrAction {
        self.action.unwrap_or(PrAction::Subscribe)
    }
}

/// One subscription, as the tool keeps it.
#[derive(Debug)]
struct Subscription {
    id: String,
    pr: PrRef,
    status: Arc<Mutex<String>>,
    stop: CancellationToken,
}

/// The session's subscriptions; they end with the tool (the session).
#[derive(Debug)]
struct Subscriptions {
    next: AtomicU64,
    list: Mutex<Vec<Subscription>>,
    ended: CancellationToken,
    _guard: DropGuard,
}

impl Default for Subscriptions {
    fn default() -> Self {
        let ended = CancellationToken::new();
        Self {
            next: AtomicU64::new(1),
            list: Mutex::default(),
            _guard: ended.clone().drop_guard(),
            ended,
        }
    }
}

impl Subscriptions {
    /// The live subscriptions (those ended by themselves are forgotten).
    fn live(&self) -> std::sync::MutexGuard<'_, Vec<Subscription>> {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|s| !s.stop.is_cancelled());
        list
    }
}

/// The SubscribePR tool.
#[derive(Debug)]
pub struct SubscribePrTool {
    source: GithubSource,
    subscriptions: Subscriptions,
}

impl SubscribePrTool {
    /// A SubscribePR reading GitHub's address and token from `source`; its subscriptions end when it is dropped.
    pub fn new(source: GithubSource) -> Self {
        Self {
            source,
            subscriptions: Subscriptions::default(),
        }
    }

    async fn subscribe(&self, raw: &str, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let config = self.source.config();
        let token = config.require_token().map_err(ToolError::to_model)?;
        let Some(mailbox) = &ctx.mailbox else {
            return Err(ToolError::to_model(
                "SubscribePR cannot wake this agent: it has no mailbox",
            ));
        };
        let pr = PrRef::parse(raw, || origin_repo(&ctx.cwd, &config.web_host()))
            .map_err(ToolError::to_model)?;
        if let Some(existing) = self.subscriptions.live().iter().find(|s| s.pr == pr) {
            return Ok(ToolOutput::text(format!(
                "This session is already subscribed to {pr} ({}).",
                existing.id
            )));
        }
        let api =
            Api::new(&config.api_url, token).map_err(|e| ToolError::to_model(e.to_string()))?;
        let mut reader = Reader::new(api, pr.clone());
        let first = tokio::select! {
            read = reader.read() => read,
            _ = ctx.cancel.cancelled() => return Err(ToolError::Cancelled),
        };
        let (snapshot, asked) = first.map_err(|e| {
            ToolError::to_model(format!(
                "cannot read pull request {pr}: {e}; nothing was subscribed"
            ))
        })?;
        if snapshot.is_finished() {
            return Ok(ToolOutput::text(format!(
                "Pull request {pr} {}; there is nothing more to watch, so no subscription was made.",
                snapshot.summary()
            )));
        }
        let id = format!(
            "pr_{}",
            self.subscriptions.next.fetch_add(1, Ordering::Relaxed)
        );
        let stop = self.subscriptions.ended.child_token();
        let summary = snapshot.summary();
        let status = Arc::new(Mutex::new(format!("watching; {summary}")));
        let interval = config.poll_interval.max(asked.unwrap_or_default());
        let watch = Watch {
            id: id.clone(),
            reader,
            last: snapshot,
            interval,
            mailbox: Arc::downgrade(mailbox),
            stop: stop.clone(),
            status: status.clone(),
        };
        self.subscriptions.live().push(Subscription {
            id: id.clone(),
            pr: pr.clone(),
            status,
            stop,
        });
        tokio::spawn(watch.run());
        Ok(ToolOutput::text(format!(
            "Subscribed ({id}) to pull request {pr}: {summary}. It is polled every {} s; new reviews, review \
             comments, comments, check-run conclusions, new commits and a merge or close will be sent to you as a \
             <github-pr-notification>. There is no need to poll or wait.",
            interval.as_secs().max(1)
        )))
    }

    fn list(&self) -> ToolOutput {
        let live = self.subscriptions.live();
        if live.is_empty() {
            return ToolOutput::text("This session has no pull request subscriptions.");
        }
        let lines: Vec<String> = live
            .iter()
            .map(|s| {
                let status = s.status.lock().map(|t| t.clone()).unwrap_or_default();
                format!("{} {}: {status}", s.id, s.pr)
            })
            .collect();
        ToolOutput::text(lines.join("\n"))
    }

    fn unsubscribe(
        &self,
        input: &SubscribePrInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let mut live = self.subscriptions.live();
        let found = match (&input.subscription_id, &input.pr) {
            (Some(id), _) => live.iter().position(|s| s.id == id.trim()),
            (None, Some(raw)) => {
                let config = self.source.config();
                let pr = PrRef::parse(raw, || origin_repo(&ctx.cwd, &config.web_host()))
                    .map_err(ToolError::to_model)?;
                live.iter().position(|s| s.pr == pr)
            }
            (None, None) => {
                return Err(ToolError::to_model(
                    "give subscription_id or pr to unsubscribe",
                ));
            }
        };
        let Some(at) = found else {
            let known: Vec<String> = live
                .iter()
                .map(|s| format!("{} ({})", s.id, s.pr))
                .collect();
            return Err(ToolError::to_model(format!(
                "no such subscription; this session has {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        let gone = live.remove(at);
        gone.stop.cancel();
        Ok(ToolOutput::text(format!(
            "Unsubscribed {} from pull request {}.",
            gone.id, gone.pr
        )))
    }
}

impl Tool for SubscribePrTool {
    type Input = SubscribePrInput;

    fn name(&self) -> &'static str {
        names::SUBSCRIBE_PR
    }

    fn description(&self) -> String {
        "Subscribe this session to a GitHub pull request (pr: owner/repo#N, its URL, or #N for the folder's origin \
         repository) and be woken when it changes: new reviews, review comments, comments, check-run conclusions, \
         new commits, a merge or a close arrive as a <github-pr-notification> — as a new turn if you are idle. \
         Returns at once with the subscription's id and where the pull request stands. action list shows the \
         session's subscriptions; action unsubscribe (subscription_id or pr) ends one. Use it instead of polling \
         GitHub yourself while waiting for a review or CI."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &SubscribePrInput) -> bool {
        true
    }

    fn is_read_only(&self, input: &SubscribePrInput) -> bool {
        input.action() != PrAction::Subscribe
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &SubscribePrInput, _ctx: &ToolContext) -> RenderHints {
        let pr = input.pr.as_deref().unwrap_or_default();
        RenderHints {
            kind: ToolKind::Other,
            title: match input.action() {
                PrAction::Subscribe => format!("Subscribe to pull request {pr}"),
                PrAction::List => "List pull request subscriptions".to_string(),
                PrAction::Unsubscribe => format!(
                    "Unsubscribe {}",
                    input.subscription_id.as_deref().unwrap_or(pr)
                ),
            },
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        input: &SubscribePrInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        match input.action() {
            // Reading GitHub over the network: the rules and the mode decide.
            PrAction::Subscribe => PermissionSubject::Tool,
            PrAction::List | PrAction::Unsubscribe => PermissionSubject::SessionOwned,
        }
    }

    async fn validate_input(
        &self,
        input: &SubscribePrInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        match input.action() {
            PrAction::Subscribe if input.pr.as_deref().is_none_or(|p| p.trim().is_empty()) => {
                Err("give pr (owner/repo#N, a pull request URL or #N) to subscribe".into())
            }
            PrAction::Unsubscribe if input.pr.is_none() && input.subscription_id.is_none() => {
                Err("give subscription_id or pr to unsubscribe".into())
            }
            _ => Ok(()),
        }
    }

    async fn call(
        &self,
        input: &SubscribePrInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        match input.action() {
            PrAction::Subscribe => {
                self.subscribe(input.pr.as_deref().unwrap_or_default(), ctx)
                    .await
            }
            PrAction::List => Ok(self.list()),
            PrAction::Unsubscribe => self.unsubscribe(input, ctx),
        }
    }
}
