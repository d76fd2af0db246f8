// The terminal is given back on every way out: normal exit, SIGTERM/SIGHUP/SIGINT/SIGQUIT, an uncaught
// exception or rejection. Restoring is synchronous and idempotent (leave the alternate screen, cursor
// on, mouse and bracketed paste off, raw mode off) and runs before anything that could fail or wait.
import { BRACKETED_PASTE_OFF } from "./input/terminal-input.js";

const MOUSE_OFF = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l";
const CURSOR_ON = "\x1b[?25h";
const ALT_SCREEN_OFF = "\x1b[?1049l";
const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT"] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };
/** Errors of a terminal that is gone (the window closed, tmux kill-session): a hang-up, not a crash. */
const TERMINAL_GONE = new Set(["EIO", "EPIPE", "ENXIO", "EBADF", "ENOTCONN"]);

function isTerminalGone(err: unknown): boolean {
  return TERMINAL_GONE.has((err as NodeJS.ErrnoException | null)?.code ?? "");
}

export interface TerminalGuardOptions {
  output: { write(data: string): unknown; on?(event: "error", fn: (err: unknown) => void): unknown; off?(event: "error", fn: (err: unknown) => void): unknown };
  input: { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  /** Leaves the screen (blessed's destroy); may throw, the raw reset follows anyway. */
  leaveScreen(): void;
  /** After a signal: closes what can be closed (resolves or is abandoned after `shutdownTimeoutMs`). */
  onSignal?(signal: string): Promise<void>;
  /** Where a crash is reported once the screen is gone. */
  report?(text: string): void;
  shutdownTimeoutMs?: number;
  exit?(code: number): void;
}

export interface TerminalGuard {
  /** Restores the terminal now (safe to call more than once). */
  restore(): void;
  /** Removes the process handlers (after a clean exit). */
  uninstall(): void;
}

export function installTerminalGuard(opts: TerminalGuardOptions): TerminalGuard {
  let restored = false;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const report = opts.report ?? ((text: string) => process.stderr.write(text));

  const restore = () => {
    if (restored) return;
    restored = true;
    // A hung-up terminal makes writes fail asynchronously; that must not become a second crash.
    opts.output.on?.("error", () => {});
    let left = true;
    try {
      opts.leaveScreen();
    } catch {
      left = false;
    }
    try {
      opts.output.write(`${BRACKETED_PASTE_OFF}${MOUSE_OFF}${CURSOR_ON}${left ? "" : ALT_SCREEN_OFF}`);
    } catch {
      // Nothing more can be done for a terminal that is gone.
    }
    try {
      if (opts.input.isTTY) opts.input.setRawMode?.(false);
    } catch {
      // Same.
    }
  };

  const onExit = () => restore();
  let leaving = false;
  const onCrash = (err: unknown) => {
    // Writing to a closed terminal fails with EIO before (or instead of) the SIGHUP: closed as after one,
    // so the session is saved and a managed Redis stopped rather than left running.
    if (isTerminalGone(err)) return onSignal("SIGHUP");
    restore();
    report(`ipuaro: crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    exit(1);
  };
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    restore();
    // The hang-up often comes twice (the signal and a write error): one shutdown.
    if (leaving) return;
    leaving = true;
    const code = 128 + SIGNAL_NUMBERS[signal];
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, opts.shutdownTimeoutMs ?? 2000).unref());
    void Promise.race([opts.onSignal?.(signal).catch(() => {}), timeout]).finally(() => exit(code));
  };
  const signalHandlers = SIGNALS.map((s) => [s, () => onSignal(s)] as const);

  const onStreamError = (err: unknown) => (isTerminalGone(err) ? onSignal("SIGHUP") : onCrash(err));
  opts.output.on?.("error", onStreamError);
  process.on("exit", onExit);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  for (const [s, h] of signalHandlers) process.on(s, h);

  return {
    restore,
    uninstall() {
      opts.output.off?.("error", onStreamError);
      process.off("exit", onExit);
      process.off("uncaughtException", onCrash);
      process.off("unhandledRejection", onCrash);
      for (const [s, h] of signalHandlers) process.off(s, h);
    },
  };
}
