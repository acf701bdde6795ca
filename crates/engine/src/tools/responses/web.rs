//! WebFetch's result data: the page's size and status, what the model was given from it, and how long it took.

use schemars::JsonSchema;
use serde::Serialize;

/// WebFetch's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebFetchResponse {
    /// The size of the body fetched, in bytes.
    pub bytes: u64,
    /// The HTTP status.
    pub code: u16,
    /// The status's reason phrase.
    pub code_text: String,
    /// What the model was given from the page.
    pub result: String,
    pub duration_ms: u64,
    /// The address fetched.
    pub url: String,
}
