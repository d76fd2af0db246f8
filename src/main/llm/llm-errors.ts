// Maps what the `ollama` package and Node's fetch throw onto ipuaro's typed errors.
// Detection goes by `cause.code` and `status_code`, not by message text (notes §4, 27–29): a server's own
// error text ("llama runner process has terminated") must not be mistaken for a transport failure.
import { STATUS_CODES } from "node:http";
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

/**
 * A non-OK (or HTML) answer, screened by our fetch before the ollama package sees it: the package would
 * console.log onto stdout and keep a whole HTML page as the message. `status_code` as on the package's
 * own ResponseError, so code that checks for a status works with both.
 */
export class OllamaHttpError extends Error {
  override readonly name = "OllamaHttpError";
  constructor(
    readonly status_code: number,
    /** The `error` of an Ollama-shaped JSON body (`{"error":"model 'x' not found"}`); null when the body was anything else. */
    readonly serverError: string | null,
    /** The body cut to a short one-line excerpt (an HTML page's title when it has one). */
    readonly excerpt: string,
    /** The status line's reason ("Bad Request"); empty when the server sent none. */
    readonly statusText = "",
  ) {
    super(serverError ?? `HTTP ${status_code}${excerpt ? ` (${excerpt})` : ""}`);
  }

  static fromBody(status: number, body: string, statusText = ""): OllamaHttpError {
    let serverError: string | null = null;
    try {
      const parsed: unknown = JSON.parse(body);
      const error = parsed && typeof parsed === "object" ? (parsed as { error?: unknown }).error : undefined;
      if (typeof error === "string" && error) serverError = error;
    } catch {
      // not JSON: not from Ollama's API
    }
    return new OllamaHttpError(status, serverError, serverError !== null ? oneLine(serverError, SERVER_ERROR_CHARS) : bodyExcerpt(body), oneLine(statusText, EXCERPT_CHARS));
  }
}

/** The server went silent: nothing before `firstByteMs`, or nothing between two chunks for `betweenChunksMs`. */
export class LlmIdleTimeoutError extends Error {
  override readonly name = "LlmIdleTimeoutError";
  constructor(
    readonly phase: "first-byte" | "between-chunks",
    readonly limitMs: number,
  ) {
    super(`no data from the server for ${formatSeconds(limitMs)} (${phase})`);
  }
}

/** A body that is not Ollama's is only evidence of what answered: a short excerpt is enough. */
const EXCERPT_CHARS = 160;
/** Ollama's own error texts are worth more room ("llama runner process has terminated: error loading model: …"). */
const SERVER_ERROR_CHARS = 400;

/** One short line of a response body: an HTML page's <title>, or its text without tags. */
export function bodyExcerpt(body: string, max = EXCERPT_CHARS): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  return oneLine(title ?? body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "), max);
}

/** Whitespace and control characters collapsed (a hostile body must not reach the terminal raw), cut at `max`. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "300 s", "0.25 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
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

/** Ollama's own 404 for an unknown model: `model 'x' not found` (older servers: `model "x" not found, try pulling it first`). */
const MODEL_NOT_FOUND = /\bmodel\b.*\bnot found\b/i;

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

/** fetch refuses some ports outright (1, 22, 25, 6000…) with a code-less `cause: Error("bad port")`. */
function isBadPort(err: unknown): boolean {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return err instanceof TypeError && cause instanceof Error && cause.message === "bad port";
}

/**
 * An error of ours saying no server answered at the configured address (not a bad port or a wrong server):
 * Ollama may simply not be started yet, so a UI can open and let the user retry later.
 */
export function isOllamaNotRunning(err: unknown): boolean {
  if (!(err instanceof IpuaroError) || err.type !== "llm") return false;
  // A server that took the connection and stayed silent is as good as none: a hung Ollama restarted
  // meanwhile is found by the next check.
  return (isUnreachable(err.cause) && !isBadPort(err.cause)) || err.code === "NO_ANSWER";
}

/**
 * A model-check request the server accepted and never answered (MODEL_PROBE_TIMEOUT_MS): Ollama answers
 * those at once, so it is hung, or whatever listens there is not Ollama.
 */
export function noAnswerError(ctx: LlmErrorContext, err: LlmIdleTimeoutError): IpuaroError {
  return new IpuaroError("llm", `Ollama at ${ctx.host} gave no answer after ${formatSeconds(err.limitMs)} while ${ctx.action}.`, {
    recoverable: false,
    code: "NO_ANSWER",
    suggestion:
      `Something accepts connections there but does not reply (\`curl ${ctx.host}/api/tags\` should answer at once): ` +
      "if it is Ollama, it is stuck — restart it (`ollama serve`); otherwise point OLLAMA_HOST / llm.host at Ollama.",
    cause: err,
  });
}

/** An error that says Ollama is not there at all (nothing listening, bad host name, a port fetch will not use). */
export function isUnreachable(err: unknown): boolean {
  const code = causeCode(err);
  return (code !== undefined && UNREACHABLE_CODES.has(code)) || isBadPort(err);
}

export function unreachableError(ctx: LlmErrorContext, err: unknown, recoverable: boolean): IpuaroError {
  if (isBadPort(err)) {
    const port = portOf(ctx.host);
    return new IpuaroError("llm", `Cannot reach Ollama at ${ctx.host} (bad port: fetch refuses to connect to port ${port}) while ${ctx.action}.`, {
      recoverable: false,
      suggestion: "Point OLLAMA_HOST / llm.host at the port Ollama listens on (11434 unless OLLAMA_HOST was changed for `ollama serve`).",
      cause: err,
    });
  }
  const code = causeCode(err) ?? "no answer";
  return new IpuaroError("llm", `Cannot reach Ollama at ${ctx.host} (${code}) while ${ctx.action}: is it running?`, {
    recoverable,
    suggestion: START_OLLAMA_SUGGESTION,
    cause: err,
  });
}

