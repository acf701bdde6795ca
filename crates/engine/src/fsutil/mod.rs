//! Low-level file system helpers shared by the file tools, the permission engine and the checkpoint store: atomic
//! writes and lexical paths.

mod atomic;
#[cfg(unix)]
pub mod dir_stat;
mod paths;
pub mod pending;

pub use atomic::{write_atomic, write_atomic_private};
pub use paths::{is_unc, normalise};
