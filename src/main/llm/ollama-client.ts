// The model client: streaming chat against Ollama with num_ctx always set (without it Ollama silently
// cuts the prompt to 2048 tokens), cancellation, server-side stats, and the start-up checks.
import { Ollama, type ChatResponse, type Message, type Tool } from "ollama";
import { errorMessage, IpuaroError } from "../errors.js";
import { isUnreachable, LlmCancelledError, LlmIdleTimeoutError, noAnswerError, toLlmError, unreachableError, type LlmErrorContext } from "./llm-errors.js";
import { DEFAULT_IDLE_TIMEOUTS, MODEL_PROBE_TIMEOUT_MS, ollamaFetch, type IdleTimeouts } from "./ollama-fetch.js";
import { normalizeOllamaHost } from "./ollama-host.js";
import type { TokenEstimator } from "./token-estimator.js";

export { normalizeOllamaHost } from "./ollama-host.js";
export { DEFAULT_IDLE_TIMEOUTS, MODEL_PROBE_TIMEOUT_MS, type IdleTimeouts } from "./ollama-fetch.js";

export interface NativeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface LlmMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Calls the server parsed itself (`message.tool_calls`), kept so history replays them. */
  toolCalls?: NativeToolCall[];
  toolName?: string;
}

/** Per-response stats from the server's own counts. A count the server left out is null. */
export interface ResponseStats {
  promptTokens: number | null;
  completionTokens: number | null;
  totalMs: number;
  promptEvalMs: number;
  evalMs: number;
  /** "stop", or "length" when the reply hit the token limit. */
  doneReason: string;
}

export type LlmChunk =
  | { type: "text"; text: string }
  | { type: "tool_calls"; calls: NativeToolCall[] }
  | { type: "done"; stats: ResponseStats };

export interface ChatInput {
  messages: readonly LlmMessage[];
  /** Aborting it ends the stream with an LlmCancelledError. */
  signal?: AbortSignal;
  /** Native tool definitions; ipuaro's protocol is XML in text, so this is normally left out. */
  tools?: Tool[];
}

/** An async stream of chunks that can also be cancelled directly. Iterate it once. */
export interface ChatStream extends AsyncIterable<LlmChunk> {
  abort(): void;
}

export interface ChatResult {
  text: string;
  toolCalls: NativeToolCall[];
  stats: ResponseStats;
}

export type ModelCheck =
  | {
      status: "ready";
      model: string;
      /** The window every request will use: config capped by the model's own context length. */
      contextWindow: number;
      modelContextLength: number | null;
      /** Set when the config asked for more than the model supports. */
      notice?: string;
    }
  | { status: "missing"; model: string; host: string; installed: string[] };

export interface PullProgress {
  status: string;
  digest?: string;
  completed?: number;
  total?: number;
}

export interface LlmClient {
  readonly host: string;
  readonly model: string;
  readonly contextWindow: number;
  /**
   * false while `contextWindow` is only the configured one because the model could not be asked yet
   * (DeferredModelCheck before its check passes): a context share measured against it would be made up.
   * Absent: known.
   */
  readonly contextWindowKnown?: boolean;
  chatStream(input: ChatInput): ChatStream;
  chat(input: ChatInput): Promise<ChatResult>;
  /** Aborting `signal` (Ctrl+C) ends the check at once with an LlmCancelledError. */
  checkModel(signal?: AbortSignal): Promise<ModelCheck>;
  pull(options?: PullOptions): Promise<void>;
}

export interface PullOptions {
  /** Defaults to the configured model. */
  model?: string;
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
}

export interface OllamaClientOptions {
  host: string;
  model: string;
  /** llm.contextWindow; checkModel() lowers it to what the model supports. */
  contextWindow: number;
  temperature: number;
  keepAlive?: string | number;
  /** Calibrated from every response's prompt_eval_count. */
  tokenEstimator?: TokenEstimator;
  /** How long the server may stay silent before a request is given up (DEFAULT_IDLE_TIMEOUTS). */
  timeouts?: Partial<IdleTimeouts>;
  /** How long a model-check request may go unanswered (MODEL_PROBE_TIMEOUT_MS). */
  probeTimeoutMs?: number;
}

export class OllamaClient implements LlmClient {
  readonly host: string;
  readonly model: string;
  private window: number;
  private readonly timeouts: IdleTimeouts;
  /** The model check's limit, before and between chunks alike: its answers are small and immediate. */
  private readonly probeTimeouts: IdleTimeouts;

