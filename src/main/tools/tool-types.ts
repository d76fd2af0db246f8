// The contract every model tool follows (STYLE 1–4): declared as data, validated and capped centrally,
// errors the model can fix returned with a code, only fatal ones thrown. A result has two faces: compact
// text for the model and a short title/summary for the UI.
import type { z } from "zod";
import type { IpuaroConfig } from "../config/schema.js";
import type { AnalyticsEvents } from "../shadow/events-recorder.js";
import type { ProjectStore } from "../store/project-store.js";
import { counted } from "../plural.js";

export type ToolCategory = "read" | "edit" | "search" | "analysis" | "git" | "run";

export type ToolErrorCode =
  | "INVALID_ARGS"
  | "PATH_OUTSIDE_ROOT"
  | "PATH_INVALID"
  | "PATH_NOT_FOUND"
  | "PATH_FORBIDDEN"
  | "FILE_NOT_FOUND"
  | "FILE_TOO_LARGE"
  | "NOT_TEXT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "REJECTED"
  | "DENIED"
  | "NOT_A_GIT_REPO"
  | "COMMAND_FAILED"
  | "TIMEOUT"
  | "CANCELLED"
  | "UNAVAILABLE"
  | "INTERNAL";

export interface ToolDisplay {
  /** e.g. `get_lines src/a.ts 1-40` */
  title: string;
  summary?: string;
  /** Full output for the UI when the model's copy was capped (e.g. a test run's whole log). */
  details?: string;
  /**
   * How many of `details`' first lines describe the run (`$ command`, its exit) rather than being its
   * output: /output counts and cuts the output alone (it once called 20,000 lines of `seq` 20,002).
   */
  detailsHeaderLines?: number;
  /** A few lines the chat shows under the call: the end of a command's output (outputPreview). */
  preview?: string[];
}

/** Lines of a command's output shown under its call in the chat. */
export const OUTPUT_PREVIEW_LINES = 4;

/** The last OUTPUT_PREVIEW_LINES non-empty lines of `output`, with how many came before them. */
export function outputPreview(output: string): string[] {
  const lines = output.split("\n").filter((l) => l.trim());
  const shown = lines.slice(-OUTPUT_PREVIEW_LINES);
  return lines.length > shown.length ? [`… ${counted(lines.length - shown.length, "more line")}`, ...shown] : shown;
}

export type ToolOutcome =
  /** `truncated`: the tool itself left part of its output out (the wrapper marks its own cut too). */
  | { ok: true; llm: string; data?: unknown; display?: Partial<ToolDisplay>; truncated?: boolean }
  | { ok: false; code: ToolErrorCode; message: string };

/** An edit waiting for the user: what the confirmation dialog shows. */
export interface EditProposal {
  tool: string;
  path: string;
  /** Unified diff of the change. */
  diff: string;
  /** The model's own description of the change, when it gave one. */
  description?: string;
  /** Line range touched in the old file, for the dialog header. */
  range?: { start: number; end: number };
  /** New full content (null = delete), so the user may edit it before applying. */
  newContent: string | null;
  /** Set when project history marks the file risky to change; critical ones are confirmed even in auto-apply. */
  risk?: { level: "high" | "critical"; message: string; requiresConfirmation: boolean };
  /** Set when the file cannot be backed up for a rewind (larger than checkpoints.maxFileBytes): shown before the user decides. */
  backupWarning?: string;
  /** Set when the index marks the file generated (a "DO NOT EDIT" header, a generated name): the change may not last. */
  generatedWarning?: string;
}

/** `unattended` reject: nobody could be asked (a non-interactive run), not the user's "no"; `reason` says how to allow edits. */
/** `auto`: applied with nobody asked (auto-apply, `--yes`), so no one waited over it. */
export type EditDecision = { action: "apply"; auto?: true } | { action: "reject"; reason?: string; unattended?: boolean } | { action: "apply-edited"; content: string };

export interface CommandProposal {
  command: string;
  reason: string;
  /**
   * The programs "always" would add to the whitelist (those not on it); empty when the question is about
   * something a whitelist cannot allow (a path outside, an install): then "always" is not offered.
   */
  programs?: string[];
}
/** `unattended`: nobody was there to ask (a headless run without --auto-apply, no terminal). */
export type CommandDecision = "once" | "always" | "no" | "unattended";

