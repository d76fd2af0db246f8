// IndexStats: what an index run counts, and how each record the workers send back adds to it and to
// the batch of writes that stores it.
import { symlinkHash, type IndexedRecord, type KnownFileState } from "../workers/protocol.js";
import { encodeStat, type RecordBatch } from "./index-store-port.js";

/** Files with syntax errors a run names (the count covers all of them). */
export const PARSE_ERRORS_NAMED = 10;

export interface IndexStats {
  files: number;
  parsed: number;
  unchanged: number;
  removed: number;
  bytes: number;
  /** `errors`: files and folders (a folder once) that could not be read, each also listed in `errors`. */
  skipped: { binary: number; nonUtf8: number; ignored: number; unsupported: number; errors: number };
  symlinks: number;
  parseErrors: number;
  /** The first PARSE_ERRORS_NAMED of them, so a summary can say which. */
  parseErrorPaths: string[];
  /** The first few files skipped as not UTF-8 (their count is skipped.nonUtf8). */
  nonUtf8Paths: string[];
  schemaReset: boolean;
  graphRebuilt: boolean;
  /** Seconds. readHash/parse are worker thread time divided by the pool size (wall-equivalent). */
  stages: { walk: number; readHash: number; parse: number; write: number; graph: number };
  totalSeconds: number;
  errors: { path: string; message: string }[];
}

export function applyRecord(
  r: IndexedRecord,
  batch: RecordBatch,
  stats: IndexStats,
  drop: string[],
  known: Map<string, KnownFileState>,
  storedAsText: boolean,
): void {
  switch (r.kind) {
    case "text": {
      stats.parsed++;
      if (r.parseError && stats.parseErrors++ < PARSE_ERRORS_NAMED) stats.parseErrorPaths.push(r.path);
      // Its files, ast and facts values came framed in the task's wire.
      batch.stat.push([r.path, encodeStat(r)]);
      return;
    }
    case "unchanged": {
      if (storedAsText) stats.unchanged++;
      else stats.skipped.binary++;
      const k = known.get(r.path);
      // Its syntax errors are as they were: a warm run names them as a cold one does.
      if (storedAsText && k?.parseError && stats.parseErrors++ < PARSE_ERRORS_NAMED) stats.parseErrorPaths.push(r.path);
      // Same content, new mtime (touch, checkout): remember the new stat so the next run skips the read,
      // and the files value's lastModified.
      if (!k || k.size !== r.size || k.mtimeMs !== r.mtimeMs) batch.stat.push([r.path, encodeStat(k?.parseError ? { ...r, parseError: true } : r)]);
      if (r.fileJson) batch.files.push([r.path, r.fileJson]);
      return;
    }
    case "binary":
      stats.skipped.binary++;
      // Was it text before? Its AST, facts and meta go (the store deletes `remove` before it writes the
      // task's wire, which holds its new files value).
      if (known.has(r.path)) batch.remove.push(r.path);
      batch.stat.push([r.path, encodeStat(r)]);
      return;
    case "symlink":
      stats.symlinks++;
      if (r.unchanged) return;
      if (known.has(r.path)) batch.remove.push(r.path);
      batch.stat.push([r.path, encodeStat({ size: 0, mtimeMs: 0, hash: symlinkHash(r.target) })]);
      return;
    case "nonUtf8":
      if (stats.skipped.nonUtf8++ < PARSE_ERRORS_NAMED) stats.nonUtf8Paths.push(r.path);
      drop.push(r.path);
      return;
    case "missing":
      drop.push(r.path);
      return;
    case "error":
      stats.skipped.errors++;
      stats.errors.push({ path: r.path, message: r.message });
      drop.push(r.path);
      return;
  }
}
