// Everything the TUI needs from the core, as one narrow interface: turns as event streams, the session
// (history, input history, undo, /compact, /eval, the session list), the index and its watcher, and the
// facts /status shows. runtime-backend.ts implements it over the real services; tests script it.
import type { TurnEvent } from "../../main/agent/orchestrator.js";
import type { RewindPointStats, RewindPreview, RewindRequest, RewindResult } from "../../main/checkpoints/index.js";
import type { CompactionRun } from "../../main/context/compression/compact-conversation.js";
import type { AnalyzeRequest } from "./analyze-command.js";
import type { ChatMessage } from "../../main/session/session-types.js";
import type { SessionSummary } from "../../main/session/session-store.js";

/** A session as the `/sessions` list shows it. */
export type ListedSession = SessionSummary & { openElsewhere?: string };
import type { UndoOutcome } from "../../main/session/undo-edit.js";

export interface SessionView {
  id: string;
  createdAt: number;
  /** The conversation on the active branch (for showing it after a load). */
  messages(): ChatMessage[];
  /** ↑/↓ history, oldest first. */
  inputHistory(): string[];
  /** Context fill of the last request, 0–100, or null before any. */
  contextPercent(): number | null;
}

/** The index line of the status bar: `indexing 45%`, `watching`, `watcher ✗ …`. */
export interface IndexState {
  text: string | null;
  level: "ok" | "busy" | "error";
  /** An error in full, said once in the chat: the status bar has room for a few words of it. */
  detail?: string;
}

export interface StatusReport {
  /** `label: value` rows for /status. */
  rows: Array<[string, string]>;
}

export interface ReindexProgress {
  phase: string;
  done: number;
  total: number;
}

export interface ToolHelp {
  name: string;
  description: string;
}

/** The checkpoints' rewind service as the TUI uses it (the runtime's `checkpoints.rewind`). */
export interface RewindPort {
  /** Oldest first, each with `N files +x −y`. */
  pointsWithStats(): Promise<RewindPointStats[]>;
  preview(point: number | string): Promise<RewindPreview>;
  rewind(request: RewindRequest): Promise<RewindResult>;
  /** Esc on a turn that produced nothing: takes the message off the conversation and returns it. */
  restoreCancelledTurn(): Promise<string | null>;
}

export interface TuiBackend {
  readonly projectName: string;
  readonly root: string;
  readonly model: string;
  branch(): Promise<string | null>;
  session(): SessionView;

  runTurn(text: string, signal: AbortSignal): AsyncIterable<TurnEvent>;
  /** `/eval`: throws a user-facing IpuaroError when there is no answer to check. */
  evaluate(signal: AbortSignal): AsyncIterable<TurnEvent>;
  undo(): Promise<UndoOutcome>;
  compact(focus: string | undefined, signal: AbortSignal): Promise<CompactionRun | null>;
  addInput(text: string): Promise<void>;

  /** Newest first; `openElsewhere` names another ipuaro that has the session open. */
  listSessions(): Promise<ListedSession[]>;
  /** Who has the session open now, when it is another ipuaro (described), else null. */
  sessionHolder(id: string): Promise<string | null>;
  loadSession(id: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** `/clear`: a fresh session (the old one stays in the list). */
  newSession(): Promise<void>;

  reindex(onProgress: (p: ReindexProgress) => void, signal: AbortSignal): Promise<string>;
  /**
   * `/analyze QUERY [target] [options]`: the analyze tool's answer as readable text (hotspots,
   * predict_change, …), its tables fitted to `width` columns, or with `json` the tool's JSON.
   * Throws the tool's ShadowError for a bad query, target or option, an IpuaroError when Redis is down.
   */
  analyze(request: AnalyzeRequest, width?: number): Promise<string>;
  status(): Promise<StatusReport>;
  /** Listens to index/watcher state; returns the unsubscribe. */
  onIndexState(listener: (s: IndexState) => void): () => void;

  autoApply(): boolean;
  setAutoApply(on: boolean): void;
  toolHelp(): ToolHelp[];
  /** How a call is titled in the chat (`get_lines src/a.ts 1-40`), for replaying a loaded session. */
  toolTitle(name: string, args: Record<string, unknown>): string;
  /** Paths and symbols for Tab completion. */
  completionPaths(): Promise<readonly string[]>;
  completionSymbols(): Promise<readonly string[]>;
  /** `/rewind` and double Esc; absent when the session has no checkpoints. */
  rewind?: RewindPort | undefined;
  /** ui.restoreOnCancel: Esc on a turn that produced nothing puts the message back in the input. */
  restoreOnCancel?: boolean;

  /** Saves what is still in memory and closes services (Ctrl+D, exit, signals). */
  close(): Promise<void>;
}
