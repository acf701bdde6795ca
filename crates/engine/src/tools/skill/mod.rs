//! Skill: gives the model the instructions of one of the session's skills (`catalog`) when it decides the skill
//! fits, or when the person types `/name args`. Until then only names and descriptions are in the system prompt.
//! A skill's `allowed-tools` become session allow rules once it is invoked (the invocation asks first), until the
//! turn ends ([`SkillGrants`]); its `model` answers the rest of the turn ([`TurnModel`]).

pub mod catalog;
mod live;

use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolDetail, ToolKind};

pub use catalog::{SkillCatalog, SkillDefinition, SkillFileIssue, SkillSource};
pub use live::{FoundSkills, LiveSkills};

use crate::model::TurnModel;
use crate::tool::{
    ContextChange, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};

/// The input of Skill.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillInput {
    /// The skill's name, e.g. `pdf` (a leading `/` is ignored).
    pub skill: String,
    /// Arguments for the skill, if it takes any.
    #[serde(default)]
    pub args: Option<String>,
}

/// The allow rules skills granted during the current turn; the session withdraws them when the turn ends (a
/// skill's tools are allowed while it is in use, not for the rest of the session).
#[derive(Debug, Default)]
pub struct SkillGrants(Mutex<Vec<String>>);

impl SkillGrants {
    /// Records rules a skill just granted.
    pub fn record(&self, rules: &[String]) {
        match self.0.lock() {
            Ok(mut granted) => granted.extend_from_slice(rules),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(rules),
        }
    }

    /// The rules granted since the last call.
    pub fn take(&self) -> Vec<String> {
        match self.0.lock() {
            Ok(mut granted) => std::mem::take(&mut *granted),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }
}

/// The Skill tool of a session.
#[derive(Debug)]
pub struct SkillTool {
    catalog: Arc<LiveSkills>,
    grants: Arc<SkillGrants>,
    turn_model: Arc<TurnModel>,
}

impl SkillTool {
    /// The tool for `catalog`, recording what invocations grant in `grants`; a skill naming a model switches the
    /// rest of the turn to it through `turn_model`.
    pub fn new(
        catalog: Arc<LiveSkills>,
        grants: Arc<SkillGrants>,
        turn_model: Arc<TurnModel>,
    ) -> Self {
        Self {
            catalog,
            grants,
            turn_model,
        }
    }
}

/// What the model is given when `skill` is invoked with `args`: its folder and its instructions, `$ARGUMENTS`
/// replaced (or the arguments appended when the body has no placeholder).
pub fn invocation_text(skill: &SkillDefinition, args: Option<&str>) -> String {
    let args = args.map(str::trim).filter(|a| !a.is_empty());
    let mut body = skill.body.clone();
    match args {
        Some(args) if body.contains("$ARGUMENTS") => body = body.replace("$ARGUMENTS", args),
        Some(args) => body.push_str(&format!("\n\nARGUMENTS: {args}")),
        None => body = body.replace("$ARGUMENTS", ""),
    }
    format!(
        "Launching skill: {}\nBase directory for this skill: {}\n\n{body}",
        skill.name,
        skill.dir().display()
    )
}

/// The skill and arguments a prompt such as `/release v1.2` names, if it names one of `catalog`'s skills.
pub fn slash_command<'a>(
    catalog: &'a SkillCatalog,
    prompt: &str,
) -> Option<(&'a SkillDefinition, Option<String>)> {
    let rest = prompt.trim_start().strip_prefix('/')?;
    let (name, args) = match rest.split_once(char::is_whitespace) {
        Some((name, args)) => (
            name,
            Some(args.trim().to_string()).filter(|a| !a.is_empty()),
        ),
        None => (rest.trim(), None),
    };
    catalog.find(name).map(|skill| (skill, args))
}

impl Tool for SkillTool {
    type Input = SkillInput;

