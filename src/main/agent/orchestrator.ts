// The agent loop (seed 000 "Общий флоу"): user message → context → model → tool calls → results back →
// … until a final answer. An async generator of typed events: the caller renders them and answers the
// UI port's questions; nothing here knows how things are shown.
import { IpuaroError, isIpuaroError } from "../errors.js";
import type { LlmClient, LlmMessage } from "../llm/ollama-client.js";
import { formatToolResult, parserCallExample, type ToolFormat } from "../llm/system-prompt.js";
import { parseToolCalls, type ParsedCall, type ParsedItem } from "../llm/tool-call-parser.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type { ToolRegistry } from "../tools/registry.js";
import { newReplyId } from "../tools/reply-edits.js";
import type { ToolContext, ToolPorts, ToolResult } from "../tools/tool-types.js";
import type { ContextEvent, ConversationRecorder } from "../session/conversation-recorder.js";
import { unansweredNote } from "../session/session-tree.js";
import type { UnansweredTurn } from "../session/session-types.js";
import type { AgentEvent, FinishReason, TurnStats } from "./events.js";
import { describeLoop, DoomLoopDetector } from "./loop-guards.js";
import type { UiPort } from "./ports.js";
import { reportUnreadable, unreadableCallName } from "./unreadable-call.js";
import { oversizedMessageError, oversizedRequestError } from "./oversized-request.js";
import { requestOnce, type RequestDeps, type RoundOutcome } from "./model-request.js";

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

/** What a turn yields: the agent's events plus the session's context reports. */
export type TurnEvent = AgentEvent | ContextEvent;
export { AUTO_RETRIES } from "./model-request.js";

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

  private requestDeps(): RequestDeps {
    const o = this.opts;
    return { llm: o.llm, history: this.history, recorder: o.recorder, estimator: o.estimator, ui: o.ui, autoRetry: !!o.autoRetry };
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
      await recorder?.turnFinished({ reason, timeMs: stats.timeMs, tokens: stats.tokens, toolCalls: stats.toolCalls, ...(reason !== "answer" ? { text } : {}), ...(unanswered ? { unanswered } : {}) });
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
      const outcome: RoundOutcome = yield* requestOnce(this.requestDeps(), system, stats, known, signal, closing ? closingInstruction(closing) : undefined, takeBack);
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
