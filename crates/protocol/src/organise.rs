//! How the person organises a folder's sessions in the window: collections (shown as folders), nested.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A collection of a project folder's sessions (the sidebar shows it as a folder); collections nest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionCollection {
    #[ts(type = "number")]
    pub id: i64,
    /// The collection it is in; `None`: the top level.
    #[ts(type = "number | null")]
    pub parent_id: Option<i64>,
    pub name: String,
}
