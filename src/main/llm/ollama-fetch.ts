// The fetch the ollama package is given. It (1) obeys our abort signal before headers exist (the
// package's own abort only exists once headers arrived), (2) gives up on a server that goes silent, and
// (3) turns answers that are not Ollama's JSON into OllamaHttpError before the package sees them (the
// package would console.log onto stdout and keep a whole HTML page as the error message).
import { LlmIdleTimeoutError, OllamaHttpError } from "./llm-errors.js";

export interface IdleTimeouts {
  /** From sending the request to the first byte of the reply's body. */
  firstByteMs: number;
  /** Between two chunks once the body has started. */
  betweenChunksMs: number;
}

/**
 * Before the first byte Ollama may be loading the model from disk (a 7B model's first load, or a swap to
 * another model) and evaluating the whole prompt, which on a CPU takes minutes; once tokens stream, a
 * gap of two minutes means the runner is stuck. Node's fetch itself gives up after 300 s without headers
 * or between body chunks (undici's defaults), so a longer first-byte limit would not take effect.
 * Not in the config schema yet: OllamaClientOptions.timeouts overrides them.
 */
export const DEFAULT_IDLE_TIMEOUTS: Readonly<IdleTimeouts> = { firstByteMs: 300_000, betweenChunksMs: 120_000 };

/**
 * The model check's requests (/api/tags, /api/show) are answered by Ollama's HTTP server from its
 * manifests and the model file's header, never by a runner, so a model loading or generating does not
 * hold them up: milliseconds, a second or two on a slow disk. A server silent for this long is hung, or
 * is not Ollama. Without a limit of their own they waited the chat's first-byte limit (five minutes) in
 * `run`, `doctor` and the UI's start. The chat keeps that long limit: its first byte comes only once the
 * model is loaded and the prompt evaluated.
 */
export const MODEL_PROBE_TIMEOUT_MS = 10_000;

/** Responses whose body must be null (the Response constructor refuses a body for them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function ollamaFetch(outer: AbortSignal | undefined, timeouts: IdleTimeouts): typeof fetch {
  return async (input, init) => {
    const idle = new AbortController();
    const signals = [init?.signal, outer, idle.signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
    const watch = new SilenceWatch(idle, timeouts);
    watch.waiting();
    let response: Response;
    try {
      response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    } catch (err) {
      watch.stop();
      throw idle.signal.aborted ? idle.signal.reason : err;
    }
    // Headers are here; the clock runs again only while someone waits for body bytes.
    watch.stop();
    const body = response.body && !NULL_BODY_STATUSES.has(response.status) ? watchBody(response.body, watch, idle.signal) : null;
    const watched = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    const contentType = response.headers.get("content-type") ?? "";
    // Ollama's API answers JSON or NDJSON; a web page at a 2xx means OLLAMA_HOST points at some web server.
    if (!response.ok || /text\/html/i.test(contentType)) throw OllamaHttpError.fromBody(response.status, await watched.text(), response.statusText);
    return watched;
  };
}

/** One timer: armed while we wait on the server, with the first-byte limit until a byte came. */
class SilenceWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private gotFirstByte = false;
  private readonly firstByteDeadline: number;

  constructor(
    private readonly idle: AbortController,
    private readonly timeouts: IdleTimeouts,
  ) {
    this.firstByteDeadline = Date.now() + timeouts.firstByteMs;
  }

  waiting(): void {
    this.stop();
    const [phase, limit, delay] = this.gotFirstByte
      ? (["between-chunks", this.timeouts.betweenChunksMs, this.timeouts.betweenChunksMs] as const)
      : (["first-byte", this.timeouts.firstByteMs, Math.max(0, this.firstByteDeadline - Date.now())] as const);
    // Aborting the fetch closes the connection, so the server (or a stuck runner) stops too.
    this.timer = setTimeout(() => this.idle.abort(new LlmIdleTimeoutError(phase, limit)), delay);
  }

  received(bytes: number): void {
    this.stop();
    if (bytes > 0) this.gotFirstByte = true;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The body, read through, with the clock running only while a read is pending: a consumer that is slow
 * to ask for the next chunk is not a silent server.
 */
function watchBody(body: ReadableStream<Uint8Array>, watch: SilenceWatch, idle: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      watch.waiting();
      try {
        const { done, value } = await reader.read();
        watch.received(value?.byteLength ?? 0);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        watch.stop();
        controller.error(idle.aborted ? idle.reason : err);
      }
    },
    cancel(reason) {
      watch.stop();
      return reader.cancel(reason);
    },
  });
}
