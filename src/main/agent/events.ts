// What a turn reports as it runs: the UI renders these, headless mode prints them, tests assert them.
import type { IpuaroError } from "../errors.js";
import type { ResponseStats } from "../llm/ollama-client.js";
import type { ToolResult } from "../tools/tool-types.js";

export interface TurnStats {
  timeMs: number;
  /** Prompt + completion tokens of every request in the turn (server counts; estimates where missing). */
  tokens: number;
  promptTokens: number;
  completionTokens: number;
  toolCalls: number;
  requests: number;
}

export type FinishReason = "answer" | "max-rounds" | "doom-loop" | "aborted" | "cancelled" | "error";

export type AgentEvent =
  | { type: "text"; text: string }
  | { type: "tool-call"; callId: string; name: string; args: Record<string, unknown>; title: string }
  | { type: "tool-result"; result: ToolResult }
  /** A request to the model goes out: until its first chunk the model reads the prompt ("thinking"). */
  | { type: "request" }
  /**
   * Chunks are coming that show nothing (the model is writing a tool call): at most one a second, so a UI
   * can tell a model at work from a stalled stream.
   */
  | { type: "writing" }
  | { type: "response"; stats: ResponseStats }
  | { type: "retry"; reason: string }
  | { type: "loop-detected"; reason: string }
  /** Something about the reply the user should know (cut off, empty); the turn goes on. */
  | { type: "warning"; message: string }
  | { type: "error"; error: IpuaroError; choice: "retry" | "skip" | "abort" }
  /**
   * `text`: the answer, or for any other reason what ended the turn. `answer`: when a loop guard (max-rounds,
   * doom-loop) stopped the tools, what the model answered once asked to without them (also streamed as text).
   * `partial`: when a failure or a stop broke the last reply off, the part of it that was shown.
   * `takeBack`: the user aborted at a failed request before anything of the turn but the message was kept
   * (ErrorSituation): a UI with an input gives the message back (RewindService.restoreCancelledTurn).
   * Otherwise a turn without an answer stays in the conversation with a note for the model (unansweredNote).
   */
  | { type: "finished"; reason: FinishReason; text: string; stats: TurnStats; answer?: string; partial?: string; takeBack?: boolean };
