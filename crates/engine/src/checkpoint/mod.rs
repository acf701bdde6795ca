//! File checkpoints: before a tool changes a file, its previous content is kept in the session's content-addressed
//! store, grouped by the prompt during which the change happened. The files can then be rewound to how they were
//! before any earlier prompt. A file watcher marks files that changed outside Tandem since Tandem last wrote them;
//! a rewind never overwrites such a change silently: it reports it and needs an explicit `force`.

mod blobs;
mod history;
mod journal;
mod store;
mod watcher;

pub use journal::{CheckpointInfo, Version};
pub use store::{CheckpointError, CheckpointStore, Original, RewindReport};
