//! Low-level file system helpers shared by the file tools, the permission engine and the checkpoint store: atomic
//! writes, lexical paths, private secret maps and keeping personal files out of git.

mod atomic;
#[cfg(unix)]
pub mod dir_stat;
mod git_exclude;
mod paths;
pub mod pending;
mod secret_map;

pub use atomic::{write_atomic, write_atomic_private};
pub use git_exclude::keep_out_of_git;
pub use paths::{is_unc, normalise};
pub use secret_map::{NO_KEYRING_ENV, SecretMapError, SecretMapFile, keyring_wanted};