    fn name(&self) -> &'static str {
        names::SKILL
    }

    fn description(&self) -> String {
        "Runs a skill: gives you its instructions (and the tools it allows) for the task at hand. The available \
         skills are listed in the system prompt with what each is for; invoke one when the request matches its \
         description, before doing the work yourself. Give its name as `skill` and any arguments as `args`."
            .into()
    }

    fn is_enabled(&self) -> bool {
        // Offered while skills may still be found below the project, so that a nested one can be invoked.
        self.catalog.may_grow() || !self.catalog.snapshot().skills.is_empty()
    }

    fn render_hints(&self, input: &Self::Input, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Skill {}", input.skill.trim_start_matches('/')),
            collapsible: false,
        }
    }

    fn permission_subject(&self, input: &Self::Input, _ctx: &ToolContext) -> PermissionSubject {
        let name = input.skill.trim_start_matches('/').to_string();
        let grants = self
            .catalog
            .snapshot()
            .find(&name)
            .map(|s| s.allowed_tools.clone())
            .unwrap_or_default();
        PermissionSubject::Skill { name, grants }
    }

    async fn validate_input(&self, input: &Self::Input, _ctx: &ToolContext) -> Result<(), String> {
        let catalog = self.catalog.snapshot();
        if catalog.find(&input.skill).is_some() {
            return Ok(());
        }
        let names: Vec<&str> = catalog.skills.iter().map(|s| s.name.as_str()).collect();
        Err(format!(
            "Unknown skill: {}. Available skills: {}",
            input.skill,
            names.join(", ")
        ))
    }

    async fn call(&self, input: &Self::Input, _ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let catalog = self.catalog.snapshot();
        let skill = catalog
            .find(&input.skill)
            .ok_or_else(|| ToolError::to_model(format!("Unknown skill: {}", input.skill)))?;
        // As the person's `/name` does, the instructions reach the model as the person's side of the conversation,
        // after the result; the result only says the skill started.
        let mut output = ToolOutput::text(format!("Launching skill: {}", skill.name))
            .with_new_message(invocation_text(skill, input.args.as_deref()))
            .with_detail(ToolDetail::Skill {
                name: skill.name.clone(),
                path: skill.path.display().to_string(),
                allowed_tools: skill.allowed_tools.clone(),
            });
        if !skill.allowed_tools.is_empty() {
            self.grants.record(&skill.allowed_tools);
            output.context_change = Some(ContextChange::AllowRules(skill.allowed_tools.clone()));
        }
        if skill.model.as_deref().is_some_and(|m| !m.trim().is_empty()) {
            self.turn_model.set(skill.model.as_deref());
        }
        Ok(output)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn skill(body: &str) -> SkillDefinition {
        SkillDefinition {
            name: "release".into(),
            description: "Cut a release".into(),
            allowed_tools: vec!["Bash(git tag *)".into()],
            model: None,
            path: PathBuf::from("/p/.claude/skills/release/SKILL.md"),
            body: body.into(),
            source: SkillSource::Project,
        }
    }

    #[test]
    fn arguments_fill_the_placeholder_or_follow_the_body() {
        let text = invocation_text(&skill("Tag $ARGUMENTS now."), Some("v1.2"));
        assert!(
            text.contains("Tag v1.2 now.") && text.contains("/p/.claude/skills/release"),
            "{text}"
        );
        let text = invocation_text(&skill("Tag it."), Some("v1.2"));
        assert!(text.ends_with("Tag it.\n\nARGUMENTS: v1.2"), "{text}");
        assert!(invocation_text(&skill("Tag $ARGUMENTS."), None).ends_with("Tag ."));
    }

    #[test]
    fn a_slash_prompt_names_a_skill_and_its_arguments() {
        let catalog = SkillCatalog {
            skills: vec![skill("Tag it.")],
            issues: vec![],
        };
        let (found, args) = slash_command(&catalog, "/release  v1.2 now").expect("a skill");
        assert_eq!(
            (found.name.as_str(), args.as_deref()),
            ("release", Some("v1.2 now"))
        );
        assert_eq!(
            slash_command(&catalog, "/release").map(|(_, a)| a),
            Some(None)
        );
        assert!(slash_command(&catalog, "/other x").is_none());
        assert!(slash_command(&catalog, "release x").is_none());
    }
}
