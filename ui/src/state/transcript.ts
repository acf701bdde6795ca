// The transcript model the UI renders: what a session has shown so far, built by folding its events
// (see reduce.ts). Plain immutable data; an item object is replaced whenever it changes.
import type {
  BackgroundAgent,
  BackgroundShell,
  BriefStatus,
  ScheduledPrompt,
  BudgetStatus,
  EventEnvelope,
  McpServerStatus,
  ApprovalRequest,
  PermissionDecision,
  PermissionMode,
  PlanRequest,
  PromptImage,
  QuestionRequest,
  ElicitationRequest,
  RenderHints,
  SandboxViolation,
  TaskItem,
  TeamInfo,
  TodoItem,
  ToolCallStatus,
  ToolDetail,
  ToolOutcome,
  TurnStopReason,
  UnreadableSettingsFile,
  Usage,
} from '../generated/protocol';

export type ToolResult = {
  outcome: ToolOutcome;
  content: string;
  /** Structured data about the result (a file change, a shell run, a read, ...), switched on by its tag. */
  detail: ToolDetail | null;
};

export type ToolCall = {
  /** The model's tool_use_id. */
  id: string;
  name: string;
  /** Null until the input block is complete. */
  input: unknown;
  hints: RenderHints | null;
  status: ToolCallStatus;
  decision: PermissionDecision | null;
  /** Whether the call waited for the user's approval. */
  asked: boolean;
  /** Progress text so far (e.g. shell output), appended. */
  progress: string;
  result: ToolResult | null;
  /** For a call that started a sub-agent: the sub-agent's own conversation, as it streams. */
  subAgent?: { agentId: string; transcript: Transcript };
  /** For a call that started several agents at once (a team): the conversations after the first, in order. */
  otherAgents?: readonly { agentId: string; transcript: Transcript }[];
  /** What the shell sandbox refused the call, each once. */
  violations?: SandboxViolation[];
  /** For a call that runs other calls (a REPL program's functions, a workflow's steps): those calls, with ids
   * `<this id>/<n>`, as a transcript of their own. */
  inner?: Transcript;
};

export type TranscriptItem =
  /** A prompt; `promptId` names it for a rewind (absent in sessions stored before prompts had ids); `images`: the
   * images it carried, as the model was given them. */
  | { kind: 'user'; key: string; text: string; promptId?: string; images?: readonly PromptImage[] }
  | { kind: 'assistant'; key: string; text: string }
  | { kind: 'thinking'; key: string; text: string }
  /** `seq`: the event the call started at (absent in a sub-agent's transcript). */
  | { kind: 'tool'; key: string; call: ToolCall; seq?: number }
  | { kind: 'error'; key: string; message: string }
  | { kind: 'notice'; key: string; message: string }
  /** The agent's brief for the person (the Brief tool), shown apart from its answers. */
  | { kind: 'brief'; key: string; message: string; status: BriefStatus }
  /** A file the agent handed the person (SendUserFile), with buttons to open it and show it in its folder. */
  | { kind: 'user_file'; key: string; path: string; bytes: number; caption?: string }
  /** A desktop notification the agent asked for (PushNotification), also kept in the transcript. */
  | { kind: 'push_notification'; key: string; title: string; message: string }
  /** A wait before the model request is tried again; `settled` once something came after it (the retried
   * request answered, or failed for good). */
  | { kind: 'retry'; key: string; attempt: number; waitMs: number; reason: string; settled?: boolean }
  /** A turn that ended other than normally (interrupted, max tokens, ...). */
  | { kind: 'turn_end'; key: string; stopReason: TurnStopReason };

/** The last budget warning of the session: the budget, what was spent, whether the budget itself was reached. */
export type BudgetWarning = { status: BudgetStatus; reached: boolean };

export type UsageTotals = {
  turn: Usage;
  session: Usage;
  costUsd: number;
};

export type Transcript = {
  /** Events of any other session are ignored once this is set. */
  sessionId: string | null;
  /**
   * The `seq` of the last event folded in. A session's events are numbered 0, 1, 2, … without gaps and are folded
   * strictly in that order: an event at or below it is a duplicate.
   */
  lastSeq: number;
  /**
   * Events that arrived after a gap (some event between `lastSeq` and them has not), in `seq` order, held until
   * the gap is filled. Not empty means events are missing: the window asks the backend for them.
   */
  pending: readonly EventEnvelope[];
  items: readonly TranscriptItem[];
  /** tool_use_id -> index of its item in `items`. */
  toolIndex: Readonly<Record<string, number>>;
  /** Approval requests not yet resolved, oldest first. */
  approvals: readonly ApprovalRequest[];
  /** Plans waiting for the person's review, oldest first. */
  planReviews: readonly PlanRequest[];
  /** The agent's questions waiting for answers, oldest first. */
  questions: readonly QuestionRequest[];
  /** MCP servers' forms waiting for the person, oldest first. */
  forms: readonly ElicitationRequest[];
  /** The agent's checklist as it last reported it (TodoWrite or the task tools). */
  todos: readonly TodoItem[];
  tasks: readonly TaskItem[];
  /** The background agents started in this session, in the order they started, each in its last known state. */
  backgroundAgents: readonly BackgroundAgent[];
  /** The background shells of this session (sub-agents' included), in the order they started, each in its last known state. */
  backgroundShells: readonly BackgroundShell[];
  /** The agent teams of this session, in the order they were created, each as last announced. */
  teams: readonly TeamInfo[];
  /** The session's MCP servers as the engine last reported them, by name. */
  mcpServers: Readonly<Record<string, McpServerStatus>>;
  /** The settings files that could not be read or parsed, as the engine last reported them. */
  unreadableSettings: readonly UnreadableSettingsFile[];
  /** The project's scheduled prompts, as the engine last listed them. */
  scheduledPrompts: readonly ScheduledPrompt[];
  /** How many desktop notifications the agent asked for (PushNotification): what changes when one more comes. */
  pushes: number;
  /** Whether a turn is running. */
  running: boolean;
  /**
   * How many turns have ended: what changes when one ends, even when its start and end arrived in one batch
   * (a fast turn, a refused prompt) and `running` never showed true.
   */
  turnsEnded: number;
  usage: UsageTotals | null;
  /** The last budget warning (`budget_warning`), shown in the status bar. */
  budget: BudgetWarning | null;
  lastStopReason: TurnStopReason | null;
  /** The permission mode the engine last reported (`mode_changed`), if it reported one. */
  mode: PermissionMode | null;
  /** The model the engine last switched to (`model_changed`, after `/model name`), if it switched. */
  model: string | null;
};

export function emptyTranscript(sessionId: string | null = null): Transcript {
  return {
    sessionId,
    lastSeq: -1,
    pending: [],
    items: [],
    toolIndex: {},
    approvals: [],
    planReviews: [],
    questions: [],
    forms: [],
    todos: [],
    tasks: [],
    backgroundAgents: [],
    backgroundShells: [],
    teams: [],
    mcpServers: {},
    unreadableSettings: [],
    scheduledPrompts: [],
    pushes: 0,
    running: false,
    turnsEnded: 0,
    usage: null,
    budget: null,
    lastStopReason: null,
    mode: null,
    model: null,
  };
}
