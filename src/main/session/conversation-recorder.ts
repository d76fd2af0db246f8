// The port through which the orchestrator keeps a session: every step is recorded (and awaited) BEFORE
// the action that follows it, so a kill -9 loses at most the reply being streamed. It also measures the
// context before each request and compresses it past the threshold.
import type { CompactionReport } from "../context/compression/compact-conversation.js";
import type { LlmMessage, NativeToolCall, ResponseStats } from "../llm/ollama-client.js";
import type { ToolErrorCode } from "../tools/tool-types.js";
import type { MessageStats, SessionToolCall } from "./session-types.js";

export interface AssistantReplyRecord {
  /** The reply as the model wrote it (tool-call markup included: it is replayed verbatim). */
  content: string;
  nativeToolCalls: NativeToolCall[];
  /** Parsed calls in the order their results follow, malformed ones first. */
  calls: SessionToolCall[];
  stats: MessageStats;
}

export interface ToolResultRecord {
  callId: string;
  name: string;
  success: boolean;
  error?: string;
  code?: ToolErrorCode;
  /** The `<tool_result>` block exactly as it goes to the model. */
  block: string;
}

export interface ContextMeasure {
  tokensUsed: number;
  tokensLimit: number;
}

/** Events a session adds to a turn's AgentEvents (the TUI's status bar shows them; no modal). */
export type ContextEvent =
  | ({ type: "context" } & ContextMeasure)
  | { type: "compacted"; report: CompactionReport }
  | { type: "compaction-failed"; message: string };

export interface TurnOutcome {
  reason: string;
  timeMs: number;
  /** The turn's closing text when it did not end with an answer. */
  text?: string;
}

export interface PreparedRequest {
  /** Replaces the orchestrator's history when the context was compressed. */
  history: LlmMessage[] | null;
  events: ContextEvent[];
  /** Set when the request is still larger than the context window after compression (not sent). */
  /** The request fills more than `share` (context.maxContextUsage) of the `window`: `limit` tokens. */
  overflow?: { tokens: number; limit: number; window: number; share: number };
}

export interface ConversationRecorder {
  nextCallId(): string;
  userMessage(text: string, opts?: { command?: "eval" }): Promise<void>;
  assistantReply(reply: AssistantReplyRecord): Promise<void>;
  /** The reply so far, as it streams (all of it each time); kept now and then for a run that dies mid-reply. */
  streamed?(text: string): void;
  /** Each result is stored before the next call runs; the round's results form one message. */
  toolResult(result: ToolResultRecord): Promise<void>;
  /**
   * Server counts of a finished request. `historyLength` is the history it was sent with; the reply
   * is about to be added to it.
   */
  response(stats: ResponseStats, fallback: { promptTokens: number; completionTokens: number }, historyLength: number): ContextMeasure;
  turnFinished(outcome: TurnOutcome): Promise<void>;
  /** Called with what is about to be sent; compresses when the context is past context.autoCompressAt. */
  beforeRequest(input: { system: string; history: readonly LlmMessage[]; signal?: AbortSignal }): Promise<PreparedRequest>;
}
