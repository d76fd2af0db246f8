// Ctrl+C (or SIGTERM, or SIGHUP: the terminal closed) in a headless command: the first one asks the
// command to stop cleanly, so what it stored is kept and ipuaro's own Redis is released; a later one
// quits at once. A launcher (npx, tsx)
// may relay the terminal's Ctrl+C a moment after the terminal did, so a repeat within
// DUPLICATE_SIGNAL_MS counts as the same keypress.

export const DUPLICATE_SIGNAL_MS = 500;

/** Exit code of a command stopped by Ctrl+C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

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
  /** Stops listening; after a signal, only once a relayed duplicate could no longer arrive. */
  detach(): void;
}

export function guardInterrupts(onFirst: () => void): InterruptGuard {
  let firstAt = 0;
  const onSignal = () => {
    const now = Date.now();
    if (!firstAt) {
      firstAt = now;
      onFirst();
    } else if (now - firstAt > DUPLICATE_SIGNAL_MS) process.exit(INTERRUPTED_EXIT_CODE);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  let detached = false;
  return {
    get interrupted() {
      return firstAt > 0;
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
