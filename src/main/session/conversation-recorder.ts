// The port through which the orchestrator keeps a session: every step is recorded (and awaited) BEFORE
// the action that follows it, so a kill -9 loses at most the reply being streamed. It also measures the
// context before each request and compresses it past the threshold.
import type { CompactionRun } from "../context/compression/compact-conversation.js";
import type { LlmMessage, NativeToolCall, ResponseStats } from "../llm/ollama-client.js";
import type { ToolErrorCode } from "../tools/tool-types.js";
import type { MessageStats, SessionToolCall, UnansweredTurn } from "./session-types.js";

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
  /** What the chat showed beside a call that succeeded ("+1 -1", "12 lines"), for replaying it. */
  summary?: string;
}

export interface ContextMeasure {
  tokensUsed: number;
  tokensLimit: number;
}

/** Events a session adds to a turn's AgentEvents (the TUI's status bar shows them; no modal). */
export type ContextEvent =
  | ({ type: "context" } & ContextMeasure)
  | { type: "compacted"; report: CompactionRun }
  | { type: "compaction-failed"; message: string };

export interface TurnOutcome {
  reason: string;
  timeMs: number;
  tokens: number;
  toolCalls: number;
  /** The turn's closing text when it did not end with an answer. */
  text?: string;
  /** Set when the turn got no answer at all: kept on its message, the model is told so (unansweredNote). */
  unanswered?: UnansweredTurn;
}

/** The most a request may fill: `share` (context.maxContextUsage, or 1 without compression) of the `window`. */
export interface RequestLimit {
  limit: number;
  window: number;
  share: number;
}

export interface PreparedRequest {
  /** Replaces the orchestrator's history when the context was compressed. */
  history: LlmMessage[] | null;
  events: ContextEvent[];
  /** Set when the request still fills more than the limit after compression (it is not sent). */
  overflow?: { tokens: number } & RequestLimit;
}

/** The smallest request a new message could ever go in: the fixed part and the message, no history. */
export interface MessageFit extends RequestLimit {
  /** The message alone. */
  messageTokens: number;
  /** The fixed part (system prompt: instructions, tools, project map) with the message. */
  minimumTokens: number;
  fits: boolean;
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
  /**
   * Sizes `text` as the next user message before anything is stored or compressed: compression never
   * shortens the message or the fixed part, so when those two alone are past the limit nothing can make
   * room, and the message is refused at once. Changes nothing.
   */
  measureMessage(input: { system: string; text: string }): MessageFit;
  /** Called with what is about to be sent; compresses when the context is past context.autoCompressAt. */
  beforeRequest(input: { system: string; history: readonly LlmMessage[]; signal?: AbortSignal }): Promise<PreparedRequest>;
}
