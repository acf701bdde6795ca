//! One subscription at work: it reads its pull request through five conditional GETs (each endpoint's ETag kept, so
//! an unchanged one answers `304` and costs no rate limit), compares the reading with the last one and posts the
//! changes to the agent's mailbox (a new turn when the session is idle, the next step of a running turn otherwise).
//! It waits the poll interval between readings (longer when GitHub's `X-Poll-Interval` asks), as long as a
//! rate-limit answer asks, and longer after each failure; it ends when the pull request is merged or closed, when
//! GitHub says it is gone or the token is refused, when unsubscribed, or when the session ends.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::api::{Api, ApiError, Fetched, MAX_BACKOFF};
use super::pr_ref::PrRef;
use super::state::{Snapshot, changes};
use crate::tool::Mailbox;

/// One endpoint's last answer and its ETag.
#[derive(Debug, Default)]
struct Cached {
    path: String,
    etag: Option<String>,
    body: Value,
}

/// Reads a pull request, keeping each endpoint's last answer.
#[derive(Debug)]
pub struct Reader {
    api: Api,
    pr: PrRef,
    pull: Cached,
    reviews: Cached,
    review_comments: Cached,
    issue_comments: Cached,
    checks: Cached,
}

impl Reader {
    pub fn new(api: Api, pr: PrRef) -> Self {
        let base = format!("/repos/{}/{}", pr.repo.owner, pr.repo.name);
        let at = |path: String| Cached {
            path,
            ..Cached::default()
        };
        Self {
            pull: at(format!("{base}/pulls/{}", pr.number)),
            reviews: at(format!("{base}/pulls/{}/reviews?per_page=100", pr.number)),
            review_comments: at(format!("{base}/pulls/{}/comments?per_page=100", pr.number)),
            issue_comments: at(format!("{base}/issues/{}/comments?per_page=100", pr.number)),
            checks: at(String::new()),
            api,
            pr,
        }
    }

    pub fn pr(&self) -> &PrRef {
        &self.pr
    }

    /// A fresh reading, and the longest poll interval GitHub asked for.
    pub async fn read(&mut self) -> Result<(Snapshot, Option<Duration>), ApiError> {
        let mut asked = refresh(&self.api, &mut self.pull).await?;
        let head = self
            .pull
            .body
            .get("head")
            .and_then(|h| h.get("sha"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let checks_path = format!(
            "/repos/{}/{}/commits/{head}/check-runs?per_page=100",
            self.pr.repo.owner, self.pr.repo.name
        );
        if self.checks.path != checks_path {
            self.checks = Cached {
                path: checks_path,
                ..Cached::default()
            };
        }
        for cached in [
            &mut self.reviews,
            &mut self.review_comments,
            &mut self.issue_comments,
            &mut self.checks,
        ] {
            asked = asked.max(refresh(&self.api, cached).await?);
        }
        let snapshot = Snapshot::read(
            &self.pull.body,
            &self.reviews.body,
            &self.review_comments.body,
            &self.issue_comments.body,
            &self.checks.body,
        )
        .map_err(|why| ApiError::Shape {
            path: self.pull.path.clone(),
            why,
        })?;
        Ok((snapshot, asked))
    }
}

/// Brings one endpoint up to date; the poll interval its answer asks for.
async fn refresh(api: &Api, cached: &mut Cached) -> Result<Option<Duration>, ApiError> {
    match api.get(&cached.path, cached.etag.as_deref()).await? {
        Fetched::NotModified { poll_interval } => Ok(poll_interval),
        Fetched::Fresh {
            etag,
            body,
            poll_interval,
        } => {
            cached.etag = etag;
            cached.body = body;
            Ok(poll_interval)
        }
    }
}

/// A subscription's polling.
#[derive(Debug)]
pub struct Watch {
    pub id: String,
    pub reader: Reader,
    pub last: Snapshot,
    pub interval: Duration,
    /// Where changes are posted; the watch ends when it is gone.
    pub mailbox: Weak<Mailbox>,
    /// Fires when unsubscribed or the session ends; the watch fires it when it ends by itself.
    pub stop: CancellationToken,
    /// What the subscription is doing, for SubscribePR's list.
    pub status: Arc<Mutex<String>>,
}

impl Watch {
    /// Polls until the watch ends.
    pub async fn run(mut self) {
        let mut wait = self.interval;
        let mut failures: u32 = 0;
        loop {
            tokio::select! {
                _ = self.stop.cancelled() => return,
                _ = tokio::time::sleep(wait) => {}
            }
            if self.mailbox.strong_count() == 0 {
                self.stop.cancel();
                return;
            }
            let read = tokio::select! {
                read = self.reader.read() => read,
                _ = self.stop.cancelled() => return,
            };
            match read {
                Ok((now, asked)) => {
                    failures = 0;
                    wait = self.interval.max(asked.unwrap_or_default());
                    let found = changes(&self.last, &now);
                    let finished = now.is_finished();
                    self.last = now;
                    if !found.is_empty() {
                        self.post(&found, finished);
                    }
                    if finished {
                        self.end(&format!("ended: {}", self.last.summary()));
                        return;
                    }
                    self.set_status(format!("watching; {}", self.last.summary()));
                }
                Err(ApiError::RateLimited(asked)) => {
                    wait = asked;
                    self.set_status(format!(
                        "waiting {} s for GitHub's rate limit before the next poll",
                        asked.as_secs()
                    ));
                }
                Err(
                    e @ ApiError::Status {
                        status: 401 | 404 | 410,
                        ..
                    },
                ) => {
                    let why = format!("it stopped: {e}");
                    self.post_text(&format!(
                        "<github-pr-notification>\nSubscription {} to {} {why}.\n</github-pr-notification>",
                        self.id,
                        self.reader.pr()
                    ));
                    self.end(&why);
                    return;
                }
                Err(e) => {
                    failures = failures.saturating_add(1);
                    wait = self
                        .interval
                        .checked_mul(1 << failures.min(6))
                        .unwrap_or(MAX_BACKOFF)
                        .min(MAX_BACKOFF);
                    self.set_status(format!(
                        "the last poll failed ({e}); trying again in {} s",
                        wait.as_secs()
                    ));
                }
            }
        }
    }

    fn set_status(&self, text: String) {
        if let Ok(mut status) = self.status.lock() {
            *status = text;
        }
    }

    fn end(&self, why: &str) {
        self.set_status(why.to_string());
        self.stop.cancel();
    }

    fn post(&self, found: &[String], finished: bool) {
        let next = if finished {
            "The subscription has ended."
        } else {
            "The subscription keeps watching."
        };
        let url = match self.last.html_url.as_str() {
            "" => String::new(),
            url => format!(" ({url})"),
        };
        self.post_text(&format!(
            "<github-pr-notification>\nSubscription {} to pull request {}{url} \"{}\" saw:\n- {}\n{next}\n</github-pr-notification>",
            self.id,
            self.reader.pr(),
            self.last.title,
            found.join("\n- ")
        ));
    }

    fn post_text(&self, text: &str) {
        if let Some(mailbox) = self.mailbox.upgrade() {
            mailbox.post(text.to_string());
        }
    }
}
