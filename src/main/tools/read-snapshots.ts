// What the model saw of a file, beside the read ledger's hash. When the file changes on disk after a
// read, the watcher soon replaces the Redis copy, so the copy the model read is gone; keeping its lines
// here lets an edit show the user what changed (seen → disk) and move the model's line range across
// lines inserted above it. Kept per session, a bounded number of files, newest reads last.
import { forgetSeen } from "./seen-ranges.js";
import type { ToolSessionState } from "./tool-types.js";

export interface ReadSnapshot {
  hash: string;
  lines: readonly string[];
}

/** Files whose lines are kept; older reads keep only their ledger hash. */
export const MAX_READ_SNAPSHOTS = 64;

const snapshots = new WeakMap<ToolSessionState, Map<string, ReadSnapshot>>();

function snapshotsOf(session: ToolSessionState): Map<string, ReadSnapshot> {
  let map = snapshots.get(session);
  if (!map) {
    map = new Map();
    snapshots.set(session, map);
  }
  return map;
}

/**
 * Records that the model has seen `relPath` at content hash `hash` (its lines as the index splits them).
 * Read tools call this instead of `readLedger.set`, edit tools after each write.
 */
export function rememberRead(session: ToolSessionState, relPath: string, hash: string, lines: readonly string[]): void {
  session.readLedger.set(relPath, hash);
  const map = snapshotsOf(session);
  map.delete(relPath);
  map.set(relPath, { hash, lines });
  while (map.size > MAX_READ_SNAPSHOTS) map.delete(map.keys().next().value!);
}

/** The lines the model saw of `relPath` at `hash`, when still kept. */
export function seenLines(session: ToolSessionState, relPath: string, hash: string): readonly string[] | null {
  const snap = snapshots.get(session)?.get(relPath);
  return snap && snap.hash === hash ? snap.lines : null;
}

/** The model no longer knows the file (it was deleted). */
export function forgetRead(session: ToolSessionState, relPath: string): void {
  session.readLedger.delete(relPath);
  snapshots.get(session)?.delete(relPath);
  forgetSeen(session, relPath);
}
