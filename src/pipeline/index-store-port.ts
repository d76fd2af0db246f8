// What the index pipeline needs from storage. The Redis implementation lives in src/main/store; the
// pipeline only sees this port so it never learns key names.
import type { KnownFileState, SerialisedValue, WireHashes } from "../workers/protocol.js";

/** Values are already serialised: the pipeline never stringifies large objects on the main thread. */
export interface RecordBatch {
  files: [path: string, json: SerialisedValue][];
  ast: [path: string, json: SerialisedValue][];
  /** `size:mtimeMs:hash` */
  stat: [path: string, value: string][];
  /** GraphFacts + complexity, for the graph pass of later runs that re-parse only some files. */
  facts: [path: string, json: SerialisedValue][];
  /** Paths to drop from every per-file hash. */
  remove: string[];
  /**
   * HSET commands the workers framed (see wireHashes), written as they are after `remove` and before
   * the entries above; the records they carry are not repeated in files, ast or facts.
   */
  wire?: Uint8Array[];
  /**
   * These writes change what the graph is built from (facts written or removed): the store marks its
   * graph stale before them, and the next graph write clears the mark.
   */
  graphStale?: boolean;
}

export interface IndexStorePort {
  readonly projectName: string;
  /** 'reset' when an incompatible schema version made it drop the old index. */
  ensureSchema(): Promise<"ok" | "reset">;
  loadKnownStats(): Promise<Map<string, KnownFileState>>;
  /** Paths stored as text files with graph facts. */
  loadGraphMembers(): Promise<Set<string>>;
  /** Writes marked the graph stale and no graph write followed (the process died, Redis went away). */
  graphStale(): Promise<boolean>;
  writeRecords(batch: RecordBatch): Promise<void>;
  /** Where the index workers frame files, ast and facts values as ready HSET commands. */
  wireHashes(): WireHashes;
  /** Streams every stored facts record (path, json) in chunks. */
  scanFacts(): AsyncIterable<[string, string][]>;
  /** The stored facts records of the given paths (missing ones left out). */
  getFacts(paths: readonly string[]): Promise<[string, string][]>;
  /** Replaces meta of the given files and the given index fields; `clearIndexes` drops stale fields first. */
  writeGraph(meta: [string, string][], indexFields: [string, string][], clearIndexes: boolean): Promise<void>;
  /**
   * A full graph rewrite sent in chunks while the rest is still being serialised: meta fields are set as
   * they come, index fields go to a side key that replaces the index atomically on commit.
   */
  beginGraphRewrite(): GraphRewrite;
  setIndexInfo(info: Record<string, string>): Promise<void>;
  /**
   * Holds off the server's automatic AOF rewrite for the duration of a bulk load (ipuaro's own server
   * only; otherwise a no-op). The returned function lifts the hold and never throws.
   */
  holdAofRewrites(): Promise<() => Promise<void>>;
  /**
   * Waits while another process runs an index of this project (two at once each re-parsed everything),
   * then keeps others waiting until the returned release. `by` says what this run is ("ipuaro index");
   * `onWait` hears once who the wait is for. Rejects with the signal's reason when it aborts first.
   */
  claimIndexRun(by: string, onWait: (holder: string) => void, signal?: AbortSignal): Promise<() => Promise<void>>;
  memoryUsedBytes(): Promise<number>;
}

export interface GraphRewrite {
  meta(entries: [string, string][]): void;
  index(entries: [string, string][]): void;
  /** Removes index fields sent earlier in this rewrite. */
  dropIndex(fields: string[]): void;
  commit(): Promise<void>;
}

/** Leads the stat of a file parsed with syntax errors (a size never starts with it). */
const SYNTAX_ERRORS_MARK = "!";

/** `size:mtimeMs:hash`, led by SYNTAX_ERRORS_MARK when the file had syntax errors. */
export function encodeStat(s: KnownFileState): string {
  return `${s.parseError ? SYNTAX_ERRORS_MARK : ""}${s.size}:${s.mtimeMs}:${s.hash}`;
}

/** Inverse of encodeStat; the hash part may itself contain colons (symlinks store `link:<target>`). */
export function decodeStat(value: string): KnownFileState | null {
  const first = value.indexOf(":");
  const second = value.indexOf(":", first + 1);
  if (first < 0 || second < 0) return null;
  const parseError = value.startsWith(SYNTAX_ERRORS_MARK);
  const size = Number(value.slice(parseError ? SYNTAX_ERRORS_MARK.length : 0, first));
  const mtimeMs = Number(value.slice(first + 1, second));
  if (!Number.isFinite(size) || !Number.isFinite(mtimeMs)) return null;
  return { size, mtimeMs, hash: value.slice(second + 1), ...(parseError ? { parseError } : {}) };
}
