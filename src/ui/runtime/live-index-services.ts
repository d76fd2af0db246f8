// Keeps Redis in step with ipuaro's own writes while the TUI runs. With the watcher live, a write is
// registered as ipuaro's and refreshIndex waits for the watcher to report those paths (no second index
// run racing it); without a watcher, or when it stays silent, a warm re-index does the work. Paths the
// index does not track are not waited for: the watcher says nothing about them.
import type { IndexServices } from "../../main/session/live-session.js";
import type { ProjectIndexer } from "../../main/indexing/project-indexer.js";
import type { ProjectWatchEvent, ProjectWatcher } from "../../main/indexing/project-watcher.js";

/** How long the watcher gets to report a written path before a warm re-index is run instead. */
export const WATCHER_REPORT_TIMEOUT_MS = 5000;
/** A backlog this large (a branch switch, a formatter run) is waited for before the index answers. */
export const SETTLE_FROM_PATHS = 20;
/** The longest an index tool waits for it; past that it answers, saying the answer may lag. */
export const SETTLE_WAIT_MS = 8000;
/**
 * The longest it waits for a few changed files (a save just before the message): re-parsing them takes
 * milliseconds, and without the wait find_definition gave the line numbers from before the save. Short,
 * so steady churn (a file rewritten every second) costs each call little.
 */
export const SETTLE_FEW_WAIT_MS = 600;

function reportedPaths(e: ProjectWatchEvent): string[] {
  if (e.type === "renamed") return e.from ? [e.path, e.from] : [e.path];
  if (e.type === "created" || e.type === "updated" || e.type === "deleted" || e.type === "ignored") return [e.path];
  return [];
}

export function liveIndexServices(indexer: ProjectIndexer, watcher: () => ProjectWatcher | null): IndexServices {
  const warm = async () => void (await indexer.scanAndIndex());
  return {
    registerOwnWrite(path, hash) {
      watcher()?.ownWrites.register(path, hash);
    },
    async refreshIndex(paths) {
      // A path the index leaves out (notes.md, a file in an ignored folder, a folder) is never reported
      // by the watcher and changes nothing a re-index stores: waiting for it only ran into the timeout.
      const tracked = paths.filter((p) => indexer.tracks(p));
      if (!tracked.length) return;
      const w = watcher();
      if (!w?.running) return warm();
      const waiting = new Set(tracked);
      const seen = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          off();
          resolve(false);
        }, WATCHER_REPORT_TIMEOUT_MS);
        const off = w.on((e) => {
          for (const p of reportedPaths(e)) waiting.delete(p);
          if (waiting.size === 0) {
            clearTimeout(timer);
            off();
            resolve(true);
          }
        });
      });
      if (!seen) await warm();
    },
    async indexSettled() {
      const w = watcher();
      if (!w?.running || w.backlog === 0) return { settled: true, backlog: 0 };
      const few = w.backlog < SETTLE_FROM_PATHS;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), few ? SETTLE_FEW_WAIT_MS : SETTLE_WAIT_MS)));
      const settled = await Promise.race([w.idle().then(() => true), timeout]);
      clearTimeout(timer);
      // A few files still changing (steady churn) cannot mislead a search much: not worth a warning.
      return settled || few ? { settled: true, backlog: 0 } : { settled: false, backlog: w.backlog };
    },
  };
}
