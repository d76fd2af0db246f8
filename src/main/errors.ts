// Typed errors shared by the main process. `IpuaroError` is something the user (or the agent loop) can
// act on: retry, skip or abort (seed 000, "Error Handling"). `FatalError` ends the process with a code.

/** `input`: what the user asked for does not exist (no such session, no rewind point N). */
export type IpuaroErrorType = "redis" | "parse" | "llm" | "file" | "command" | "conflict" | "config" | "input";

export interface IpuaroErrorOptions {
  /** Retrying can help (a server that may come back, a file that may be fixed). Default true. */
  recoverable?: boolean;
  /** One sentence telling the user what to do about it. */
  suggestion?: string;
  cause?: unknown;
}

export class IpuaroError extends Error {
  override readonly name = "IpuaroError";
  readonly type: IpuaroErrorType;
  readonly recoverable: boolean;
  readonly suggestion?: string;

  constructor(type: IpuaroErrorType, message: string, opts: IpuaroErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.type = type;
    this.recoverable = opts.recoverable ?? true;
    if (opts.suggestion !== undefined) this.suggestion = opts.suggestion;
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
