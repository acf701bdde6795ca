//! Low-level file system helpers shared by the file tools and the checkpoint store.

mod atomic;

pub use atomic::write_atomic;
