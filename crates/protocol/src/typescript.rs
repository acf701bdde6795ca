//! Renders the TypeScript declarations of every protocol type into one file, `ui/src/generated/protocol.ts`, and
//! holds what both generated files share (the app renders `ui/src/generated/app.ts` the same way): the one command
//! that regenerates them and the check that fails on a stale file.

use ts_rs::{Config, TS};

use crate::*;

/// The one command that regenerates both generated files (it runs each file's staleness test with
/// [`WRITE_ENV`] set).
pub const REGENERATE: &str = "scripts/generate-types";

/// Set (to anything) while the staleness tests run, they write the fresh file instead of failing.
pub const WRITE_ENV: &str = "TANDEM_WRITE_GENERATED";

/// The header written at the top of the generated file.
const HEADER: &str =
    "// Generated from crates/protocol by `scripts/generate-types`. Do not edit.\n";

fn decl<T: TS>(cfg: &Config) -> String {
    format!("export {}\n", T::decl(cfg))
}

/// The whole generated file.
pub fn render() -> String {
    let cfg = Config::default();
    let parts = [
        decl::<PermissionMode>(&cfg),
        decl::<DecisionBehavior>(&cfg),
        decl::<RuleScope>(&cfg),
        decl::<SafetyCheck>(&cfg),
        decl::<DecisionSource>(&cfg),
        decl::<PermissionDecision>(&cfg),
        decl::<RuleRole>(&cfg),
        decl::<TraceCheck>(&cfg),
        decl::<TraceStep>(&cfg),
        decl::<DecisionTrace>(&cfg),
        decl::<RuleListing>(&cfg),
        decl::<RuleFiles>(&cfg),
        decl::<CallCheck>(&cfg),
        decl::<HookListing>(&cfg),
        decl::<PluginCounts>(&cfg),
        decl::<PluginListing>(&cfg),
        decl::<HookTestResult>(&cfg),
        decl::<ToolKind>(&cfg),
        decl::<RenderHints>(&cfg),
        decl::<RuleSuggestion>(&cfg),
        decl::<FileDiff>(&cfg),
        decl::<SubAgentOrigin>(&cfg),
        decl::<ApprovalRequest>(&cfg),
        decl::<ApprovalChoice>(&cfg),
        decl::<ApprovalAnswer>(&cfg),
        decl::<Revision>(&cfg),
        decl::<PlanRequest>(&cfg),
        decl::<PlanChoice>(&cfg),
        decl::<PlanAnswer>(&cfg),
        decl::<QuestionOption>(&cfg),
        decl::<Question>(&cfg),
        decl::<QuestionRequest>(&cfg),
        decl::<QuestionReply>(&cfg),
        decl::<QuestionOutcome>(&cfg),
        decl::<QuestionAnswer>(&cfg),
        decl::<StringFormat>(&cfg),
        decl::<EnumOption>(&cfg),
        decl::<FieldKind>(&cfg),
        decl::<ElicitationField>(&cfg),
        decl::<ElicitationRequest>(&cfg),
        decl::<ElicitationAction>(&cfg),
        decl::<ElicitationAnswer>(&cfg),
        decl::<TodoStatus>(&cfg),
        decl::<TodoItem>(&cfg),
        decl::<TaskItem>(&cfg),
        decl::<KeptWorktree>(&cfg),
        decl::<Usage>(&cfg),
        decl::<ToolCallStatus>(&cfg),
        decl::<ToolOutcome>(&cfg),
        decl::<TurnStopReason>(&cfg),
        decl::<UsageTotals>(&cfg),
        decl::<UsageRow>(&cfg),
        decl::<SessionUsage>(&cfg),
        decl::<ToolCallCost>(&cfg),
        decl::<BudgetPeriod>(&cfg),
        decl::<BudgetAction>(&cfg),
        decl::<BudgetStatus>(&cfg),
        decl::<BudgetLimits>(&cfg),
        decl::<UsageReport>(&cfg),
        decl::<DiffHunk>(&cfg),
        decl::<FileRevision>(&cfg),
        decl::<NotebookCellChange>(&cfg),
        decl::<TaskStatus>(&cfg),
        decl::<ReadContent>(&cfg),
        decl::<WebLink>(&cfg),
        decl::<ToolDetail>(&cfg),
        decl::<SandboxViolation>(&cfg),
        decl::<ToolListing>(&cfg),
        decl::<SlashCommandSource>(&cfg),
        decl::<SlashCommand>(&cfg),
        decl::<MentionKind>(&cfg),
        decl::<MentionCompletion>(&cfg),
        decl::<PromptImage>(&cfg),
        decl::<SessionInfo>(&cfg),
        decl::<FolderTrust>(&cfg),
        decl::<UnreadableSettingsFile>(&cfg),
        decl::<RulesView>(&cfg),
        decl::<SessionSummary>(&cfg),
        decl::<SessionCollection>(&cfg),
        decl::<SearchSnippetPart>(&cfg),
        decl::<SessionSearchHit>(&cfg),
        decl::<RewindScope>(&cfg),
        decl::<RewindPoint>(&cfg),
        decl::<RewindOutcome>(&cfg),
        decl::<ChangedFile>(&cfg),
        decl::<McpServerState>(&cfg),
        decl::<McpServerStatus>(&cfg),
        decl::<McpResourceEntry>(&cfg),
        decl::<BackgroundAgentStatus>(&cfg),
        decl::<BackgroundAgent>(&cfg),
        decl::<BackgroundReason>(&cfg),
        decl::<BackgroundShell>(&cfg),
        decl::<TerminalChunk>(&cfg),
        decl::<TerminalOpened>(&cfg),
        decl::<TeamMemberStatus>(&cfg),
        decl::<TeamMember>(&cfg),
        decl::<TeamInfo>(&cfg),
        decl::<BriefStatus>(&cfg),
        decl::<ScheduledPrompt>(&cfg),
        decl::<Theme>(&cfg),
        decl::<KeySource>(&cfg),
        decl::<AppSettings>(&cfg),
        decl::<AppSettingsUpdate>(&cfg),
        decl::<SessionEvent>(&cfg),
        decl::<EventEnvelope>(&cfg),
        decl::<EventBatch>(&cfg),
    ];
    let mut out = String::from(HEADER);
    for part in parts {
        out.push('\n');
        out.push_str(&part);
    }
    out
}

