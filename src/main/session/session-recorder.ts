// The orchestrator's ConversationRecorder over a LiveSession: each step written before the next one,
// token counts and the context fill kept per request, and the compressor run when the fill crosses
// context.autoCompressAt, when the model's view holds more than session.maxHistoryMessages messages
// (older turns are then summarised, like a full context), or by hand through compact().
import { compactConversation, loadedFilesOf, shrinksContext, type CompactionRun, type Summariser } from "../context/compression/compact-conversation.js";
import { forgetRead } from "../tools/read-snapshots.js";
import { summariseWithModel } from "../context/compression/conversation-summary.js";
import { EDIT_TOOL_NAMES } from "../context/compression/tool-result-blocks.js";
import type { IpuaroConfig } from "../config/schema.js";
import { errorMessage } from "../errors.js";
import type { LlmClient, LlmMessage, ResponseStats } from "../llm/ollama-client.js";
import type { TokenEstimator } from "../llm/token-estimator.js";
import type {
  AssistantReplyRecord,
  ContextMeasure,
  ConversationRecorder,
  MessageFit,
  PreparedRequest,
  RequestLimit,
  ToolResultRecord,
  TurnOutcome,
} from "./conversation-recorder.js";
import type { LiveSession } from "./live-session.js";
import type { ChatMessage, SessionToolResult } from "./session-types.js";

/** How often a streaming reply is saved as a draft. */
const DRAFT_EVERY_MS = 1000;

export interface SessionRecorderOptions {
  session: LiveSession;
  /** Writes the summaries; its contextWindow is the limit every request uses. */
  llm: Pick<LlmClient, "chat" | "contextWindow" | "contextWindowKnown">;
  estimator: Pick<TokenEstimator, "estimate" | "estimateMessages">;
  context: Pick<IpuaroConfig["context"], "autoCompressAt" | "compressionMethod" | "maxContextUsage">;
  /** session.maxHistoryMessages; unset: no limit on the number of messages. */
  maxHistoryMessages?: number;
}

export interface CompactOptions {
  /** The fixed part the next request will carry (counted, never changed). */
  system: string;
  focus?: string;
  trigger: "auto" | "manual";
  signal?: AbortSignal;
}

export interface CompactOutcome {
  report: CompactionRun;
  /** The history to use from now on; null when the compaction was not applied (report.skipped says why). */
  history: LlmMessage[] | null;
}

class CompactionCancelled extends Error {}

export class SessionRecorder implements ConversationRecorder {
  /** The tool message of the round in progress, completed one result at a time. */
  private pendingTool: { entryId: string; message: ChatMessage } | null = null;
  /** The user message that started the current turn (its outcome is written on it). */
  private turnUser: { entryId: string; message: ChatMessage } | null = null;
  /** When the streaming reply was last saved as a draft (0: no draft saved this turn). */
  private draftSavedAt = 0;
  private draftWrite: Promise<void> = Promise.resolve();
  /**
   * The last summary the model wrote, by its request. A compaction that would not shrink the context is
   * not applied, so the next request plans the same one again: without this, every request of a long
   * turn would ask the model for the same summary once more.
   */
  private lastSummary: { key: string; text: string } | null = null;

  constructor(private readonly opts: SessionRecorderOptions) {}

  private get session(): LiveSession {
    return this.opts.session;
  }

  private get stats() {
    return this.session.state.stats;
  }

  nextCallId(): string {
    return this.session.nextCallId();
  }

  async userMessage(text: string, opts: { command?: "eval" } = {}): Promise<void> {
    this.pendingTool = null;
    const message: ChatMessage = { role: "user", content: text, timestamp: Date.now(), ...(opts.command ? { command: opts.command } : {}) };
    this.turnUser = { entryId: await this.session.appendMessage(message), message };
  }

  /** Saves the reply so far at most every DRAFT_EVERY_MS (see LiveSession.recoverDraft); writes never overlap. */
  streamed(text: string): void {
    const user = this.turnUser;
    const now = Date.now();
    if (!user || now - this.draftSavedAt < DRAFT_EVERY_MS) return;
    this.draftSavedAt = now;
    this.draftWrite = this.draftWrite.then(() => this.session.saveDraft(user.entryId, text)).catch(() => {});
  }

