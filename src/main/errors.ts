// Typed errors shared by the main process. `IpuaroError` is something the user (or the agent loop) can
// act on: retry, skip or abort (seed 000, "Error Handling"). `FatalError` ends the process with a code.

/** `input`: what the user asked for does not exist (no such session, no rewind point N). */
export type IpuaroErrorType = "redis" | "parse" | "llm" | "file" | "command" | "conflict" | "config" | "input";

/**
 * What a caller must tell apart beyond the type. `MESSAGE_TOO_LARGE`: the user's message cannot fit in any
 * request, so it was refused before it was stored (the UI gives it back); `REQUEST_TOO_LARGE`: a request
 * of the turn was still too large after compression, and was not sent; `NO_ANSWER`: something accepted the
 * connection at Ollama's address and did not answer the model check in time (a hung server, or not Ollama).
 */
export type IpuaroErrorCode = "MESSAGE_TOO_LARGE" | "REQUEST_TOO_LARGE" | "NO_ANSWER";

export interface IpuaroErrorOptions {
  /** Retrying can help (a server that may come back, a file that may be fixed). Default true. */
  recoverable?: boolean;
  /** One sentence telling the user what to do about it. */
  suggestion?: string;
  code?: IpuaroErrorCode;
  cause?: unknown;
}

export class IpuaroError extends Error {
  override readonly name = "IpuaroError";
  readonly type: IpuaroErrorType;
  readonly recoverable: boolean;
  readonly suggestion?: string;
  readonly code?: IpuaroErrorCode;

  constructor(type: IpuaroErrorType, message: string, opts: IpuaroErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.type = type;
    this.recoverable = opts.recoverable ?? true;
    if (opts.suggestion !== undefined) this.suggestion = opts.suggestion;
    if (opts.code !== undefined) this.code = opts.code;
  }
}

export function isIpuaroError(err: unknown, type?: IpuaroErrorType): err is IpuaroError {
  return err instanceof IpuaroError && (type === undefined || err.type === type);
}

/** Thrown only for conditions that must end the process; the CLI entry maps it to `exitCode`. */
export class FatalError extends Error {
  override readonly name = "FatalError";
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** `message` of anything thrown, for wrapping foreign errors into ours. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
