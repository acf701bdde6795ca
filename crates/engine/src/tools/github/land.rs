//! The end of a SuggestBackgroundPR run: once its background agent has finished, the commits it made on the pull
//! request's branch are pushed to `origin` with `git push` and the pull request is opened with
//! `POST /repos/{owner}/{repo}/pulls`; what happened reaches the agent as a `<background-pr-notification>` in its
//! mailbox, and the agent's worktree is removed (the local branch stays; a worktree with uncommitted changes is
//! kept). No commits: nothing is pushed or opened, and the notification says so.

use std::path::PathBuf;
use std::sync::Weak;
use std::time::Duration;

use serde_json::{Value, json};

use super::api::Api;
use super::pr_ref::RepoRef;
use crate::tool::{Mailbox, SubAgentError, SubAgentReport, SubAgentRunner};

/// What is opened when the agent is done.
#[derive(Debug)]
pub struct Landing {
    pub api: Api,
    pub repo: RepoRef,
    /// The main repository's folder (where `git push` runs).
    pub repo_dir: PathBuf,
    pub branch: String,
    pub base: String,
    pub title: String,
    pub body: String,
    /// The background agent's task id.
    pub task_id: String,
    pub runner: Weak<dyn SubAgentRunner>,
    pub mailbox: Weak<Mailbox>,
}

impl Landing {
    /// Waits for the agent (woken by the mailbox's bell, which rings when a background agent ends), then opens
    /// the pull request and posts the outcome. Ends quietly when the session goes away first.
    pub async fn run(self) {
        let Some(mut bell) = self.mailbox.upgrade().map(|m| m.bell()) else {
            return;
        };
        let outcome = loop {
            let Some(runner) = self.runner.upgrade() else {
                return;
            };
            match runner
                .background_output(&self.task_id, Duration::ZERO)
                .await
            {
                None => return,
                Some(Some(outcome)) => break outcome,
                Some(None) => {}
            }
            drop(runner);
            if bell.changed().await.is_err() {
                return;
            }
        };
        let text = match outcome {
            Ok(report) => self.open(&report).await,
            Err(SubAgentError::Cancelled) => return,
            Err(e) => format!(
                "The background agent ({}) for \"{}\" did not finish: {e}. No pull request was opened.",
                self.task_id, self.title
            ),
        };
        if let Some(mailbox) = self.mailbox.upgrade() {
            mailbox.post(format!(
                "<background-pr-notification>\n{text}\n</background-pr-notification>"
            ));
        }
    }

    /// Pushes the branch and opens the pull request; what happened, in words.
    async fn open(&self, report: &SubAgentReport) -> String {
        let range = format!("refs/heads/{}..refs/heads/{}", self.base, self.branch);
        let commits = git(&self.repo_dir, &["rev-list", "--count", &range])
            .ok()
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if commits == 0 {
            let left = match &report.worktree {
                Some(wt) if wt.kept => format!(
                    " Its uncommitted changes are kept in the worktree {} on branch {}.",
                    wt.path.display(),
                    wt.branch
                ),
                _ => String::new(),
            };
            return format!(
                "The background agent ({}) for \"{}\" finished without commits on {}; no pull request was \
                 opened.{left}",
                self.task_id, self.title, self.branch
            );
        }
        let refspec = format!("refs/heads/{0}:refs/heads/{0}", self.branch);
        let dir = self.repo_dir.clone();
        let pushed = tokio::task::spawn_blocking(move || git(&dir, &["push", "origin", &refspec]))
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        if let Err(e) = pushed {
            return format!(
                "The background agent ({}) for \"{}\" made {commits} commit(s) on {}, but `git push origin {}` \
                 failed: {e}. No pull request was opened.",
                self.task_id, self.title, self.branch, self.branch
            );
        }
        let path = format!("/repos/{}/{}/pulls", self.repo.owner, self.repo.name);
        let body = json!({
            "title": self.title,
            "body": self.body,
            "head": self.branch,
            "base": self.base,
        });
        match self.api.post(&path, &body).await {
            Ok(pr) => {
                let tidied = self.remove_worktree(report).await;
                let url = pr
                    .get("html_url")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let number = pr.get("number").and_then(Value::as_u64).unwrap_or_default();
                format!(
                    "The background agent ({}) finished \"{}\" with {commits} commit(s) on {}; the branch was pushed \
                     and pull request #{number} was opened against {}: {url}{tidied}\nThe agent said: {}",
                    self.task_id,
                    self.title,
                    self.branch,
                    self.base,
                    crate::text::cut_middle(report.final_text.trim(), 2_000, "answer")
                )
            }
            Err(e) => format!(
                "The background agent ({}) for \"{}\" made {commits} commit(s) and {} was pushed to origin, but \
                 the pull request could not be opened: {e}",
                self.task_id, self.title, self.branch
            ),
        }
    }
}

impl Landing {
    /// Removes the agent's worktree once its work is on `origin` (the local branch stays); a worktree with
    /// uncommitted changes is kept. What to add to the notification about it.
    async fn remove_worktree(&self, report: &SubAgentReport) -> String {
        let Some(wt) = report.worktree.as_ref().filter(|wt| wt.kept) else {
            return String::new();
        };
        let (dir, path) = (self.repo_dir.clone(), wt.path.clone());
        let removed = tokio::task::spawn_blocking(move || {
            git(&dir, &["worktree", "remove", &path.to_string_lossy()])
        })
        .await
        .unwrap_or_else(|e| Err(e.to_string()));
        match removed {
            Ok(_) => String::new(),
            Err(_) => format!(
                " (its worktree {} is kept: it has uncommitted changes)",
                wt.path.display()
            ),
        }
    }
}

/// Runs `git args` in `dir`; its output, or its message.
pub fn git(dir: &std::path::Path, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("git could not run: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(if err.is_empty() {
            format!("git {} failed", args.join(" "))
        } else {
            err
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
