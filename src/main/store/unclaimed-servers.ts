// redis-servers this process started that no connection of its own has claimed yet. They run detached
// (they outlive the process by design, to serve the next ipuaro), but one whose starter died before
// using it — Ctrl+C while it loaded a large AOF, a command that failed after the early start — served
// nobody and stayed (1.7 GB for a large index). Such a server is stopped (SIGTERM: Redis flushes its
// AOF and exits) when the process exits or is interrupted before claiming it.

const unclaimed = new Set<number>();
const signals = ["SIGINT", "SIGTERM"] as const;
/** The exit codes of a process ended by those signals. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

function stopAll(): void {
  for (const pid of unclaimed) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  unclaimed.clear();
}

function onSignal(signal: (typeof signals)[number]): void {
  // A command's own handler (it stops its work gracefully and releases the server) takes precedence.
  if (process.listenerCount(signal) > 1) return;
  stopAll();
  process.stderr.write("ipuaro: cancelled\n");
  process.exit(SIGNAL_EXIT[signal]);
}

const onExit = () => stopAll();

function listen(on: boolean): void {
  for (const s of signals) {
    if (on) process.on(s, onSignal);
    else process.off(s, onSignal);
  }
  if (on) process.on("exit", onExit);
  else process.off("exit", onExit);
}

/** A server this process has just started. */
export function startedUnclaimed(pid: number): void {
  if (!unclaimed.size) listen(true);
  unclaimed.add(pid);
}

/** This process now uses the server (or it is gone): it is no longer stopped on exit. */
export function claimed(pid: number): void {
  if (!unclaimed.delete(pid)) return;
  if (!unclaimed.size) listen(false);
}