  /** The reply ended one way or another: its draft goes (only when one was saved). */
  private async dropDraft(): Promise<void> {
    if (this.draftSavedAt === 0) return;
    this.draftSavedAt = 0;
    await this.draftWrite;
    await this.session.saveDraft(null).catch(() => {});
  }

  async assistantReply(reply: AssistantReplyRecord): Promise<void> {
    this.pendingTool = null;
    await this.dropDraft();
    this.stats.toolCalls += reply.calls.filter((c) => !c.malformed).length;
    await this.session.appendMessage({
      role: "assistant",
      content: reply.content,
      timestamp: Date.now(),
      ...(reply.calls.length > 0 ? { toolCalls: reply.calls } : {}),
      ...(reply.nativeToolCalls.length > 0 ? { nativeToolCalls: reply.nativeToolCalls } : {}),
      stats: reply.stats,
    });
  }

  async toolResult(r: ToolResultRecord): Promise<void> {
    const result: SessionToolResult = {
      callId: r.callId,
      name: r.name,
      success: r.success,
      ...(r.error !== undefined ? { error: r.error } : {}),
      ...(r.code !== undefined ? { code: r.code } : {}),
      ...(r.summary !== undefined ? { summary: r.summary } : {}),
    };
    if (r.code === "REJECTED" && EDIT_TOOL_NAMES.has(r.name)) this.stats.editsRejected++;
    const pending = this.pendingTool;
    if (!pending) {
      const message: ChatMessage = { role: "tool", content: r.block, timestamp: Date.now(), toolResults: [result] };
      const entryId = await this.session.appendMessage(message);
      this.pendingTool = { entryId, message };
    } else {
      const message: ChatMessage = {
        ...pending.message,
        content: `${pending.message.content}\n\n${r.block}`,
        toolResults: [...(pending.message.toolResults ?? []), result],
      };
      await this.session.updateMessage(pending.entryId, message);
      pending.message = message;
    }
    this.session.state.context.loadedFiles = loadedFilesOf(this.session.view());
  }

  response(stats: ResponseStats, fallback: { promptTokens: number; completionTokens: number }, historyLength: number): ContextMeasure {
    const prompt = stats.promptTokens ?? fallback.promptTokens;
    const completion = stats.completionTokens ?? fallback.completionTokens;
    this.stats.totalTokens += prompt + completion;
    const context = this.session.state.context;
    context.tokensUsed = prompt + completion;
    context.tokensLimit = this.opts.llm.contextWindow;
    // The reply joins the history next; the count covers it too.
    context.measuredMessages = historyLength + 1;
    return { tokensUsed: context.tokensUsed, tokensLimit: context.tokensLimit };
  }

  async turnFinished(outcome: TurnOutcome): Promise<void> {
    this.pendingTool = null;
    await this.dropDraft();
    const user = this.turnUser;
    this.turnUser = null;
    this.stats.totalTime += Math.round(outcome.timeMs);
    this.stats.turns++;
    // The message keeps its turn's stats line and, when the turn ended without an answer (the model down,
    // interrupted), why: both are shown with it when the session is shown again. (Unless a rewind during
    // the turn took the message away.) Saving the message saves the session's state too.
    if (user && this.session.state.entries.has(user.entryId)) {
      await this.session.updateMessage(user.entryId, {
        ...user.message,
        turnStats: { timeMs: Math.round(outcome.timeMs), tokens: outcome.tokens, toolCalls: outcome.toolCalls },
        ...(outcome.reason !== "answer" && outcome.text ? { outcome: outcome.text } : {}),
        ...(outcome.unanswered ? { unanswered: outcome.unanswered } : {}),
      });
    } else await this.session.saveState();
  }

  /** Tokens of a request carrying `system` and `history`, by the calibrated estimator. */
  countTokens(system: string, history: readonly LlmMessage[]): number {
    return this.opts.estimator.estimateMessages([{ content: system }, ...history]);
  }

  /**
   * The size of the next request: the server's count of the last one plus an estimate of the messages
   * added since (an estimate of everything only when there is no usable count).
   */
  nextRequestTokens(system: string, history: readonly LlmMessage[]): number {
    const c = this.session.state.context;
    const measured = c.measuredMessages;
    if (measured !== undefined && c.tokensUsed > 0 && c.tokensLimit === this.opts.llm.contextWindow && measured <= history.length) {
      return c.tokensUsed + this.opts.estimator.estimateMessages(history.slice(measured));
    }
    return this.countTokens(system, history);
  }

