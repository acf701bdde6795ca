//! Low-level file system helpers shared by the file tools, the permission engine and the checkpoint store: atomic
//! writes, folder locks across processes, lexical paths, private secret maps and keeping personal files out of git.

mod atomic;
mod data_dir;
#[cfg(unix)]
pub mod dir_stat;
mod folder_lock;
mod git_exclude;
mod paths;
pub mod pending;
mod program;
mod secret_map;
mod settings_size;

pub use atomic::{write_atomic, write_atomic_private};
pub use data_dir::{app_data_dir, app_data_dir_or_temp, move_app_data};
pub use folder_lock::{FolderLock, FolderLockError, LOCK_WAIT};
pub use git_exclude::keep_out_of_git;
pub use paths::{is_unc, normalise, resolve_path, under_home};
pub use program::find_program;
pub use secret_map::{NO_KEYRING_ENV, SecretMapError, SecretMapFile, keyring_wanted};
pub use settings_size::{MAX_SETTINGS_BYTES, too_large};
