//! Whether a plugin is on, from the `enabledPlugins` entries of every settings source: the highest-priority source
//! that names the plugin decides (local over project over user, with the managed policy and `--settings` files
//! above them all). A plugin no source names is off. Its hooks and servers are treated as coming from the source
//! that turned it on — from a source of the person's own (user settings, a `--settings` file, the policy) when one of
//! those turns it on, else from the project's file — so that a plugin only the project turns on waits for the
//! folder's trust as the project's own hooks do.

use crate::settings::{PluginSwitch, RuleSource};

/// What the settings say about one plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub enabled: bool,
    /// The source whose entry decides; `None` when no source names the plugin.
    pub decided_by: Option<RuleSource>,
    /// The source its hooks and servers count as coming from (when it is on).
    pub trust_source: Option<RuleSource>,
}

/// The decision for plugin `id` from `switches` (in priority order, highest first).
pub fn decide(id: &str, switches: &[PluginSwitch]) -> Decision {
    let mine: Vec<&PluginSwitch> = switches.iter().filter(|s| s.id == id).collect();
    let Some(first) = mine.first() else {
        return Decision {
            enabled: false,
            decided_by: None,
            trust_source: None,
        };
    };
    let trust_source = first.on.then(|| {
        mine.iter()
            .filter(|s| s.on && !s.source.is_project_level())
            .map(|s| s.source.clone())
            .next()
            .unwrap_or_else(|| first.source.clone())
    });
    Decision {
        enabled: first.on,
        decided_by: Some(first.source.clone()),
        trust_source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn switch(id: &str, on: bool, source: &RuleSource) -> PluginSwitch {
        PluginSwitch {
            id: id.into(),
            on,
            source: source.clone(),
        }
    }

    /// Switches in priority order, then: enabled, decided by, trusted as.
    type Row<'a> = (
        Vec<PluginSwitch>,
        bool,
        Option<&'a RuleSource>,
        Option<&'a RuleSource>,
    );

    #[test]
    fn the_highest_source_decides_and_the_persons_own_source_is_trusted() {
        let local = RuleSource::Local(PathBuf::from("/p/.claude/settings.local.json"));
        let project = RuleSource::Project(PathBuf::from("/p/.claude/settings.json"));
        let user = RuleSource::User(PathBuf::from("/h/.claude/settings.json"));
        let table: Vec<Row> = vec![
            (vec![], false, None, None),
            (
                vec![switch("p@m", true, &user)],
                true,
                Some(&user),
                Some(&user),
            ),
            (
                vec![switch("p@m", true, &project)],
                true,
                Some(&project),
                Some(&project),
            ),
            (
                vec![switch("p@m", true, &project), switch("p@m", true, &user)],
                true,
                Some(&project),
                Some(&user),
            ),
            (
                vec![switch("p@m", false, &local), switch("p@m", true, &user)],
                false,
                Some(&local),
                None,
            ),
            (
                vec![switch("p@m", true, &local), switch("p@m", false, &user)],
                true,
                Some(&local),
                Some(&local),
            ),
            (vec![switch("other@m", true, &user)], false, None, None),
        ];
        for (switches, enabled, decided_by, trusted_as) in table {
            let d = decide("p@m", &switches);
            assert_eq!(d.enabled, enabled, "{switches:?}");
            assert_eq!(d.decided_by.as_ref(), decided_by, "{switches:?}");
            assert_eq!(d.trust_source.as_ref(), trusted_as, "{switches:?}");
        }
    }
}
