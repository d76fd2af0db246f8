// Ctrl+C (or SIGTERM, or SIGHUP: the terminal closed) in a headless command: the first one asks the
// command to stop cleanly, so what it stored is kept and ipuaro's own Redis is released; a later one
// quits at once. A launcher (npx, tsx)
// may relay the terminal's Ctrl+C a moment after the terminal did, so a repeat within
// DUPLICATE_SIGNAL_MS counts as the same keypress.
import os from "node:os";

export const DUPLICATE_SIGNAL_MS = 500;

/** Exit code of a command stopped by Ctrl+C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

/** The signals a headless command stops on. */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/**
 * 128 + the signal's number (130, 143, 129), what a shell reports for a process the signal killed: a
 * supervisor that sent SIGTERM (`timeout`, systemd, a CI runner) reads 143 as "ended by my signal".
 */
export function stopExitCode(signal: StopSignal): number {
  return 128 + os.constants.signals[signal];
}

/** Said when the first signal arrives. Only SIGINT is a key the user pressed. */
export function stoppingNote(signal: StopSignal): string {
  return signal === "SIGINT" ? "stopping… (Ctrl+C again to quit at once)" : `stopping… (${signal}; a second one quits at once)`;
}

/** How the command ended, after "ipuaro: ". */
export function stoppedNote(signal: StopSignal): string {
  return signal === "SIGINT" ? "cancelled (Ctrl+C)" : `stopped (${signal})`;
}

/** What a run stopped by Ctrl+C rejects with (the abort reason handed to the work). */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "Interrupted";
  }
}

export interface InterruptGuard {
  /** A signal arrived since the guard was set. */
  readonly interrupted: boolean;
  /** The first signal that arrived (null: none yet). */
  readonly signal: StopSignal | null;
  /** stopExitCode of the first signal (INTERRUPTED_EXIT_CODE when none arrived). */
  readonly exitCode: number;
  /** Stops listening; after a signal, only once a relayed duplicate could no longer arrive. */
  detach(): void;
}

export function guardInterrupts(onFirst: (signal: StopSignal) => void): InterruptGuard {
  let firstAt = 0;
  let first: StopSignal | null = null;
  const onSignal = (signal: StopSignal) => {
    const now = Date.now();
    if (!firstAt) {
      firstAt = now;
      first = signal;
      onFirst(signal);
    } else if (now - firstAt > DUPLICATE_SIGNAL_MS) process.exit(stopExitCode(signal));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  let detached = false;
  return {
    get interrupted() {
      return firstAt > 0;
    },
    get signal() {
      return first;
    },
    get exitCode() {
      return first ? stopExitCode(first) : INTERRUPTED_EXIT_CODE;
    },
    detach() {
      if (detached) return;
      detached = true;
      const off = () => {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        process.off("SIGHUP", onSignal);
      };
      if (firstAt) setTimeout(off, DUPLICATE_SIGNAL_MS).unref();
      else off();
    },
  };
}
