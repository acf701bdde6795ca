//! What one Agent call may ask for besides its type: a permission mode for the sub-agent (never more permissive than
//! the caller's own), a folder to work in (inside the working directories), and whether it can run remotely.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::PermissionMode;

/// A permission mode a sub-agent may be started in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum AgentMode {
    Default,
    AcceptEdits,
    Plan,
    DontAsk,
    BypassPermissions,
}

impl AgentMode {
    pub fn permission_mode(self) -> PermissionMode {
        match self {
            Self::Default => PermissionMode::Default,
            Self::AcceptEdits => PermissionMode::AcceptEdits,
            Self::Plan => PermissionMode::Plan,
            Self::DontAsk => PermissionMode::DontAsk,
            Self::BypassPermissions => PermissionMode::BypassPermissions,
        }
    }
}

/// Whether a caller in mode `caller` may start a sub-agent in mode `asked`: the stricter modes (plan, don't ask,
/// default) always; the caller's own mode; accept edits from bypass. Anything else would let the model widen its
/// own permissions.
pub fn mode_allowed(asked: PermissionMode, caller: PermissionMode) -> bool {
    matches!(
        asked,
        PermissionMode::Plan | PermissionMode::DontAsk | PermissionMode::Default
    ) || asked == caller
        || (asked == PermissionMode::AcceptEdits && caller == PermissionMode::BypassPermissions)
}

/// The folder `asked` (absolute, or relative to `cwd`) as a sub-agent's working folder: an existing folder inside
/// one of `working_dirs` (symbolic links resolved), or why not.
pub fn working_folder(
    asked: &str,
    cwd: &Path,
    working_dirs: &[PathBuf],
) -> Result<PathBuf, String> {
    let path = cwd.join(asked);
    let folder =
        std::fs::canonicalize(&path).map_err(|e| format!("cwd {}: {e}", path.display()))?;
    if !folder.is_dir() {
        return Err(format!("cwd {} is not a folder", folder.display()));
    }
    let inside = working_dirs.iter().any(|dir| {
        std::fs::canonicalize(dir)
            .map(|dir| folder.starts_with(dir))
            .unwrap_or(false)
    });
    if !inside {
        return Err(format!(
            "cwd {} is outside the working directories; a sub-agent works inside them",
            folder.display()
        ));
    }
    Ok(folder)
}

/// Whether an `isolation: "remote"` call can run: a host is configured (`host`), and it asks for nothing a remote
/// agent cannot have (a fork of this conversation, a folder or a mode of this machine, a team seat). `Err` says
/// what to change — without a host, which setting to add.
pub fn remote_allowed(
    input: &super::AgentInput,
    kind: &str,
    host: Option<&str>,
) -> Result<(), String> {
    if host.is_none() {
        return Err(format!(
            "isolation \"remote\" needs a remote machine: add \"{}\": \"ssh://user@host/absolute/path\" to a settings \
             file (.claude/settings.local.json or ~/.claude/settings.json); until then run the agent here",
            crate::settings::REMOTE_AGENT_HOST_KEY
        ));
    }
    if kind == super::FORK {
        return Err(
            "a fork starts from this conversation and runs here; it cannot be remote".into(),
        );
    }
    if input.cwd.is_some() || input.mode.is_some() {
        return Err(
            "a remote agent works in the remote machine's folder under that Tandem's own mode; leave out cwd and mode"
                .into(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sub_agent_is_never_more_permissive_than_its_caller() {
        use PermissionMode::*;
        for (asked, caller, allowed) in [
            (Plan, Default, true),
            (DontAsk, Default, true),
            (Default, AcceptEdits, true),
            (Default, Plan, true),
            (AcceptEdits, Default, false),
            (AcceptEdits, AcceptEdits, true),
            (AcceptEdits, BypassPermissions, true),
            (AcceptEdits, Plan, false),
            (BypassPermissions, Default, false),
            (BypassPermissions, AcceptEdits, false),
            (BypassPermissions, BypassPermissions, true),
            (AcceptEdits, Auto, false),
        ] {
            assert_eq!(
                mode_allowed(asked, caller),
                allowed,
                "{asked:?} from {caller:?}"
            );
        }
    }

    #[test]
    fn the_folder_must_exist_inside_the_working_directories() {
        let root = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(root.path().join("pkg/web")).expect("dirs");
        std::fs::write(root.path().join("file.txt"), "x").expect("file");
        let dirs = vec![root.path().to_path_buf()];
        let ok = working_folder("pkg/web", root.path(), &dirs).expect("inside");
        assert!(ok.ends_with("pkg/web"));
        assert!(
            working_folder(
                &root.path().join("pkg").display().to_string(),
                Path::new("/"),
                &dirs
            )
            .is_ok()
        );
        for (asked, why) in [
            ("missing", "No such file"),
            ("file.txt", "not a folder"),
            ("..", "outside the working directories"),
            (
                outside.path().to_str().expect("utf-8"),
                "outside the working directories",
            ),
        ] {
            let err = working_folder(asked, root.path(), &dirs).expect_err(asked);
            assert!(err.contains(why), "{asked}: {err}");
        }
    }
}
