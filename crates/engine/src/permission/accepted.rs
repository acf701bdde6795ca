//! The person's acceptance of running without a settings file that could not be read, tied to the file's state.

use crate::settings::FileState;

/// A settings file the person accepted running without, as it was on disk then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedSettings {
    pub file: String,
    pub state: FileState,
}