  constructor(private readonly options: OllamaClientOptions) {
    if (!Number.isInteger(options.contextWindow) || options.contextWindow <= 0) {
      throw new IpuaroError("config", `llm.contextWindow must be a positive integer, got ${options.contextWindow}`, {
        recoverable: false,
      });
    }
    this.timeouts = { ...DEFAULT_IDLE_TIMEOUTS, ...options.timeouts };
    const probeMs = options.probeTimeoutMs ?? MODEL_PROBE_TIMEOUT_MS;
    this.probeTimeouts = { firstByteMs: probeMs, betweenChunksMs: probeMs };
    for (const [name, ms] of Object.entries({ ...this.timeouts, probeMs })) {
      if (!(Number.isFinite(ms) && ms > 0)) {
        throw new IpuaroError("config", `the ${name} timeout must be a positive number of milliseconds, got ${ms}`, { recoverable: false });
      }
    }
    try {
      this.host = normalizeOllamaHost(options.host);
    } catch (err) {
      if (err instanceof IpuaroError) throw new IpuaroError("config", `llm.host ${err.message}`, { recoverable: false, suggestion: err.suggestion, cause: err });
      throw err;
    }
    this.model = options.model;
    this.window = options.contextWindow;
  }

  get contextWindow(): number {
    return this.window;
  }

  chatStream(input: ChatInput): ChatStream {
    const controller = linkedController(input.signal);
    const generator = this.streamChunks(input, controller);
    return Object.assign(generator, { abort: () => controller.abort(new LlmCancelledError()) });
  }

  async chat(input: ChatInput): Promise<ChatResult> {
    const controller = linkedController(input.signal);
    try {
      const response = await this.ollamaFor(controller.signal).chat({ ...this.request(input), stream: false });
      const stats = this.finish(input, response);
      return { text: response.message?.content ?? "", toolCalls: fromWireCalls(response.message?.tool_calls), stats };
    } catch (err) {
      throw toLlmError(err, this.context("waiting for the model's reply"), controller.signal.aborted);
    } finally {
      controller.dispose();
    }
  }

  /**
   * Start-up check: is Ollama there, is the model installed, and how big a window can it take.
   * Unreachable, or silent for MODEL_PROBE_TIMEOUT_MS → throws a non-recoverable IpuaroError naming the
   * URL. Missing → `status: "missing"`. When ready, this client's contextWindow becomes the capped value.
   */
  async checkModel(signal?: AbortSignal): Promise<ModelCheck> {
    const controller = linkedController(signal);
    const ollama = this.ollamaFor(controller.signal, this.probeTimeouts);
    const fail = (err: unknown, action: string): Error => {
      const ctx = this.context(action);
      if (controller.signal.aborted) return toLlmError(err, ctx, true);
      if (isUnreachable(err)) return unreachableError(ctx, err, false);
      if (err instanceof LlmIdleTimeoutError) return noAnswerError(ctx, err);
      return toLlmError(err, ctx, false);
    };
    let installed: string[];
    let modelContextLength: number | null;
    try {
      try {
        installed = (await ollama.list()).models.map((m) => m.name);
      } catch (err) {
        throw fail(err, "listing models");
      }
      if (!installed.some((name) => sameModel(name, this.model))) {
        return { status: "missing", model: this.model, host: this.host, installed };
      }
      try {
        modelContextLength = contextLengthOf((await ollama.show({ model: this.model })).model_info);
      } catch (err) {
        throw fail(err, "reading the model's details");
      }
    } finally {
      controller.dispose();
    }
    const requested = this.options.contextWindow;
    this.window = modelContextLength === null ? requested : Math.min(requested, modelContextLength);
    const check: ModelCheck = { status: "ready", model: this.model, contextWindow: this.window, modelContextLength };
    if (modelContextLength !== null && requested > modelContextLength) {
      check.notice =
        `llm.contextWindow is ${requested} tokens but ${this.model} supports ${modelContextLength}; ` +
        `using ${modelContextLength}.`;
    }
    return check;
  }

  /** `ollama pull`, reporting progress (completed/total bytes of each layer). */
  async pull({ model = this.model, onProgress, signal }: PullOptions = {}): Promise<void> {
    const controller = linkedController(signal);
    const ctx = { ...this.context(`pulling ${model}`), model };
    try {
      // Verifying a multi-GB blob sends no progress for a while: the first-byte limit applies throughout.
      const patient = { ...this.timeouts, betweenChunksMs: Math.max(this.timeouts.betweenChunksMs, this.timeouts.firstByteMs) };
      const stream = await this.ollamaFor(controller.signal, patient).pull({ model, stream: true });
      for await (const part of stream) {
        throwIfAborted(controller.signal);
        onProgress?.({
          status: part.status,
          ...(part.digest ? { digest: part.digest } : {}),
          ...(typeof part.completed === "number" ? { completed: part.completed } : {}),
          ...(typeof part.total === "number" ? { total: part.total } : {}),
        });
      }
    } catch (err) {
      const aborted = controller.signal.aborted;
      const hasStatus = typeof (err as { status_code?: unknown } | null)?.status_code === "number";
      if (aborted || isUnreachable(err) || hasStatus || err instanceof IpuaroError) throw toLlmError(err, ctx, aborted);
      // An error line in the pull stream: the registry does not know the name, or the download failed.
      throw new IpuaroError("llm", `Could not pull '${model}' through ${this.host}: ${errorMessage(err)}`, {
        recoverable: false,
        suggestion: "Check the model name (https://ollama.com/library) and the network, then retry.",
        cause: err,
      });
    } finally {
      controller.dispose();
    }
  }

