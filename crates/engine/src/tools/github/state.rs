//! What SubscribePR knows of a pull request, read from the REST API's answers (the pull request, its reviews, its
//! review comments, its conversation comments, the check runs of its head commit), and the changes between two
//! readings in words.

use std::collections::BTreeMap;

use serde_json::Value;

/// The most characters of a comment or review body a change carries.
const MAX_BODY_CHARS: usize = 500;

/// A comment or review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remark {
    pub user: String,
    /// A review's state (`APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`); a review comment's file.
    pub detail: String,
    pub body: String,
}

/// A check run of the head commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub name: String,
    /// `None` while it runs.
    pub conclusion: Option<String>,
}

/// A pull request at one reading.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot {
    pub title: String,
    /// `open` or `closed`.
    pub state: String,
    pub merged: bool,
    pub head_sha: String,
    pub html_url: String,
    pub reviews: BTreeMap<u64, Remark>,
    pub review_comments: BTreeMap<u64, Remark>,
    pub issue_comments: BTreeMap<u64, Remark>,
    pub checks: BTreeMap<u64, Check>,
}

fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn user(value: &Value) -> String {
    value
        .get("user")
        .map(|u| text(u, "login"))
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| "someone".to_string())
}

/// The items of a list answer by id, made by `make`.
fn by_id<T>(list: &Value, make: impl Fn(&Value) -> T) -> BTreeMap<u64, T> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| Some((item.get("id")?.as_u64()?, make(item))))
        .collect()
}

impl Snapshot {
    /// A reading from the answers to `GET /pulls/{n}`, `/pulls/{n}/reviews`, `/pulls/{n}/comments`,
    /// `/issues/{n}/comments` and `/commits/{sha}/check-runs`. `Err`: the pull request's answer is not one.
    pub fn read(
        pr: &Value,
        reviews: &Value,
        review_comments: &Value,
        issue_comments: &Value,
        check_runs: &Value,
    ) -> Result<Self, String> {
        let head_sha = pr
            .get("head")
            .map(|h| text(h, "sha"))
            .filter(|s| !s.is_empty())
            .ok_or("the pull request's answer has no head commit")?;
        Ok(Self {
            title: text(pr, "title"),
            state: text(pr, "state"),
            merged: pr.get("merged").and_then(Value::as_bool).unwrap_or(false)
                || pr.get("merged_at").is_some_and(|m| !m.is_null()),
            head_sha,
            html_url: text(pr, "html_url"),
            reviews: by_id(reviews, |r| Remark {
                user: user(r),
                detail: text(r, "state"),
                body: text(r, "body"),
            }),
            review_comments: by_id(review_comments, |c| Remark {
                user: user(c),
                detail: text(c, "path"),
                body: text(c, "body"),
            }),
            issue_comments: by_id(issue_comments, |c| Remark {
                user: user(c),
                detail: String::new(),
                body: text(c, "body"),
            }),
            checks: by_id(check_runs.get("check_runs").unwrap_or(&Value::Null), |c| {
                Check {
                    name: text(c, "name"),
                    conclusion: c
                        .get("conclusion")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                }
            }),
        })
    }

    /// Whether the pull request is merged or closed (nothing more will happen to watch).
    pub fn is_finished(&self) -> bool {
        self.merged || self.state == "closed"
    }