  /**
   * More messages than session.maxHistoryMessages, and some before the last user message that a
   * summary could replace (the current turn is never summarised, so a long turn alone does not loop).
   */
  private tooManyMessages(): boolean {
    const max = this.opts.maxHistoryMessages;
    if (max === undefined) return false;
    const view = this.session.view();
    if (view.length <= max) return false;
    let lastUser = -1;
    for (let i = view.length - 1; i >= 0 && lastUser < 0; i--) if (view[i]!.role === "user" && view[i]!.message !== null) lastUser = i;
    return view.slice(0, Math.max(0, lastUser)).some((m) => m.entryId !== null);
  }

  /** The most a request may fill (see sizeRequest). */
  private requestLimit(): RequestLimit {
    const window = this.opts.llm.contextWindow;
    // With compression turned off (autoCompressAt null) nothing could make room: only the window binds.
    const share = this.opts.context.autoCompressAt === null ? 1 : this.opts.context.maxContextUsage;
    return { limit: Math.floor(window * share), window, share };
  }

  measureMessage(input: { system: string; text: string }): MessageFit {
    const bound = this.requestLimit();
    const messageTokens = this.opts.estimator.estimateMessages([{ content: input.text }]);
    const minimumTokens = this.countTokens(input.system, [{ role: "user", content: input.text }]);
    return { ...bound, messageTokens, minimumTokens, fits: bound.window <= 0 || minimumTokens <= bound.limit };
  }

  async beforeRequest(input: { system: string; history: readonly LlmMessage[]; signal?: AbortSignal }): Promise<PreparedRequest> {
    const threshold = this.opts.context.autoCompressAt;
    const limit = this.opts.llm.contextWindow;
    const full = threshold !== null && limit > 0 && this.nextRequestTokens(input.system, input.history) >= threshold * limit;
    if (!full && !this.tooManyMessages()) return this.sizeRequest(input, { history: null, events: [] });
    let outcome: CompactOutcome | null;
    try {
      outcome = await this.compact({ system: input.system, trigger: "auto", ...(input.signal ? { signal: input.signal } : {}) });
    } catch (error) {
      // Compression only saves room: when it breaks, the request may still fit.
      return this.sizeRequest(input, { history: null, events: [{ type: "compaction-failed", message: `context compression failed: ${errorMessage(error)}` }] });
    }
    if (!outcome?.history) return this.sizeRequest(input, { history: null, events: [] });
    return this.sizeRequest(input, { history: outcome.history, events: [{ type: "compacted", report: outcome.report }] });
  }

  /**
   * Marks a request that would still fill more of the window than context.maxContextUsage allows. Past
   * the window Ollama keeps the end and drops the start, the system prompt and the tools' description
   * first, and answers as if nothing was wrong; short of it, the rest of the window is the answer's room.
   * Until the server has counted a request, the estimate is the session's context size: a first turn
   * interrupted before any answer left the status bar at `[ctx: –]`.
   */
  private sizeRequest(input: { system: string; history: readonly LlmMessage[] }, prepared: PreparedRequest): PreparedRequest {
    const { limit, window, share } = this.requestLimit();
    const tokens = this.nextRequestTokens(input.system, prepared.history ?? input.history);
    const context = this.session.state.context;
    context.systemTokens = this.countTokens(input.system, []);
    // A window the model has not confirmed (Ollama not answering yet) is no measure: a share of the
    // configured 128K showed 4% of what was 15% of the model's 32K.
    if (context.measuredMessages === undefined && window > 0 && this.opts.llm.contextWindowKnown !== false) {
      // measuredMessages stays unset, so the next request is still estimated in full (nextRequestTokens).
      context.tokensUsed = tokens;
      context.tokensLimit = window;
      prepared = { ...prepared, events: [...prepared.events, { type: "context", tokensUsed: tokens, tokensLimit: window }] };
    }
    return window > 0 && tokens > limit ? { ...prepared, overflow: { tokens, limit, window, share } } : prepared;
  }