  private async *streamChunks(input: ChatInput, controller: LinkedController): AsyncGenerator<LlmChunk, void> {
    let finished = false;
    // Errors say where they happened: "Cannot reach Ollama … while streaming the model's reply" read as if
    // a reply had begun when the connection was refused.
    let answered = false;
    try {
      throwIfAborted(controller.signal);
      const stream = await this.ollamaFor(controller.signal).chat({ ...this.request(input), stream: true });
      answered = true;
      for await (const part of stream) {
        // Lines already buffered keep coming after an abort; stop at once rather than after them.
        throwIfAborted(controller.signal);
        const message = part.message;
        if (message?.content) {
          yield { type: "text", text: message.content };
          throwIfAborted(controller.signal);
        }
        const calls = fromWireCalls(message?.tool_calls);
        if (calls.length > 0) {
          yield { type: "tool_calls", calls };
          throwIfAborted(controller.signal);
        }
        if (part.done) {
          finished = true;
          yield { type: "done", stats: this.finish(input, part) };
        }
      }
    } catch (err) {
      throw toLlmError(err, this.context(answered ? "streaming the model's reply" : "asking for the model's reply"), controller.signal.aborted);
    } finally {
      // A consumer that stops early (break/return) must not leave the server generating.
      if (!finished) controller.abort(new LlmCancelledError());
      controller.dispose();
    }
  }

  private request(input: ChatInput) {
    return {
      model: this.model,
      messages: input.messages.map(toWireMessage),
      options: { num_ctx: this.window, temperature: this.options.temperature },
      ...(this.options.keepAlive !== undefined ? { keep_alive: this.options.keepAlive } : {}),
      ...(input.tools && input.tools.length > 0 ? { tools: input.tools } : {}),
    };
  }

  private finish(input: ChatInput, response: ChatResponse): ResponseStats {
    const stats: ResponseStats = {
      promptTokens: countOrNull(response.prompt_eval_count),
      completionTokens: countOrNull(response.eval_count),
      totalMs: nsToMs(response.total_duration),
      promptEvalMs: nsToMs(response.prompt_eval_duration),
      evalMs: nsToMs(response.eval_duration),
      doneReason: response.done_reason ?? "stop",
    };
    this.options.tokenEstimator?.calibrate({
      messages: input.messages,
      promptTokens: stats.promptTokens,
      contextWindow: this.window,
    });
    return stats;
  }

  /** A client per request: its fetch obeys our signal, gives up on a silent server and screens non-Ollama answers. */
  private ollamaFor(signal?: AbortSignal, timeouts: IdleTimeouts = this.timeouts): Ollama {
    return new Ollama({ host: this.host, fetch: ollamaFetch(signal, timeouts) });
  }

  private context(action: string): LlmErrorContext {
    return { host: this.host, model: this.model, action };
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new LlmCancelledError(signal.reason);
}

interface LinkedController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  dispose(): void;
}

/** Our own controller, aborted with the caller's signal, detachable so long-lived signals don't leak listeners. */
function linkedController(outer?: AbortSignal): LinkedController {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => outer?.removeEventListener("abort", onAbort),
  };
}

function toWireMessage(m: LlmMessage): Message {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls && m.toolCalls.length > 0
      ? { tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }
      : {}),
    ...(m.toolName !== undefined ? { tool_name: m.toolName } : {}),
  };
}

function fromWireCalls(calls: Message["tool_calls"]): NativeToolCall[] {
  const out: NativeToolCall[] = [];
  for (const call of calls ?? []) {
    const fn = call?.function;
    if (!fn || typeof fn.name !== "string") continue;
    let args: unknown = fn.arguments;
    // Some servers/models send arguments as a JSON string rather than an object.
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        args = { _raw: args };
      }
    }
    out.push({ name: fn.name, arguments: args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {} });
  }
  return out;
}

/** `model_info` is typed as a Map but is a plain object at runtime (notes §4, 30); accept both. */
export function contextLengthOf(modelInfo: unknown): number | null {
  const entries: Array<[string, unknown]> =
    modelInfo instanceof Map ? [...modelInfo.entries()] : modelInfo && typeof modelInfo === "object" ? Object.entries(modelInfo) : [];
  const arch = entries.find(([k]) => k === "general.architecture")?.[1];
  const preferred = entries.find(([k]) => k === `${String(arch)}.context_length`)?.[1];
  const any = entries.find(([k]) => k.endsWith(".context_length"))?.[1];
  const value = typeof preferred === "number" ? preferred : any;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/** Ollama treats a name without a tag as `:latest`. */
function sameModel(installed: string, wanted: string): boolean {
  const withTag = (n: string) => (n.includes(":") ? n : `${n}:latest`);
  return withTag(installed) === withTag(wanted);
}

function countOrNull(n: unknown): number | null {
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

function nsToMs(ns: unknown): number {
  return typeof ns === "number" && Number.isFinite(ns) ? Math.round(ns / 1e4) / 100 : 0;
}