function portOf(host: string): string {
  try {
    return new URL(host).port || "?";
  } catch {
    return "?";
  }
}

function notOllamaError(ctx: LlmErrorContext, status: number, excerpt: string, err: unknown): IpuaroError {
  const what = status >= 200 && status < 300 ? "answered with a web page" : `answered HTTP ${status}`;
  return new IpuaroError(
    "llm",
    `${ctx.host} does not look like an Ollama server: it ${what}${excerpt ? ` (${excerpt})` : ""} while ${ctx.action}.`,
    {
      recoverable: false,
      suggestion: `Check OLLAMA_HOST / llm.host: it must be the Ollama API's base URL (http://127.0.0.1:11434 by default), and \`curl ${ctx.host}/api/tags\` should list models.`,
      cause: err,
    },
  );
}

/** "400 Bad Request": the reason the server gave, else the standard one for the status. */
function statusLabel(status: number, err: unknown): string {
  const reason = (err instanceof OllamaHttpError && err.statusText) || STATUS_CODES[status] || "";
  return reason ? `${status} ${reason}` : String(status);
}

function notOllamaSuggestion(host: string): string {
  return (
    `Ollama's own errors carry a JSON message, so something else may be answering at ${host} (another service, or a proxy that cannot reach Ollama): ` +
    `check that OLLAMA_HOST / llm.host points at Ollama (http://127.0.0.1:11434 by default); \`curl ${host}/api/tags\` should list models.`
  );
}

function idleTimeoutError(ctx: LlmErrorContext, err: LlmIdleTimeoutError): IpuaroError {
  const seconds = formatSeconds(err.limitMs);
  if (err.phase === "first-byte") {
    return new IpuaroError("llm", `Ollama at ${ctx.host} sent nothing for ${seconds} while ${ctx.action}; the request was given up.`, {
      recoverable: true,
      suggestion:
        "The first load of a large model or a huge prompt on a CPU can take minutes: check `ollama ps` and the Ollama server log, " +
        "or lower llm.contextWindow / use a smaller model.",
      cause: err,
    });
  }
  return new IpuaroError("llm", `Ollama at ${ctx.host} sent nothing for ${seconds} in the middle of ${ctx.action}; the request was given up.`, {
    recoverable: true,
    suggestion: "The model runner may be stuck or out of memory: check the Ollama server log (or restart Ollama), then retry.",
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

  if (err instanceof LlmIdleTimeoutError) return idleTimeoutError(ctx, err);

  const status = (err as { status_code?: unknown } | null)?.status_code;
  const rawMessage = err instanceof Error ? err.message : String(err);
  if (typeof status === "number") {
    // Our fetch screens answers into OllamaHttpError; the package's own ResponseError carries the JSON
    // `error` or the whole body as its message, so it is cut the same way.
    const serverError = err instanceof OllamaHttpError ? err.serverError : rawMessage.trimStart().startsWith("<") ? null : rawMessage;
    const excerpt = err instanceof OllamaHttpError ? err.excerpt : serverError !== null ? oneLine(serverError, SERVER_ERROR_CHARS) : bodyExcerpt(rawMessage);
    if (status === 404 && serverError !== null && MODEL_NOT_FOUND.test(serverError)) {
      return new IpuaroError("llm", `Ollama at ${ctx.host} does not have the model '${ctx.model}': ${excerpt}`, {
        recoverable: false,
        suggestion: `Download it with \`ollama pull ${ctx.model}\`, or set llm.model to an installed model (\`ollama list\`).`,
        cause: err,
      });
    }
    // Any other 404 (a web server's "Not Found" page, a proxy, another API), or a web page where JSON belongs.
    if (status === 404 || (status >= 200 && status < 300)) return notOllamaError(ctx, status, excerpt, err);
    const message = excerpt;
    // 5xx (runner crashed, out of memory, busy) and 429 may pass; other 4xx are our request's fault.
    const recoverable = status >= 500 || status === 429 || status === 408;
    // With nothing after the colon the status alone was shown ("answered HTTP 400 …: "): its reason and the empty body say more.
    const answered = message
      ? `answered HTTP ${status} while ${ctx.action}: ${message}`
      : `answered HTTP ${statusLabel(status, err)} with an empty body while ${ctx.action}`;
    // Ollama words its errors as JSON ({"error": …}); another answer came from some other server there.
    const notOllamaShaped = err instanceof OllamaHttpError && serverError === null;
    return new IpuaroError("llm", `Ollama at ${ctx.host} ${answered}`, {
      recoverable,
      ...(status === 500 && /memory|resources/i.test(message)
        ? { suggestion: "Lower llm.contextWindow or use a smaller model: the context does not fit in memory." }
        : notOllamaShaped
          ? { suggestion: notOllamaSuggestion(ctx.host) }
          : {}),
      cause: err,
    });
  }
  const message = rawMessage;
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
  // fetch says only "fetch failed"; why is in its cause.
  const cause = (err as { cause?: unknown } | null)?.cause;
  const why = message === "fetch failed" && cause instanceof Error && cause.message ? ` (${cause.message})` : "";
  return new IpuaroError("llm", `Ollama at ${ctx.host} failed while ${ctx.action}: ${message}${why}`, { recoverable: true, cause: err });
}
