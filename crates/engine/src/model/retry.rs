//! When and how long to wait before retrying a model request.

use std::time::Duration;

use rand::Rng;

/// Retry policy: which failures to retry, how often, the backoff, and the deadlines every attempt and every
/// response must keep, so that no wait on the model is endless (a server that never answers, one that is retried for
/// ever, or one that sends keep-alive pings and no content).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Longest server-requested wait that is honoured.
    pub max_retry_after: Duration,
    /// Time one attempt may take to get the response headers (then it fails and may be retried).
    pub headers_timeout: Duration,
    /// Time all attempts of one request, and the waits between them, may take to get a response: then the request
    /// fails, however many retries are left.
    pub give_up_after: Duration,
    /// Time a whole response may take to stream, from its headers to its end.
    pub response_timeout: Duration,
    /// Time a response may go without content (keep-alive pings are not content).
    pub content_timeout: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 8,
            max_retry_after: Duration::from_secs(60),
            headers_timeout: Duration::from_secs(90),
            give_up_after: Duration::from_secs(5 * 60),
            response_timeout: Duration::from_secs(30 * 60),
            content_timeout: Duration::from_secs(5 * 60),
        }
    }
}

/// Whether an HTTP status should be retried, given the `x-should-retry` header.
pub fn status_is_retryable(status: u16, should_retry: Option<bool>) -> bool {
    match should_retry {
        Some(answer) => answer,
        None => matches!(status, 408 | 409 | 429) || status >= 500,
    }
}

/// Parses `retry-after-ms` / `retry-after` (seconds) header values.
pub fn retry_after(retry_after_ms: Option<&str>, retry_after: Option<&str>) -> Option<Duration> {
    if let Some(ms) = retry_after_ms
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| *v >= 0.0)
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    retry_after
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| *v >= 0.0)
        .map(Duration::from_secs_f64)
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (0-based): the server's wait when given and not over the cap, else
    /// `min(0.5·2^n, 8) s` less up to 25 % jitter.
    pub fn delay(&self, attempt: u32, server_wait: Option<Duration>) -> Duration {
        if let Some(wait) = server_wait.filter(|w| *w <= self.max_retry_after) {
            return wait;
        }
        let base = (0.5 * 2f64.powi(attempt.min(16) as i32)).min(8.0);
        let jitter = rand::rng().random_range(0.0..0.25);
        Duration::from_secs_f64(base * (1.0 - jitter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses() {
        for s in [408, 409, 429, 500, 502, 529] {
            assert!(status_is_retryable(s, None), "{s}");
        }
        for s in [400, 401, 403, 404, 413] {
            assert!(!status_is_retryable(s, None), "{s}");
        }
        assert!(status_is_retryable(400, Some(true)));
        assert!(!status_is_retryable(529, Some(false)));
    }

    #[test]
    fn delays() {
        let p = RetryPolicy::default();
        assert_eq!(
            p.delay(0, Some(Duration::from_millis(1200))),
            Duration::from_millis(1200)
        );
        let d = p.delay(3, Some(Duration::from_secs(3600)));
        assert!(
            d <= Duration::from_secs(4) && d >= Duration::from_secs(3),
            "{d:?}"
        );
        assert!(p.delay(10, None) <= Duration::from_secs(8));
        assert_eq!(
            retry_after(Some("250"), Some("9")),
            Some(Duration::from_millis(250))
        );
        assert_eq!(retry_after(None, Some("2")), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(None, Some("soon")), None);
    }
}
