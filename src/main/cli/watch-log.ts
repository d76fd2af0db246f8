// `ipuaro index --watch`: one log line (or JSON object) per live-index event until Ctrl+C.
import type { ProjectWatchEvent, ProjectWatcher } from "../indexing/project-watcher.js";
import { guardInterrupts } from "./interrupts.js";
import { counted } from "../plural.js";

/** A path as one piece of one line: a name with a line break or other control character is quoted. */
function shown(p: string): string {
  return /[\u0000-\u001f\u007f]/.test(p) ? JSON.stringify(p) : p;
}

/** One log line per event for `ipuaro index --watch`; null = nothing worth a line. */
export function formatWatchEvent(e: ProjectWatchEvent): string | null {
  const ms = (n: number) => `${Math.round(n)} ms`;
  switch (e.type) {
    case "created":
    case "updated":
    case "deleted":
    case "ignored": {
      const why = e.reason === "nonUtf8" ? ", not UTF-8" : e.reason === "unreadable" ? ", unreadable" : "";
      return `${e.type} ${shown(e.path)} (${ms(e.ms)}${why}${e.origin === "ipuaro" ? ", by ipuaro" : ""})`;
    }
    case "renamed":
      return `renamed ${shown(e.from ?? "")} → ${shown(e.path)} (${ms(e.ms)}${e.origin === "ipuaro" ? ", by ipuaro" : ""})`;
    case "batch":
      if (e.files < 10 && !e.graphRebuilt) return null;
      return `batch: ${counted(e.files, "file")} changed, ${e.parsed} parsed, ${e.removed} removed${e.graphRebuilt ? ", graph rebuilt" : ""} in ${ms(e.ms)}`;
    case "updating":
      // Said for large batches only (a branch switch); the `batch` line follows.
      return e.paths >= 100 ? `updating: ${e.paths} changed paths…` : null;
    case "ready":
      return `watching ${counted(e.files, "indexed file")} (loaded in ${ms(e.ms)}); Ctrl+C to stop`;
    case "error":
      return `error: ${e.error.message}${e.retryInMs > 0 ? `; retrying in ${(e.retryInMs / 1000).toFixed(1)} s` : ""}`;
    case "recovered":
      return e.message ?? "Redis is back: queued index writes landed";
    case "dropped":
      return `the index of this project was dropped (ipuaro index --drop, or Redis lost its data): indexing the project again (it held ${counted(e.files, "file")})…`;
    case "reloaded": {
      if (e.rebuilt) return `the index is built again: ${counted(e.files, "file")}; watching`;
      const rechecked = e.rechecked ? `; ${e.rechecked} file${e.rechecked === 1 ? "" : "s"} updated meanwhile re-checked` : "";
      return `another index run rewrote the index: reloaded ${counted(e.files, "file")} in ${ms(e.ms)}${rechecked}`;
    }
  }
}

/** `ipuaro index --watch`: logs updates until SIGINT/SIGTERM, then shuts the watcher down cleanly. */
export async function watchUntilInterrupted(watcher: ProjectWatcher, opts: { json: boolean; out: NodeJS.WritableStream; err: NodeJS.WritableStream }): Promise<void> {
  const off = watcher.on((e) => {
    if (opts.json) {
      const line = e.type === "error" ? { type: "error", message: e.error.message, suggestion: e.error.suggestion, retryInMs: e.retryInMs } : e;
      opts.out.write(`${JSON.stringify(line)}\n`);
      return;
    }
    const line = formatWatchEvent(e);
    if (line) (e.type === "error" || e.type === "ready" || e.type === "recovered" || e.type === "reloaded" || e.type === "dropped" ? opts.err : opts.out).write(`${line}\n`);
  });
  // The first signal stops cleanly; a later one quits at once (interrupts.ts).
  let requestStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  const guard = guardInterrupts(() => requestStop());
  try {
    await watcher.start();
    await stopRequested;
    if (!opts.json) opts.err.write("stopping… (Ctrl+C again to quit at once)\n");
  } finally {
    await watcher.stop();
    off();
    // Still swallowing a relayed duplicate while the caller releases Redis; gone after that.
    guard.detach();
  }
}