/// Path of the generated file relative to the workspace root.
pub const GENERATED_PATH: &str = "ui/src/generated/protocol.ts";

/// The staleness check of a generated file at `path` whose fresh content is `fresh`: with [`WRITE_ENV`] set it
/// writes `fresh` (to a temporary file, then renamed) and passes; otherwise `Err` names the stale file and the
/// command that regenerates it.
pub fn check_or_write(path: &std::path::Path, fresh: &str) -> Result<(), String> {
    check_or_write_as(path, fresh, std::env::var_os(WRITE_ENV).is_some())
}

fn check_or_write_as(path: &std::path::Path, fresh: &str, write: bool) -> Result<(), String> {
    if write {
        let temporary = path.with_extension("ts.tmp");
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&temporary, fresh))
            .and_then(|()| std::fs::rename(&temporary, path));
        return written.map_err(|e| format!("could not write {}: {e}", path.display()));
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    if on_disk == fresh {
        Ok(())
    } else {
        Err(format!("{} is stale: run `{REGENERATE}`", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_file_fails_naming_the_command_until_it_is_written() {
        let dir = std::env::temp_dir().join(format!("tandem-ts-check-{}", std::process::id()));
        let path = dir.join("generated").join("x.ts");
        let missing = check_or_write_as(&path, "new", false).expect_err("missing");
        assert!(
            missing.contains("is stale") && missing.contains(REGENERATE),
            "{missing}"
        );
        check_or_write_as(&path, "old", true).expect("written");
        let stale = check_or_write_as(&path, "new", false).expect_err("stale");
        assert!(stale.contains(REGENERATE), "{stale}");
        check_or_write_as(&path, "old", false).expect("fresh");
        check_or_write_as(&path, "new", true).expect("rewritten");
        check_or_write_as(&path, "new", false).expect("fresh again");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
