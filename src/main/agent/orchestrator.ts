// The agent loop (seed 000 "Общий флоу"): user message → context → model → tool calls → results back →
// … until a final answer. An async generator of typed events: the caller renders them and answers the
// UI port's questions; nothing here knows how things are shown.
import { IpuaroError, isIpuaroError } from "../errors.js";
import { isLlmCancelled } from "../llm/llm-errors.js";
import type { LlmClient, LlmMessage, NativeToolCall, ResponseStats } from "../llm/ollama-client.js";
import { formatToolResult, parserCallExample, type ToolFormat } from "../llm/system-prompt.js";
import { parseToolCalls, type ParsedCall, type ParsedItem } from "../llm/tool-call-parser.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type { ToolRegistry } from "../tools/registry.js";
import { newReplyId } from "../tools/reply-edits.js";
import type { ToolContext, ToolPorts, ToolResult } from "../tools/tool-types.js";
import type { ContextEvent, ConversationRecorder } from "../session/conversation-recorder.js";
import { unansweredNote } from "../session/session-tree.js";
import { joinUserRuns } from "../llm/message-runs.js";
import type { UnansweredTurn } from "../session/session-types.js";
import type { AgentEvent, FinishReason, TurnStats } from "./events.js";
import { describeLoop, DoomLoopDetector } from "./loop-guards.js";
import type { UiPort } from "./ports.js";
import { VisibleTextFilter } from "./visible-text.js";
import { CallFenceFilter } from "./call-fence-filter.js";
import { reportUnreadable, unreadableCallName } from "./unreadable-call.js";
import { oversizedMessageError, oversizedRequestError } from "./oversized-request.js";

export interface OrchestratorOptions {
  llm: LlmClient;
  registry: ToolRegistry;
  ui: UiPort;
  tools: Omit<ToolContext, "ports" | "signal">;
  /** The fixed part: system prompt with tools, project outline, instructions. Built per turn. */
  systemPrompt(userText: string, history: readonly LlmMessage[]): Promise<string>;
  maxToolRounds: number;
  autoApply(): boolean;
  /**
   * edit.alwaysConfirm (default true): an edit the risk assessment marks for confirmation (a file project
   * history calls critical) is put to the user even in auto-apply mode; false lets auto-apply take it.
   */
  confirmRiskyEdits?: boolean;
  /**
   * llm.autoRetry: a failed request that can be retried (the server went away, timed out) is tried
   * again AUTO_RETRIES times, with a growing pause, before the user is asked.
   */
  autoRetry?: boolean;
  /** llm.toolFormat: the form the parser's error messages show (the one the system prompt teaches). */
  toolFormat?: ToolFormat;
  estimator?: TokenEstimator;
  /** Earlier conversation (from a session). */
  history?: LlmMessage[];
  /** The session: each step is recorded before the next happens; it also compresses the context. */
  recorder?: ConversationRecorder;
  /** Called once the user message is stored, before anything runs for it (the turn's checkpoint, issue 8). */
  onTurnStart?: () => Promise<void>;
  /** Called once a turn has finished, with the tools it used (project memory checks its notes). */
  onTurnEnd?: (toolNames: string[]) => Promise<void>;
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

/** What a turn yields: the agent's events plus the session's context reports. */
export type TurnEvent = AgentEvent | ContextEvent;

type RoundOutcome =
  /** `unclosed`: text held back from an opening `<tool_call` never closed (shown if it was no call). */
  | { kind: "reply"; text: string; native: NativeToolCall[]; completionTokens: number | null; unclosed: string }
  /**
   * `partial`: the reply as far as it was shown when a failure or a stop cut it short. `unanswered`: what
   * the model is told of it. `takeBack`: see the finished event.
   */
  | { kind: "stop"; reason: FinishReason; text: string; partial?: string; unanswered: UnansweredTurn; takeBack?: boolean };

/** A call (or a call that failed to parse) of the current round with the id its result will carry. */
type RoundItem = ParsedItem & { id: string };

/** A loop guard stopped the tools: the turn ends with one more request, for an answer without them. */
interface GuardStop {
  reason: "max-rounds" | "doom-loop";
  /** What ended the tools, for the user (the turn's outcome). */
  text: string;
  /** Why, for the model, in the closing request. */
  why: string;
}

/**
 * Sent after the history in the closing request only (never stored): the answer it asks for is the turn's.
 * The system prompt stays as it was, so the server can reuse the prompt it has already evaluated.
 */
function closingInstruction(stop: GuardStop): LlmMessage {
  return {
    role: "user",
    content: `Tools are no longer available for this question: ${stop.why}. Do not call any tool. Answer my question now with what you have found so far, and say what you could not find out.`,
  };
}

export class Orchestrator {
  readonly history: LlmMessage[];
  private callSeq = 0;
  /** Names of the tools called in the current turn. */
  private turnTools: string[] = [];

