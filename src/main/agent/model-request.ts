// One request to the model within a turn: the reply streamed as text events (calls and held-back tags
// left out), token counts taken from the server or estimated, and a failure retried automatically
// (llm.autoRetry), put to the user (retry / skip / abort) or turned into the turn's end with what the
// model is to be told of it. The orchestrator decides what the reply means.
import { IpuaroError, isIpuaroError } from "../errors.js";
import { isLlmCancelled } from "../llm/llm-errors.js";
import { joinUserRuns } from "../llm/message-runs.js";
import type { LlmClient, LlmMessage, NativeToolCall, ResponseStats } from "../llm/ollama-client.js";
import { parseToolCalls } from "../llm/tool-call-parser.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type { ConversationRecorder } from "../session/conversation-recorder.js";
import type { UnansweredTurn } from "../session/session-types.js";
import type { FinishReason, TurnStats } from "./events.js";
import { CallFenceFilter } from "./call-fence-filter.js";
import type { TurnEvent } from "./orchestrator.js";
import type { UiPort } from "./ports.js";
import { VisibleTextFilter } from "./visible-text.js";

/** What a request reads and reports to: the orchestrator's parts. */
export interface RequestDeps {
  llm: LlmClient;
  /** The conversation as sent (the system prompt and a closing instruction go around it). */
  history: readonly LlmMessage[];
  recorder?: ConversationRecorder | undefined;
  estimator?: TokenEstimator | undefined;
  ui: UiPort;
  autoRetry: boolean;
}

/** Retries llm.autoRetry makes before asking, and the first pause (doubled each time). */
export const AUTO_RETRIES = 3;
const AUTO_RETRY_PAUSE_MS = 1000;
/** The most often a `writing` event goes out while a reply streams what is not shown. */
const WRITING_EVERY_MS = 1000;

/** Waits `ms`; false when the turn was cancelled meanwhile. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export type RoundOutcome =
  /** `unclosed`: text held back from an opening `<tool_call` never closed (shown if it was no call). */
  | { kind: "reply"; text: string; native: NativeToolCall[]; completionTokens: number | null; unclosed: string }
  /**
   * `partial`: the reply as far as it was shown when a failure or a stop cut it short. `unanswered`: what
   * the model is told of it. `takeBack`: see the finished event.
   */
  | { kind: "stop"; reason: FinishReason; text: string; partial?: string; unanswered: UnansweredTurn; takeBack?: boolean };

/**
 * `closing`: sent after the history, in this request only (closingInstruction). `takeBack`: abort at a
 * failure may give the message back (ErrorSituation).
 */
export async function* requestOnce(
  deps: RequestDeps,
  system: string,
  stats: TurnStats,
  known: ReadonlySet<string>,
  signal?: AbortSignal,
  closing?: LlmMessage,
  takeBack = false,
): AsyncGenerator<TurnEvent, RoundOutcome> {
  let autoRetries = 0;
  // A fenced block is a call when the parser finds one (or a broken one) in it: then it is not shown.
  const isCall = (block: string) => {
    const p = parseToolCalls(block, known);
    return p.calls.length > 0 || p.errors.length > 0;
  };
  for (;;) {
    const filter = new VisibleTextFilter();
    const fences = new CallFenceFilter(isCall);
    let text = "";
    /** What of `text` was shown (calls and held-back tags left out): the partial answer if the reply breaks off. */
    let shown = "";
    const native: NativeToolCall[] = [];
    let response: ResponseStats | null = null;
    /** When the last `writing` event went out (chunks that show nothing). */
    let writingAt = -Infinity;
    const writing = (): boolean => {
      const now = performance.now();
      if (now - writingAt < WRITING_EVERY_MS) return false;
      writingAt = now;
      return true;
    };
    try {
      yield { type: "request" };
      const stream = deps.llm.chatStream({ messages: joinUserRuns([{ role: "system", content: system }, ...deps.history, ...(closing ? [closing] : [])]), signal });
      for await (const chunk of stream) {
        if (chunk.type === "text") {
          text += chunk.text;
          deps.recorder?.streamed?.(text);
          const visible = fences.push(filter.push(chunk.text));
          shown += visible;
          if (visible) {
            writingAt = performance.now();
            yield { type: "text", text: visible };
          } else if (writing()) yield { type: "writing" };
        } else if (chunk.type === "tool_calls") {
          native.push(...chunk.calls);
          if (writing()) yield { type: "writing" };
        } else response = chunk.stats;
      }
      const rest = fences.push(filter.flush()) + fences.flush();
      if (rest) yield { type: "text", text: rest };
      stats.requests++;
      if (response) {
        const fallback = { promptTokens: estimatePrompt(deps, system), completionTokens: deps.estimator?.estimate(text) ?? 0 };
        stats.promptTokens += response.promptTokens ?? fallback.promptTokens;
        stats.completionTokens += response.completionTokens ?? fallback.completionTokens;
        yield { type: "response", stats: response };
        if (response.doneReason === "length") {
          yield { type: "warning", message: "The model stopped because it ran out of room (Ollama's done_reason \"length\"): this reply is cut off. Ask it to go on, or /compact to make room." };
        }
        if (deps.recorder) yield { type: "context", ...deps.recorder.response(response, fallback, deps.history.length) };
      }
      return { kind: "reply", text, native, completionTokens: response?.completionTokens ?? null, unclosed: filter.unclosed() };
    } catch (err) {
      // No stats come for a stream cut short, but the model read the prompt and wrote what streamed:
      // estimated, they count (an interrupted or broken-off answer showed "0 tokens" after seconds of text).
      if (text) {
        stats.requests++;
        stats.promptTokens += estimatePrompt(deps, system);
        stats.completionTokens += deps.estimator?.estimate(text) ?? 0;
      }
      const partial = shown ? { partial: shown } : {};
      const interrupted: RoundOutcome = { kind: "stop", reason: "cancelled", text: text ? `${text}\n[interrupted]` : "[interrupted]", ...partial, unanswered: { how: "interrupted", ...partial } };
      if (isLlmCancelled(err) || signal?.aborted) return interrupted;
      const error = isIpuaroError(err) ? err : new IpuaroError("llm", err instanceof Error ? err.message : String(err));
      if (error.recoverable && deps.autoRetry && autoRetries < AUTO_RETRIES) {
        const pauseMs = AUTO_RETRY_PAUSE_MS * 2 ** autoRetries++;
        yield { type: "retry", reason: `${error.message} (llm.autoRetry: again in ${pauseMs / 1000} s, ${autoRetries} of ${AUTO_RETRIES})` };
        if (!(await pause(pauseMs, signal))) return interrupted;
        continue;
      }
      const choice = error.recoverable ? await deps.ui.chooseOnError(error, { during: "request", takeBack }) : "abort";
      yield { type: "error", error, choice };
      if (choice === "retry") {
        yield { type: "retry", reason: error.message };
        continue;
      }
      // "aborted" is the user's answer to an error that could be retried; one that cannot is an error.
      const aborted = choice === "abort" && error.recoverable;
      return {
        kind: "stop",
        reason: aborted ? "aborted" : "error",
        text: `The model request failed: ${error.message}`,
        ...partial,
        unanswered: { how: aborted ? "stopped" : "failed", reason: error.message, ...partial },
        ...(aborted && takeBack ? { takeBack: true } : {}),
      };
    }
  }
}

function estimatePrompt(deps: RequestDeps, system: string): number {
  const e = deps.estimator;
  if (!e) return 0;
  return e.estimate(system) + deps.history.reduce((n, m) => n + e.estimate(m.content), 0);
}