export interface ConflictProposal {
  path: string;
  /** What changed on disk since the model read the file (unified diff: what it saw → what is there). */
  diff: string;
}
export type ConflictDecision = "apply" | "skip" | "regenerate";

/** What a running tool may ask of the person around it (implemented by the orchestrator over the UI port). */
export interface ToolPorts {
  confirmEdit(proposal: EditProposal): Promise<EditDecision>;
  confirmCommand(proposal: CommandProposal): Promise<CommandDecision>;
  resolveConflict(proposal: ConflictProposal): Promise<ConflictDecision>;
  /** A running command's output as it comes (shown live; the result carries all of it). */
  commandOutput?(chunk: string): void;
}

/** One applied change, as the undo stack keeps it (seed 000 `UndoEntry`; null = the file did not exist). */
export interface EditRecord {
  filePath: string;
  previousContent: string[] | null;
  newContent: string[] | null;
  description: string;
  tool: string;
  /** A deleted file's permission bits, so undo recreates it executable if it was. */
  previousMode?: number;
  /** The topmost folder a created file made (project-relative): undo removes it again if empty. */
  createdFolder?: string;
}

/** Per-session state tools read and update. */
export interface ToolSessionState {
  /** path → hash of the content the model last read through a tool: edits are checked against it. */
  readonly readLedger: Map<string, string>;
  /** Files whose edit makes commands that execute them untrusted for the rest of the session. */
  readonly taintedFiles: Set<string>;
  /** Every file written this session by an edit or a command: running one as a script asks. */
  readonly writtenFiles: Set<string>;
  /** Programs the user answered "always" for (added to the user whitelist). */
  readonly alwaysAllowed: Set<string>;
}

/** Services of the session around the tools. */
export interface ToolServices {
  /** Persists the undo entry; called BEFORE the file is written, so a crash never loses the way back. */
  recordEdit(record: EditRecord): Promise<void>;
  /** Brings Redis up to date for files ipuaro itself just wrote or deleted. */
  refreshIndex(paths: string[]): Promise<void>;
  /** Tells the watcher a write is ipuaro's own (hash of the new content; null for a delete). */
  registerOwnWrite(path: string, hash: string | null): void;
  /** Project analytics (seed 001): applied edits and failed commands are recorded as they happen. */
  analytics?: AnalyticsEvents;
  /**
   * Waits (a few seconds at most) for the live index to take in a large change seen on disk (a branch
   * switch): the index's answers lag behind it until then. Absent without a watcher.
   */
  indexSettled?(): Promise<IndexSettled>;
}

/** Whether the index caught up; `backlog`: the changed paths it still had not taken in. */
export interface IndexSettled {
  settled: boolean;
  backlog: number;
}

export interface ToolContext {
  /** The session the call belongs to (memory and analytics record it). */
  sessionId?: string;
  root: string;
  config: IpuaroConfig;
  store: ProjectStore;
  ports: ToolPorts;
  session: ToolSessionState;
  services: ToolServices;
  signal?: AbortSignal;
  /** The model reply the call belongs to (newReplyId): its calls all count lines as read before it. */
  reply?: string;
}

export function newToolSessionState(): ToolSessionState {
  return { readLedger: new Map(), taintedFiles: new Set(), writtenFiles: new Set(), alwaysAllowed: new Set() };
}

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  category: ToolCategory;
  description: string;
  parameters: S;
  /** Edit tools, commits, unknown commands: the user confirms unless auto-apply. */
  requiresConfirmation: boolean;
  /** One line for the chat pane while the call runs, e.g. `[get_lines src/a.ts 1-40]`. */
  title(args: z.infer<S>): string;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

/** The wire-level result (seed 000 `ToolResult`) plus the UI face. */
export interface ToolResult {
  callId: string;
  name: string;
  success: boolean;
  /** What the model reads. */
  data?: string;
  error?: string;
  code?: ToolErrorCode;
  truncated: boolean;
  display: ToolDisplay;
  durationMs: number;
}