  constructor(private readonly opts: OrchestratorOptions) {
    this.history = opts.history ?? [];
  }

  private ports(): ToolPorts {
    return {
      confirmEdit: async (p) => {
        const mustAsk = this.opts.confirmRiskyEdits !== false && !!p.risk?.requiresConfirmation;
        return this.opts.autoApply() && !mustAsk ? { action: "apply", auto: true } : this.opts.ui.confirmEdit(p);
      },
      confirmCommand: (p) => this.opts.ui.confirmCommand(p),
      resolveConflict: (p) => this.opts.ui.resolveConflict(p),
      ...(this.opts.ui.commandOutput ? { commandOutput: (chunk: string) => this.opts.ui.commandOutput?.(chunk) } : {}),
    };
  }

  private nextCallId(): string {
    return this.opts.recorder?.nextCallId() ?? `call_${++this.callSeq}`;
  }

  /** Replaces the history in place (after a compression), so holders of the array see the new one. */
  replaceHistory(history: readonly LlmMessage[]): void {
    this.history.splice(0, this.history.length, ...history);
  }

  async *runTurn(userText: string, signal?: AbortSignal, opts: { command?: "eval" } = {}): AsyncGenerator<TurnEvent, TurnStats> {
    const started = performance.now();
    const recorder = this.opts.recorder;
    const stats: TurnStats = { timeMs: 0, tokens: 0, promptTokens: 0, completionTokens: 0, toolCalls: 0, requests: 0 };
    this.turnTools = [];
    // `finished` goes out before the turn's bookkeeping (its outcome stored, the after-turn analytics):
    // the answer is complete on screen at once, not after those, and a key pressed meanwhile is no stop
    // of an answer still "thinking". The turn itself ends when the bookkeeping has.
    const onTurnEnd = this.opts.onTurnEnd;
    const turnTools = () => this.turnTools;
    const history = this.history;
    /**
     * `unanswered`: the turn got no answer; the model reads a note in its place from the next request on
     * (the session keeps it on the message and its view puts the same note there: unansweredNote).
     */
    async function* finish(
      reason: FinishReason,
      text: string,
      more: { answer?: string; partial?: string; unanswered?: UnansweredTurn; takeBack?: boolean } = {},
    ): AsyncGenerator<AgentEvent, void> {
      const { answer, partial, takeBack } = more;
      stats.timeMs = performance.now() - started;
      stats.tokens = stats.promptTokens + stats.completionTokens;
      const unanswered = history.at(-1)?.role === "assistant" ? undefined : more.unanswered;
      if (unanswered) history.push({ role: "assistant", content: unansweredNote(unanswered) });
      yield { type: "finished", reason, text, stats, ...(answer ? { answer } : {}), ...(partial ? { partial } : {}), ...(takeBack ? { takeBack } : {}) };
      await recorder?.turnFinished({ reason, timeMs: stats.timeMs, ...(reason !== "answer" ? { text } : {}), ...(unanswered ? { unanswered } : {}) });
      await onTurnEnd?.(turnTools());
    }
    // The first request's fixed part, built before the message is stored: it sizes the message.
    let firstSystem: string | null = await this.opts.systemPrompt(userText, [...this.history, { role: "user", content: userText }]);
    const fit = recorder?.measureMessage({ system: firstSystem, text: userText });
    if (fit && !fit.fits) {
      // Nothing could ever make room for it: refused before it is stored, anything is compressed or a
      // request is made. Not a turn of the conversation, so none of a turn's bookkeeping either.
      const error = oversizedMessageError(fit);
      yield { type: "error", error, choice: "abort" };
      stats.timeMs = performance.now() - started;
      yield { type: "finished", reason: "error", text: error.message, stats };
      return stats;
    }
    // Persist-before-act: the message is stored before any request is made for it.
    await recorder?.userMessage(userText, opts);
    await this.opts.onTurnStart?.();
    this.history.push({ role: "user", content: userText });
    const doom = new DoomLoopDetector();
    // A set (not a predicate) so a call to a tool that does not exist is answered with the list of tools.
    const known = new Set(this.opts.registry.names());
    const example = parserCallExample(this.opts.registry.descriptors(), this.opts.toolFormat);
    /** Set once a loop guard stopped the tools: the next request is the last, and its reply is the answer. */
    let closing: GuardStop | null = null;

    for (let round = 0; ; round++) {
      const system = firstSystem ?? (await this.opts.systemPrompt(userText, this.history));
      firstSystem = null;
      if (recorder) {
        const prepared = await recorder.beforeRequest({ system, history: this.history, ...(signal ? { signal } : {}) });
        if (prepared.history) this.replaceHistory(prepared.history);
        yield* prepared.events;
        if (prepared.overflow) {
          const error = oversizedRequestError(prepared.overflow);
          yield { type: "error", error, choice: "abort" };
          yield* finish("error", error.message, { unanswered: { how: "failed", reason: error.message } });
          return stats;
        }
      }
      const requestStarted = performance.now();
      // Abort can give the message back only while nothing of the turn but the message is kept (a command's turn has none).
      const takeBack = round === 0 && opts.command === undefined;
      const outcome: RoundOutcome = yield* this.requestOnce(system, stats, known, signal, closing ? closingInstruction(closing) : undefined, takeBack);
      if (outcome.kind === "stop") {
        const more = { ...(outcome.partial ? { partial: outcome.partial } : {}), unanswered: outcome.unanswered, ...(outcome.takeBack ? { takeBack: true } : {}) };
        // The closing request failed: the turn still ends for the guard's reason (unless it was interrupted).
        if (closing && outcome.reason !== "cancelled") yield* finish(closing.reason, `${closing.text} ${outcome.text}`, more);
        else yield* finish(outcome.reason, outcome.text, more);
        return stats;
      }
      const parsed = parseToolCalls(outcome.text, known, { nativeCalls: outcome.native, example });
      // `<tool_call` written in prose and never closed: the filter held the rest back, the parser saw no call.
      if (outcome.unclosed && !parsed.items.length) yield { type: "text", text: outcome.unclosed };
      const replyStats = {
        tokens: outcome.completionTokens ?? this.opts.estimator?.estimate(outcome.text) ?? 0,
        timeMs: Math.round(performance.now() - requestStarted),
      };
      if (closing) {
        // Calls in the closing reply are not run (and not kept: they would have no results); the rest is the answer.
        const answer = parsed.text.trim();
        const content = answer || closing.text;
        await recorder?.assistantReply({ content, nativeToolCalls: [], calls: [], stats: { ...replyStats, toolCalls: 0 } });
        this.history.push({ role: "assistant", content });
        if (!answer) yield { type: "warning", message: "The model gave no answer once its tools were stopped." };
        yield* finish(closing.reason, closing.text, { answer });
        return stats;
      }
      // Ids in the order the calls were made: the results go back in that order (failed ones in their place).
      const items: RoundItem[] = parsed.items.map((item) => ({ ...item, id: this.nextCallId() }));
      // The reply and its calls are stored before any tool runs.
      await recorder?.assistantReply({
        content: outcome.text,
        nativeToolCalls: outcome.native,
        calls: items.map(({ id, call, error }) =>
          call ? { id, name: call.name, parameters: call.arguments } : { id, name: unreadableCallName(error), parameters: {}, malformed: true, reason: error.summary },
        ),
        stats: { ...replyStats, toolCalls: parsed.calls.length },
      });
      this.history.push({ role: "assistant", content: outcome.text, ...(outcome.native.length ? { toolCalls: outcome.native } : {}) });
      if (!items.length) {
        if (!parsed.text.trim()) yield { type: "warning", message: "The model gave an empty answer. Ask again, or put the question another way." };
        yield* finish("answer", parsed.text.trim());
        return stats;
      }
      const results: string[] = [];
      // Each result is stored before the next call runs (and so before the next request).
      const record = async (callId: string, name: string, r: { success: boolean; data?: string; error?: string; code?: ToolResult["code"]; summary?: string }) => {
        const block = formatToolResult(name, { callId, success: r.success, ...(r.data !== undefined ? { data: r.data } : {}), ...(r.error !== undefined ? { error: r.error } : {}) });
        results.push(block);
        await recorder?.toolResult({ callId, name, success: r.success, block, ...(r.error !== undefined ? { error: r.error } : {}), ...(r.code ? { code: r.code } : {}), ...(r.summary ? { summary: r.summary } : {}) });
      };
      let aborted = false;
      let loop: GuardStop | null = null;
      const reply = newReplyId();
      for (const { id, call, error } of items) {
        const name = call ? call.name : unreadableCallName(error);
        if (aborted || loop) {
          // Every call gets a result, so the history stays well-formed for the next request.
          await record(id, name, { success: false, error: "not run: the turn was stopped before this call", code: "CANCELLED" });
          continue;
        }
        // Failed calls count too: a model sending the same broken call again is stuck as well.
        const found = doom.record(call ? { call } : { error });
        if (found) {
          const reason = describeLoop(found);
          yield { type: "loop-detected", reason };
          const stopped = "Stopped: this call repeats earlier ones without progress. Answer with what you have.";
          if (call) yield* this.reportUnrun(id, call, stopped);
          else yield* reportUnreadable(id, error, stopped);
          await record(id, name, { success: false, error: stopped, code: "CANCELLED" });
          loop = {
            reason: "doom-loop",
            text: `Stopped: ${reason}. This usually means the model is stuck; rephrase the request or give it the missing detail.`,
            why: "you were repeating the same tool calls without progress",
          };
          continue;
        }
        if (!call) {
          // Shown and counted like a call that failed (the reason in a few words; the model reads it in full).
          yield* reportUnreadable(id, error);
          stats.toolCalls++;
          await record(id, name, { success: false, error: error.message, code: "INVALID_ARGS" });
          continue;
        }
        const result: ToolResult | "abort" = yield* this.runTool(id, call, stats, reply, signal);
        if (result === "abort") {
          await record(id, call.name, { success: false, error: "cancelled by the user", code: "CANCELLED" });
          aborted = true;
          continue;
        }
        await record(id, call.name, {
          success: result.success,
          ...(result.data !== undefined ? { data: result.data } : {}),
          ...(result.error !== undefined ? { error: result.error } : {}),
          ...(result.code ? { code: result.code } : {}),
          ...(result.success && result.display.summary ? { summary: result.display.summary } : {}),
        });
      }
      // Results go back as data, in one message, right after the calls they answer.
      this.history.push({ role: "user", content: results.join("\n\n") });
      if (aborted) {
        yield* finish("aborted", "Aborted.", { unanswered: { how: "stopped" } });
        return stats;
      }
      const max = this.opts.maxToolRounds;
      closing = loop ?? (round + 1 >= max
        ? {
            reason: "max-rounds",
            text: `Stopped after ${max} consecutive tool rounds without a final answer (agent.maxToolRounds). Ask again with a narrower question, or raise the limit.`,
            why: `the limit of ${max} rounds of tool calls for one question was reached`,
          }
        : null);
    }
  }

