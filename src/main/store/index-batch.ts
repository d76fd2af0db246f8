// A batch of the index's per-file records (files, ast, meta, stat, facts) and the order its writes go
// out in: the stale mark and removals, the commands the index workers framed, then the HSETs.
import { markGraphStale, type GraphWritesIo } from "./graph-writes.js";
import { addHdel, addHset, type FieldEntries } from "./redis-commands.js";

export interface IndexBatch {
  /** FileData JSON, or binaryFileJson / symlinkFileJson. */
  files?: FieldEntries;
  /** FileAST JSON. */
  ast?: FieldEntries;
  /** FileMeta JSON. */
  meta?: FieldEntries;
  /** encodeStat(...) values. */
  stat?: FieldEntries;
  /** GraphFacts (+ complexity) JSON, read back by scanFacts for the graph pass. */
  facts?: FieldEntries;
  /** Paths deleted from every per-file hash. */
  remove?: readonly string[];
  /** Complete HSET commands in Redis's wire format (framed by the index workers), sent as they are. */
  wire?: readonly Uint8Array[];
  /** These writes change the graph's input (facts, removals): mark the graph stale first. */
  graphStale?: boolean;
}

const PER_FILE_PARTS = ["files", "ast", "meta", "stat", "facts"] as const;

/** What the store lends (as to GraphWrites), and its way of sending a command already framed. */
export interface IndexBatchIo extends GraphWritesIo {
  sendFramed(action: string, bytes: Uint8Array): Promise<void>;
}

/**
 * Marks the graph stale when the batch says so, HDELs removed paths, then the framed commands, then
 * HSET files, ast, meta, facts and stat last, all on one connection in that order. Redis applies them in order, so a stat entry (what a warm run
 * trusts to skip a file) never lands before its file and AST.
 */
export function writeIndexBatch(io: IndexBatchIo, batch: IndexBatch): Promise<void> {
  const { redis, keys } = io;
  return io.op("writing an index batch", async () => {
    const removals = redis.pipeline();
    if (batch.graphStale) markGraphStale(removals, keys.config);
    if (batch.remove?.length) {
      for (const part of PER_FILE_PARTS) addHdel(removals, keys[part], batch.remove);
    }
    const sets = redis.pipeline();
    addHset(sets, keys.files, batch.files);
    addHset(sets, keys.ast, batch.ast);
    addHset(sets, keys.meta, batch.meta);
    addHset(sets, keys.facts, batch.facts);
    addHset(sets, keys.stat, batch.stat);
    const action = "writing an index batch";
    // All in one synchronous stretch, so they reach the socket in this order.
    const sent: Promise<unknown>[] = [];
    if (removals.length) sent.push(io.execPipeline(action, removals));
    for (const command of batch.wire ?? []) sent.push(io.sendFramed(action, command));
    if (sets.length) sent.push(io.execPipeline(action, sets));
    await Promise.all(sent);
  });
}
