// Maps what the `ollama` package and Node's fetch throw onto ipuaro's typed errors.
// Detection goes by `cause.code` and `status_code`, not by message text (notes §4, 27–29): a server's own
// error text ("llama runner process has terminated") must not be mistaken for a transport failure.
import { IpuaroError } from "../errors.js";

/** The user (or the orchestrator) cancelled a request. Not an error to report: the turn just ends. */
export class LlmCancelledError extends Error {
  override readonly name = "LlmCancelledError";
  constructor(readonly reason?: unknown) {
    super("The model request was cancelled");
  }
}

export function isLlmCancelled(err: unknown): err is LlmCancelledError {
  return err instanceof LlmCancelledError;
}

/** Socket-level failures where nothing answered at all. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"]);
/** Failures after a response had started: the connection went away under us. */
const LOST_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

const STREAM_ENDED_EARLY = "Did not receive done or success response in stream.";

export interface LlmErrorContext {
  /** Origin of the Ollama server that was tried, e.g. http://127.0.0.1:11434. */
  host: string;
  model: string;
  /** What was being done, for the message ("chat", "listing models", "pulling"). */
  action: string;
}

export const START_OLLAMA_SUGGESTION =
  "Start Ollama with `ollama serve` (install it from https://ollama.com/download), " +
  "or point llm.host / OLLAMA_HOST at the server you use.";

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  // undici nests: TypeError("fetch failed").cause = Error{code} (sometimes one level deeper)
  for (let depth = 0; depth < 3 && e && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An error that says Ollama is not there at all (nothing listening, bad host name). */
export function isUnreachable(err: unknown): boolean {
  const code = causeCode(err);
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

export function unreachableError(ctx: LlmErrorContext, err: unknown, recoverable: boolean): IpuaroError {
  const code = causeCode(err) ?? "no answer";
  return new IpuaroError("llm", `Cannot reach Ollama at ${ctx.host} (${code}) while ${ctx.action}: is it running?`, {
    recoverable,
    suggestion: START_OLLAMA_SUGGESTION,
    cause: err,
  });
}

/**
 * Turns anything thrown while talking to Ollama into a typed error.
 * `aborted` is whether our own signal fired: then whatever was thrown is a cancellation.
 */
export function toLlmError(err: unknown, ctx: LlmErrorContext, aborted: boolean): Error {
  if (err instanceof LlmCancelledError || err instanceof IpuaroError) return err;
  if (aborted) return new LlmCancelledError(err);
  if (isUnreachable(err)) return unreachableError(ctx, err, true);

  const status = (err as { status_code?: unknown } | null)?.status_code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof status === "number") {
    if (status === 404) {
      return new IpuaroError("llm", `Ollama at ${ctx.host} does not have the model '${ctx.model}': ${message}`, {
        recoverable: false,
        suggestion: `Download it with \`ollama pull ${ctx.model}\`, or set llm.model to an installed model (\`ollama list\`).`,
        cause: err,
      });
    }
    // 5xx (runner crashed, out of memory, busy) and 429 may pass; other 4xx are our request's fault.
    const recoverable = status >= 500 || status === 429 || status === 408;
    return new IpuaroError("llm", `Ollama at ${ctx.host} answered HTTP ${status} while ${ctx.action}: ${message}`, {
      recoverable,
      ...(status === 500 && /memory|resources/i.test(message)
        ? { suggestion: "Lower llm.contextWindow or use a smaller model: the context does not fit in memory." }
        : {}),
      cause: err,
    });
  }
  const code = causeCode(err);
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    // Node's fetch gives up after 300 s without a byte: a huge prompt on a CPU can take that long to evaluate.
    return new IpuaroError("llm", `Ollama at ${ctx.host} sent nothing for 5 minutes while ${ctx.action}.`, {
      recoverable: true,
      suggestion: "The prompt may be too large for this machine: lower llm.contextWindow or use a smaller model.",
      cause: err,
    });
  }
  // ollama-js's own error for a stream that ended without its final chunk has no code to go by.
  if ((code !== undefined && LOST_CODES.has(code)) || message === STREAM_ENDED_EARLY) {
    return new IpuaroError("llm", `The connection to Ollama at ${ctx.host} was lost while ${ctx.action}.`, {
      recoverable: true,
      suggestion: "Retry; if it keeps happening, check the Ollama server log (it may have crashed or run out of memory).",
      cause: err,
    });
  }
  // fetch says only "fetch failed"; why is in its cause (e.g. "bad port": OLLAMA_HOST on a port fetch refuses).
  const cause = (err as { cause?: unknown } | null)?.cause;
  const why = message === "fetch failed" && cause instanceof Error && cause.message ? ` (${cause.message})` : "";
  return new IpuaroError("llm", `Ollama at ${ctx.host} failed while ${ctx.action}: ${message}${why}`, { recoverable: true, cause: err });
}