  /** A call the loop guard stopped: shown like any other call, with the reason as its failed result. */
  private *reportUnrun(callId: string, call: ParsedCall, error: string): Generator<AgentEvent, void> {
    const title = this.opts.registry.get(call.name)?.titleFor(call.arguments) ?? call.name;
    this.turnTools.push(call.name);
    yield { type: "tool-call", callId, name: call.name, args: call.arguments, title };
    yield {
      type: "tool-result",
      result: { callId, name: call.name, success: false, error, code: "CANCELLED", truncated: false, display: { title, summary: error }, durationMs: 0 },
    };
  }

  /**
   * `closing`: sent after the history, in this request only (closingInstruction). `takeBack`: abort at a
   * failure may give the message back (ErrorSituation).
   */
  private async *requestOnce(
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
        const stream = this.opts.llm.chatStream({ messages: joinUserRuns([{ role: "system", content: system }, ...this.history, ...(closing ? [closing] : [])]), signal });
        for await (const chunk of stream) {
          if (chunk.type === "text") {
            text += chunk.text;
            this.opts.recorder?.streamed?.(text);
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
          const fallback = { promptTokens: this.estimatePrompt(system), completionTokens: this.opts.estimator?.estimate(text) ?? 0 };
          stats.promptTokens += response.promptTokens ?? fallback.promptTokens;
          stats.completionTokens += response.completionTokens ?? fallback.completionTokens;
          yield { type: "response", stats: response };
          if (response.doneReason === "length") {
            yield { type: "warning", message: "The model stopped because it ran out of room (Ollama's done_reason \"length\"): this reply is cut off. Ask it to go on, or /compact to make room." };
          }
          if (this.opts.recorder) yield { type: "context", ...this.opts.recorder.response(response, fallback, this.history.length) };
        }
        return { kind: "reply", text, native, completionTokens: response?.completionTokens ?? null, unclosed: filter.unclosed() };
      } catch (err) {
        // No stats come for a stream cut short, but the model read the prompt and wrote what streamed:
        // estimated, they count (an interrupted or broken-off answer showed "0 tokens" after seconds of text).
        if (text) {
          stats.requests++;
          stats.promptTokens += this.estimatePrompt(system);
          stats.completionTokens += this.opts.estimator?.estimate(text) ?? 0;
        }
        const partial = shown ? { partial: shown } : {};
        const interrupted: RoundOutcome = { kind: "stop", reason: "cancelled", text: text ? `${text}\n[interrupted]` : "[interrupted]", ...partial, unanswered: { how: "interrupted", ...partial } };
        if (isLlmCancelled(err) || signal?.aborted) return interrupted;
        const error = isIpuaroError(err) ? err : new IpuaroError("llm", err instanceof Error ? err.message : String(err));
        if (error.recoverable && this.opts.autoRetry && autoRetries < AUTO_RETRIES) {
          const pauseMs = AUTO_RETRY_PAUSE_MS * 2 ** autoRetries++;
          yield { type: "retry", reason: `${error.message} (llm.autoRetry: again in ${pauseMs / 1000} s, ${autoRetries} of ${AUTO_RETRIES})` };
          if (!(await pause(pauseMs, signal))) return interrupted;
          continue;
        }
        const choice = error.recoverable ? await this.opts.ui.chooseOnError(error, { during: "request", takeBack }) : "abort";
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

  private estimatePrompt(system: string): number {
    const e = this.opts.estimator;
    if (!e) return 0;
    return e.estimate(system) + this.history.reduce((n, m) => n + e.estimate(m.content), 0);
  }

  private async *runTool(callId: string, call: ParsedCall, stats: TurnStats, reply: string, signal?: AbortSignal): AsyncGenerator<AgentEvent, ToolResult | "abort"> {
    const tool = this.opts.registry.get(call.name);
    const title = tool?.titleFor(call.arguments) ?? call.name;
    this.turnTools.push(call.name);
    yield { type: "tool-call", callId, name: call.name, args: call.arguments, title };
    stats.toolCalls++;
    if (!tool) throw new Error(`unregistered tool ${call.name}`); // the parser passes registered names only (native calls too)
    for (;;) {
      try {
        const result = await tool.run(callId, call.arguments, { ...this.opts.tools, ports: this.ports(), signal, reply });
        yield { type: "tool-result", result };
        return result;
      } catch (err) {
        const error = isIpuaroError(err) ? err : new IpuaroError("file", err instanceof Error ? err.message : String(err));
        const choice = await this.opts.ui.chooseOnError(error, { during: "tool" });
        yield { type: "error", error, choice };
        if (choice === "retry") continue;
        if (choice === "abort") return "abort";
        const result: ToolResult = {
          callId,
          name: call.name,
          success: false,
          error: `${error.type} error: ${error.message}`,
          code: "UNAVAILABLE",
          truncated: false,
          display: { title, summary: error.message },
          durationMs: 0,
        };
        yield { type: "tool-result", result };
        return result;
      }
    }
  }
}
