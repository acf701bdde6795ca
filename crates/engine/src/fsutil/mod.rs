//! Low-level file system helpers shared by the file tools and the checkpoint store.

mod atomic;
#[cfg(unix)]
pub mod dir_stat;

pub use atomic::write_atomic;