    /// One line on where it stands.
    pub fn summary(&self) -> String {
        let state = if self.merged {
            "merged"
        } else {
            self.state.as_str()
        };
        let pending = self
            .checks
            .values()
            .filter(|c| c.conclusion.is_none())
            .count();
        format!(
            "\"{}\" is {state}; head {}; {} reviews, {} review comments, {} comments; {} check runs ({pending} running)",
            self.title,
            short(&self.head_sha),
            self.reviews.len(),
            self.review_comments.len(),
            self.issue_comments.len(),
            self.checks.len()
        )
    }
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

fn body(remark: &Remark) -> String {
    let trimmed = remark.body.trim();
    if trimmed.is_empty() {
        return String::new();
    }
    format!(
        ": {}",
        crate::text::cut_middle(trimmed, MAX_BODY_CHARS, "comment")
    )
}

/// What changed from `before` to `after`, one line each (empty: nothing worth waking for).
pub fn changes(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    if after.head_sha != before.head_sha {
        out.push(format!(
            "New commits: the head is now {} (was {}).",
            short(&after.head_sha),
            short(&before.head_sha)
        ));
    }
    for (id, review) in &after.reviews {
        if !before.reviews.contains_key(id) {
            out.push(format!(
                "Review by @{} ({}){}",
                review.user,
                review.detail,
                body(review)
            ));
        }
    }
    for (id, comment) in &after.review_comments {
        if !before.review_comments.contains_key(id) {
            out.push(format!(
                "Review comment by @{} on {}{}",
                comment.user,
                comment.detail,
                body(comment)
            ));
        }
    }
    for (id, comment) in &after.issue_comments {
        if !before.issue_comments.contains_key(id) {
            out.push(format!("Comment by @{}{}", comment.user, body(comment)));
        }
    }
    for (id, check) in &after.checks {
        let was = before.checks.get(id).and_then(|c| c.conclusion.as_deref());
        if let Some(conclusion) = check.conclusion.as_deref()
            && was != Some(conclusion)
        {
            out.push(format!(
                "Check run `{}` concluded: {conclusion}.",
                check.name
            ));
        }
    }
    if after.merged && !before.merged {
        out.push("The pull request was merged.".to_string());
    } else if after.state == "closed" && before.state != "closed" {
        out.push("The pull request was closed without merging.".to_string());
    } else if after.state == "open" && before.state == "closed" {
        out.push("The pull request was reopened.".to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reading(
        pr: Value,
        reviews: Value,
        comments: Value,
        issue: Value,
        checks: Value,
    ) -> Snapshot {
        Snapshot::read(&pr, &reviews, &comments, &issue, &checks).expect("reading")
    }

    fn pr(state: &str, merged: bool, sha: &str) -> Value {
        json!({"title": "Fix", "state": state, "merged": merged, "head": {"sha": sha}})
    }

    #[test]
    fn each_kind_of_change_is_named() {
        let none = json!([]);
        let no_checks = json!({"check_runs": []});
        let before = reading(
            pr("open", false, "aaaaaaa1"),
            none.clone(),
            none.clone(),
            none.clone(),
            json!({"check_runs": [{"id": 1, "name": "ci", "conclusion": null}]}),
        );
        let cases: &[(Snapshot, &str)] = &[
            (before.clone(), ""),
            (
                reading(
                    pr("open", false, "aaaaaaa1"),
                    json!([{"id": 5, "user": {"login": "ann"}, "state": "APPROVED", "body": "ship it"}]),
                    none.clone(),
                    none.clone(),
                    json!({"check_runs": [{"id": 1, "name": "ci", "conclusion": null}]}),
                ),
                "Review by @ann (APPROVED): ship it",
            ),
            (
                reading(
                    pr("open", false, "aaaaaaa1"),
                    none.clone(),
                    json!([{"id": 6, "user": {"login": "bo"}, "path": "src/a.rs", "body": "typo"}]),
                    none.clone(),
                    json!({"check_runs": [{"id": 1, "name": "ci", "conclusion": null}]}),
                ),
                "Review comment by @bo on src/a.rs: typo",
            ),
            (
                reading(
                    pr("open", false, "aaaaaaa1"),
                    none.clone(),
                    none.clone(),
                    json!([{"id": 7, "user": {"login": "cy"}, "body": "when?"}]),
                    json!({"check_runs": [{"id": 1, "name": "ci", "conclusion": null}]}),
                ),
                "Comment by @cy: when?",
            ),
            (
                reading(
                    pr("open", false, "aaaaaaa1"),
                    none.clone(),
                    none.clone(),
                    none.clone(),
                    json!({"check_runs": [{"id": 1, "name": "ci", "conclusion": "failure"}]}),
                ),
                "Check run `ci` concluded: failure.",
            ),
            (
                reading(
                    pr("closed", true, "aaaaaaa1"),
                    none.clone(),
                    none.clone(),
                    none.clone(),
                    no_checks.clone(),
                ),
                "The pull request was merged.",
            ),
            (
                reading(
                    pr("closed", false, "aaaaaaa1"),
                    none.clone(),
                    none.clone(),
                    none.clone(),
                    no_checks.clone(),
                ),
                "The pull request was closed without merging.",
            ),
            (
                reading(
                    pr("open", false, "bbbbbbb2"),
                    none.clone(),
                    none.clone(),
                    none.clone(),
                    no_checks.clone(),
                ),
                "New commits: the head is now bbbbbbb (was aaaaaaa).",
            ),
        ];
        for (after, want) in cases {
            let got = changes(&before, after).join("\n");
            assert_eq!(got, *want);
        }
        assert!(Snapshot::read(&json!({}), &none, &none, &none, &no_checks).is_err());
    }
}
