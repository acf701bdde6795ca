//! The far side's `agentInfo` checked at `initialize`: it must be Tandem, and no older than [`MINIMUM`].

use crate::hosted::AgentInfo;

use super::ssh::install_command;
use crate::ssh::Target;

/// The oldest Tandem whose `tandem acp` this one drives as a remote (the first with `agentInfo` and the remote path).
pub const MINIMUM: &str = "0.1.0";

/// `major.minor.patch` of a version (a pre-release or build suffix ignored); `None` if it is not one.
pub(super) fn numbers(version: &str) -> Option<(u64, u64, u64)> {
    let core = version.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let numbers = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(numbers)
}

/// Whether `info` (from `target`) is a Tandem at least `minimum`; `Err` is the message, naming the host and the
/// command that installs this Tandem there.
pub fn accept(target: &Target, minimum: &str, info: Option<&AgentInfo>) -> Result<(), String> {
    let host = target.label();
    let install = install_command(target);
    let Some(info) = info.filter(|i| i.name == "tandem") else {
        let named = info
            .map(|i| format!(" (it says it is `{}`)", i.name))
            .unwrap_or_default();
        return Err(format!(
            "what runs as `tandem acp` on {host} is not Tandem{named}; install this one there with:\n  {install}"
        ));
    };
    match (numbers(&info.version), numbers(minimum)) {
        (Some(theirs), Some(least)) if theirs >= least => Ok(()),
        _ => Err(format!(
            "Tandem on {host} is version {}, older than {minimum}, which this Tandem needs there; install this one \
             there with:\n  {install}",
            info.version
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_at_or_above_the_minimum_pass_and_the_rest_name_the_install() {
        let target = Target::parse("ssh://ann@box/p").expect("parse");
        let info = |name: &str, version: &str| AgentInfo {
            name: name.into(),
            version: version.into(),
        };
        let table = [
            (Some(info("tandem", "0.2.0")), "0.2.0", true),
            (Some(info("tandem", "0.10.0")), "0.2.0", true),
            (Some(info("tandem", "1.0.0-beta.1")), "0.9.9", true),
            (Some(info("tandem", "0.1.9")), "0.2.0", false),
            (Some(info("tandem", "0.2")), "0.2.0", false),
            (Some(info("tandem", "new")), "0.2.0", false),
            (Some(info("claude-code", "9.0.0")), "0.2.0", false),
            (None, "0.2.0", false),
        ];
        for (info, minimum, passes) in table {
            let answer = accept(&target, minimum, info.as_ref());
            assert_eq!(
                answer.is_ok(),
                passes,
                "{info:?} against {minimum}: {answer:?}"
            );
            if let Err(message) = answer {
                assert!(
                    message.contains("ann@box") && message.contains("ssh ann@box 'mkdir"),
                    "{message}"
                );
            }
        }
        assert!(
            accept(
                &target,
                MINIMUM,
                Some(&info("tandem", env!("CARGO_PKG_VERSION")))
            )
            .is_ok()
        );
    }
}
