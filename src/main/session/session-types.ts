// A session as ipuaro keeps it (seed 000 "Сессия"): the conversation is a tree of entries linked to their
// parents; the path from the root to `head` is the conversation the model sees. Moving `head` back (a
// later rewind) starts a new branch without losing the old one.
import type { NativeToolCall } from "../llm/ollama-client.js";
import type { ToolErrorCode } from "../tools/tool-types.js";

export interface SessionStats {
  /** Prompt + completion tokens of every request, summaries included (server counts where given). */
  totalTokens: number;
  /** Milliseconds spent in turns. */
  totalTime: number;
  toolCalls: number;
  editsApplied: number;
  editsRejected: number;
  /** Edits taken back through undo. */
  undos: number;
  turns: number;
  compactions: number;
}

export interface MessageStats {
  tokens: number;
  timeMs: number;
  toolCalls: number;
}

/** What the line after an answer shows (`⏱ 3.2s │ 1,247 tokens │ 1 tool call`) for a whole turn. */
export interface TurnStatsShown {
  timeMs: number;
  /** Prompt + completion tokens of every request of the turn. */
  tokens: number;
  toolCalls: number;
}

export interface ContextState {
  /** Files whose code the model read through a tool and that are still in the history it sees. */
  loadedFiles: string[];
  /** Size of the last request (prompt + reply), or the estimate after a compaction. */
  tokensUsed: number;
  /** The context window every request uses. */
  tokensLimit: number;
  /** How many history messages `tokensUsed` covers: the next estimate only counts what came after. */
  measuredMessages?: number;
  /**
   * The fixed part (system prompt, project map, memory) of the last request, estimated: a rewind, or a
   * session opened, sizes the history as it now is with it (SessionRecorder.remeasure).
   */
  systemTokens?: number;
  /**
   * The tools' read ledger (path → hash of the content the model last read), so a reopened session can
   * edit a file it still sees in its history without reading it again.
   */
  readHashes?: Record<string, string>;
}

/** A call as the assistant made it (seed `ToolCall`). `malformed` calls could not be read; they got an error result. */
export interface SessionToolCall {
  id: string;
  name: string;
  parameters: Record<string, unknown>;
  malformed?: boolean;
  /** A malformed call's reason as the chat shows it ("incomplete call: …", "unknown tool"), for replaying it. */
  reason?: string;
}

/** What came back for one call (seed `ToolResult`; the data itself is the block in the message content). */
export interface SessionToolResult {
  callId: string;
  name: string;
  success: boolean;
  error?: string;
  code?: ToolErrorCode;
  /** Written by ipuaro because the call never finished (the process was stopped). */
  synthetic?: boolean;
  /** What the chat showed beside it when it succeeded ("+1 -1", "12 lines"); absent in older sessions. */
  summary?: string;
}

export interface ChatMessage {
  /** `tool` = the results of the previous assistant message's calls, sent to the model as one user message. */
  role: "user" | "assistant" | "tool";
  content: string;
  timestamp: number;
  toolCalls?: SessionToolCall[];
  /** Calls the server returned in `message.tool_calls`, replayed to it as such. */
  nativeToolCalls?: NativeToolCall[];
  toolResults?: SessionToolResult[];
  stats?: MessageStats;
  /** Set when the user message came from a command rather than typing. */
  command?: "eval";
  /**
   * A note ipuaro added for the model (sent as a user message), not something the user typed: after a
   * rewind, which files disagree with the conversation, or a summary of the part rewound away. Not a
   * rewind point; UIs show it as a notice.
   */
  note?: "rewind";
  /**
   * On a user message: how the turn it started ended when that was not with an answer ("The model
   * request failed: …", "[interrupted]"), for showing the session again. Never sent to the model.
   */
  outcome?: string;
  /** On a user message: its turn's stats line, to show again with the answer (absent in older sessions). */
  turnStats?: TurnStatsShown;
  /**
   * On a user message whose turn ended without an answer: what the model is told in the answer's place
   * (modelView puts unansweredNote after the turn's last message), so it does not answer the abandoned
   * request later as if nothing had happened, and never sees two user messages in a row.
   */
  unanswered?: UnansweredTurn;
}

/** How a turn ended without an answer, for the note the model gets instead of one. */
export interface UnansweredTurn {
  /**
   * `interrupted`: Esc / Ctrl+C (or a signal) stopped it; `failed`: a request failed and the user went on
   * (skip, or nothing to ask: `ipuaro run`); `stopped`: the user stopped the turn (abort); `killed`:
   * ipuaro itself stopped (killed, crashed) before the answer was complete.
   */
  how: "interrupted" | "failed" | "stopped" | "killed";
  /** The reply as far as it had been shown. */
  partial?: string;
  /** What failed (the error's message). */
  reason?: string;
}

/** How a compaction rewrote what the model sees; the entries themselves stay untouched in the tree. */
export interface CompactionRecord {
  /** Replaces every message up to and including `summarisedUntil` (empty when nothing was summarised). */
  summary: string;
  summarisedUntil: string | null;
  /** entry id → the content the model sees instead (tool results cut to one-line stubs). */
  rewritten: Record<string, string>;
  tokensBefore: number;
  tokensAfter: number;
  tokensLimit: number;
  /** "llm-summary": the model wrote the summary; "truncate": built without the model. */
  method: "llm-summary" | "truncate";
  trigger: "auto" | "manual";
  focus?: string;
}

export type SessionEntry =
  | { kind: "message"; id: string; parentId: string | null; message: ChatMessage }
  | { kind: "compaction"; id: string; parentId: string | null; timestamp: number; compaction: CompactionRecord };

export interface SessionMeta {
  id: string;
  projectName: string;
  root: string;
  createdAt: number;
}

/** Everything stored about one session except its undo stack. */
export interface SessionState {
  meta: SessionMeta;
  lastActivityAt: number;
  /** The newest entry of the active branch (null: empty session). */
  head: string | null;
  entries: Map<string, SessionEntry>;
  stats: SessionStats;
  context: ContextState;
  /** Prompts typed, oldest first, for ↑/↓. */
  inputHistory: string[];
  /** The answer streaming when the session was last saved, if the run died before it ended (see LiveSession.repair). */
  draft?: StreamDraft;
}

/** How a reply cut off by a dead run is kept: its text so far, and why it ends there. */
export function draftOutcome(text: string): string {
  return `${text}\n[interrupted: ipuaro stopped while the reply streamed]`;
}

/**
 * The same for the model: the reply's text up to any call it was writing (never run, so not replayed).
 */
export function draftUnanswered(text: string): UnansweredTurn {
  const at = text.search(/<tool_call\b/);
  const partial = (at >= 0 ? text.slice(0, at) : text).trim();
  return partial ? { how: "killed", partial } : { how: "killed" };
}

/** What a reply had streamed so far, saved now and then while it streams. */
export interface StreamDraft {
  /** The user message whose turn it belongs to. */
  entryId: string;
  text: string;
  at: number;
}

/** One applied change (seed `UndoEntry`); null content = the file did not exist on that side. */
export interface UndoEntry {
  id: string;
  timestamp: number;
  filePath: string;
  previousContent: string[] | null;
  newContent: string[] | null;
  description: string;
  tool: string;
  /** A deleted file's permission bits (see EditRecord). */
  previousMode?: number;
  /** The topmost folder a created file made (see EditRecord). */
  createdFolder?: string;
}

export function emptyStats(): SessionStats {
  return { totalTokens: 0, totalTime: 0, toolCalls: 0, editsApplied: 0, editsRejected: 0, undos: 0, turns: 0, compactions: 0 };
}
