//! What the file tools share: decoding and encoding text files, line endings, notebook cells, atomic writes, the read-state
//! snapshot used for the staleness check, path checks (UNC, devices), what a search could not read, and what the
//! language servers say about a change.

pub mod change;
pub mod diagnostics;
pub mod encoding;
pub mod guards;
pub mod line_endings;
pub mod notebook_cells;
pub mod patch;
pub mod paths;
pub mod preview;
pub mod snapshot;
pub mod unreadable;

pub use crate::fsutil::write_atomic;
pub use encoding::{DecodeError, Encoding, TextFile};
pub use line_endings::LineEnding;
pub use snapshot::{FreshnessError, content_hash, ensure_fresh};
