// What one worker record means for the live index: the Redis values to write, the new stat to remember,
// the graph change, and the update to report. Unlike a full run, the watcher knows what was indexed
// before, so it can tell created from updated and drop the graph facts of a file that turned binary.
import { symlinkHash, type IndexedRecord, type KnownFileState } from "../../workers/protocol.js";
import { encodeStat, type RecordBatch } from "../index-store-port.js";
import type { FactsRecord } from "./graph-state.js";
import { factsOf } from "../record-facts.js";

export type FileUpdateType = "created" | "updated" | "deleted" | "renamed" | "ignored";

export interface FileUpdate {
  /**
   * `deleted`: gone from the index (removed from disk, or no longer readable as UTF-8 text, see `reason`);
   * `ignored`: still on disk but ignore rules now exclude it; `renamed`: a delete and a create of the same
   * content in one batch.
   */
  type: FileUpdateType;
  path: string;
  /** `renamed` only: the old path. */
  from?: string;
  /** Content hash now in the index; null when the path left it. */
  hash: string | null;
  previousHash: string | null;
  /** What the index holds for the path now. */
  kind?: "text" | "binary" | "symlink";
  /** Why a file still on disk left the index. */
  reason?: "nonUtf8" | "unreadable";
  /** performance.now() of the first event that led to this update. */
  since: number;
}

export interface RecordOutcome {
  known?: KnownFileState;
  removed?: boolean;
  /** New graph facts, null = no longer a graph node, undefined = the graph is not affected. */
  graph?: FactsRecord | null;
  parsed?: boolean;
  update?: Omit<FileUpdate, "since">;
}

const changeType = (prev: KnownFileState | undefined) => (prev ? "updated" : "created");

export function applyRecord(r: IndexedRecord, prev: KnownFileState | undefined, inGraph: boolean, batch: RecordBatch): RecordOutcome {
  const previousHash = prev?.hash ?? null;
  switch (r.kind) {
    case "text": {
      const rec: FactsRecord = factsOf(r);
      batch.files.push([r.path, r.fileJson]);
      batch.ast.push([r.path, r.astJson]);
      batch.facts.push([r.path, r.factsJson]);
      batch.stat.push([r.path, encodeStat(r)]);
      const known = { size: r.size, mtimeMs: r.mtimeMs, hash: r.hash, ...(r.parseError ? { parseError: true } : {}) };
      return { known, graph: rec, parsed: true, update: { type: changeType(prev), path: r.path, hash: r.hash, previousHash, kind: "text" } };
    }
    case "unchanged": {
      if (prev && prev.size === r.size && prev.mtimeMs === r.mtimeMs) return {};
      // Same content under a new mtime (touch, checkout): keep the stat fresh so later runs skip the read,
      // and the files value's lastModified.
      const known = { size: r.size, mtimeMs: r.mtimeMs, hash: r.hash, ...(prev?.parseError ? { parseError: true } : {}) };
      batch.stat.push([r.path, encodeStat(known)]);
      if (r.fileJson) batch.files.push([r.path, r.fileJson]);
      return { known };
    }
    case "binary":
    case "symlink": {
      const hash = r.kind === "binary" ? r.hash : symlinkHash(r.target);
      if (previousHash === hash) return {};
      // A text file that became binary (or a link) keeps no AST, facts or meta: HDEL runs before the HSETs.
      if (inGraph) batch.remove.push(r.path);
      batch.files.push([r.path, r.fileJson]);
      const known = r.kind === "binary" ? { size: r.size, mtimeMs: r.mtimeMs, hash } : { size: 0, mtimeMs: 0, hash };
      batch.stat.push([r.path, encodeStat(known)]);
      return { known, graph: inGraph ? null : undefined, update: { type: changeType(prev), path: r.path, hash, previousHash, kind: r.kind } };
    }
    case "nonUtf8":
    case "missing":
    case "error": {
      // A new file that cannot be indexed is still said (a log line), so it is not silently missing.
      if (!prev) return r.kind === "nonUtf8" ? { update: { type: "ignored", path: r.path, hash: null, previousHash: null, reason: "nonUtf8" } } : {};
      batch.remove.push(r.path);
      const reason = r.kind === "nonUtf8" ? "nonUtf8" : r.kind === "error" ? "unreadable" : undefined;
      return {
        removed: true,
        graph: inGraph ? null : undefined,
        update: { type: "deleted", path: r.path, hash: null, previousHash, ...(reason ? { reason } : {}) },
      };
    }
  }
}

/** A deleted path and a created one with the same content in one batch are reported as one rename. */
export function pairRenames(updates: FileUpdate[]): FileUpdate[] {
  const deletedByHash = new Map<string, FileUpdate[]>();
  for (const u of updates) {
    if (u.type !== "deleted" || u.reason || !u.previousHash) continue;
    const list = deletedByHash.get(u.previousHash);
    if (list) list.push(u);
    else deletedByHash.set(u.previousHash, [u]);
  }
  if (!deletedByHash.size) return updates;
  const paired = new Set<FileUpdate>();
  const out: FileUpdate[] = [];
  for (const u of updates) {
    if (u.type !== "created" || !u.hash) continue;
    const source = deletedByHash.get(u.hash)?.shift();
    if (!source) continue;
    paired.add(source);
    paired.add(u);
    out.push({ ...u, type: "renamed", from: source.path, previousHash: source.previousHash, since: Math.min(u.since, source.since) });
  }
  for (const u of updates) if (!paired.has(u)) out.push(u);
  return out;
}