  /**
   * The context as the history is now, when no count of the server's describes it: after a rewind, or on
   * opening a session whose last count was of another history or window. Estimated as a request is
   * before the server has counted one (sizeRequest): the fixed part of the last request (`system` when
   * none was recorded) and the history. The limit is the model's window; while the model has not answered
   * yet, the window of the last count, if there was one (0: not known, shown as such).
   */
  remeasure(system: string): ContextMeasure {
    const context = this.session.state.context;
    const history = this.session.llmHistory();
    delete context.measuredMessages;
    context.tokensUsed = history.length ? (context.systemTokens ?? this.countTokens(system, [])) + this.opts.estimator.estimateMessages(history) : 0;
    if (this.opts.llm.contextWindowKnown !== false) context.tokensLimit = this.opts.llm.contextWindow;
    context.loadedFiles = loadedFilesOf(this.session.view());
    return { tokensUsed: context.tokensUsed, tokensLimit: context.tokensLimit };
  }

  /**
   * Whether the stored context figure describes the history as it is now and the window in use: not after
   * a rewind (the head moved: no count covers the history), nor when the window changed since.
   */
  contextCurrent(): boolean {
    const c = this.session.state.context;
    const length = this.session.llmHistory().length;
    if (length === 0) return c.tokensUsed === 0;
    if (c.measuredMessages === undefined || c.measuredMessages > length) return false;
    return this.opts.llm.contextWindowKnown === false || c.tokensLimit === this.opts.llm.contextWindow;
  }

  /** Compresses the session's context now. null: nothing left that compression could shrink (or cancelled). */
  async compact(opts: CompactOptions): Promise<CompactOutcome | null> {
    let summaryError: string | undefined;
    let summaryTokens = 0;
    const summarise: Summariser = async ({ transcript, focus }) => {
      if (this.opts.context.compressionMethod === "truncate") return null;
      const key = `${focus ?? ""}\u0000${transcript}`;
      if (this.lastSummary?.key === key) return { text: this.lastSummary.text, method: "llm-summary" };
      try {
        const r = await summariseWithModel(this.opts.llm as LlmClient, { transcript, ...(focus ? { focus } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
        summaryTokens += r.tokens;
        this.lastSummary = { key, text: r.text };
        return { text: r.text, method: "llm-summary" };
      } catch (error) {
        if (opts.signal?.aborted) throw new CompactionCancelled();
        summaryError = errorMessage(error);
        return null;
      }
    };
    // Estimates of the new size are scaled by how far the estimator is from the server's last count.
    const current = this.session.llmHistory();
    const estimated = this.countTokens(opts.system, current);
    const ratio = estimated > 0 ? Math.min(2, Math.max(0.5, this.nextRequestTokens(opts.system, current) / estimated)) : 1;
    let result: Awaited<ReturnType<typeof compactConversation>>;
    try {
      result = await compactConversation({
        path: this.session.path(),
        countTokens: (h) => Math.round(this.countTokens(opts.system, h) * ratio),
        tokensLimit: this.opts.llm.contextWindow,
        summarise,
        trigger: opts.trigger,
        ...(opts.focus?.trim() ? { focus: opts.focus.trim() } : {}),
      });
    } catch (error) {
      if (error instanceof CompactionCancelled) return null;
      throw error;
    }
    this.stats.totalTokens += summaryTokens;
    if (!result) return null;
    const report: CompactionRun = { ...result.report, ...(summaryError ? { summaryError } : {}) };
    // Compaction exists to make room: one that would not (a two-turn conversation whose summary is
    // longer than the turns) would replace the history with something larger, so it is dropped.
    if (!shrinksContext(result.report)) return { report: { ...report, skipped: "no-gain" }, history: null };
    this.stats.compactions++;
    const context = this.session.state.context;
    context.tokensUsed = result.report.tokensAfter;
    context.tokensLimit = result.report.tokensLimit;
    context.loadedFiles = result.report.loadedFiles;
    context.measuredMessages = result.history.length;
    // A file whose code left the context is no longer known: it must be read again before an edit, as
    // after --continue (LiveSession.restoreReads).
    for (const rel of result.report.droppedFiles) forgetRead(this.session.toolState, rel);
    await this.session.appendCompaction(result.record);
    return { report, history: result.history };
  }
}
