//! Renders the TypeScript declarations of every protocol type into one file, `ui/src/generated/protocol.ts`.

use ts_rs::{Config, TS};

use crate::*;

/// The header written at the top of the generated file.
const HEADER: &str = "// Generated from crates/protocol by `cargo run -p tandem-protocol --bin gen-ts`. Do not edit.\n";

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
        decl::<SessionInfo>(&cfg),
        decl::<FolderTrust>(&cfg),
        decl::<UnreadableSettingsFile>(&cfg),
        decl::<RulesView>(&cfg),
        decl::<SessionSummary>(&cfg),
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
        decl::<TeamMemberStatus>(&cfg),
        decl::<TeamMember>(&cfg),
        decl::<TeamInfo>(&cfg),
        decl::<BriefStatus>(&cfg),
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
