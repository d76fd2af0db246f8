// The dependency graph's writes: a whole graph in one MULTI (a layout change), a streamed rewrite that
// replaces the index on commit, and the live index's deltas. Each clears the stale mark that record
// writes set first (markGraphStale), so a graph that never caught up with its files is known.
import { randomUUID } from "node:crypto";
import { Command, type Redis } from "ioredis";
import type { GraphRewrite } from "../../pipeline/index-store-port.js";
import type { ProjectKeys } from "./keys.js";
import { TimeSlicer } from "../../pipeline/graph/time-slicer.js";
import { addHdel, execTransaction, FramedCommand, frameHset, hdelCommands, type Pipeline } from "./redis-commands.js";
import { execUnjoinedTransaction } from "./unjoined-transaction.js";

/**
 * Set in `config` before writes that change what the graph is built from, deleted by the graph write
 * that follows them. Still set on the next start (the process died or Redis went away in between):
 * the stored graph lags its files, so the next index run rebuilds it from the stored facts.
 */
const GRAPH_STALE_FIELD = "graphStale";
/** A graph rewrite's side key outlives a run that died by this long after its last chunk. */
const GRAPH_REWRITE_TTL_MS = 60 * 60 * 1000;

export function markGraphStale(pipeline: Pipeline, configKey: string): void {
  pipeline.hset(configKey, GRAPH_STALE_FIELD, "1");
}

/** What the store lends: its connection, keys, and error mapping. */
export interface GraphWritesIo {
  redis: Redis;
  keys: ProjectKeys;
  op<T>(action: string, fn: () => Promise<T>): Promise<T>;
  execPipeline(action: string, pipeline: Pipeline): Promise<void>;
}

/** ioredis's Pipeline queues any Command this way; its typings only show the named commands. */
interface CommandQueue {
  sendCommand(command: FramedCommand): unknown;
}

/** `[field, JSON text]` pairs: the graph's fields are built on the main thread, as strings. */
export type StringEntries = ReadonlyArray<readonly [string, string]>;

/** An HSET is framed once it holds this many fields or this much text (a few fields are whole JSON maps). */
const FRAMED_FIELDS = 1000;
const FRAMED_CHARS = 256 * 1024;

function queueFramed(pipeline: Pipeline, bytes: Buffer): void {
  (pipeline as unknown as CommandQueue).sendCommand(new FramedCommand(bytes));
}

/**
 * HSETs of the given entries framed as RESP bytes (FRAMED_FIELDS or FRAMED_CHARS each), with the event loop turned
 * between slices. Queued as strings, a whole graph (≈ 90K fields for 12K files) was encoded in the one
 * synchronous socket write of its MULTI: a package restored by a rewind held the UI's keys ≈ 0.4 s.
 * Framed first, the MULTI still goes out whole (readers never see half of it), as ready bytes, each
 * frame to the socket as it is (execUnjoinedTransaction).
 */
export async function framedHsets(parts: ReadonlyArray<readonly [key: string, entries: StringEntries]>): Promise<Buffer[]> {
  const slicer = new TimeSlicer();
  const out: Buffer[] = [];
  for (const [key, entries] of parts) {
    let from = 0;
    let chars = 0;
    for (let i = 0; i < entries.length; i++) {
      const [field, value] = entries[i]!;
      chars += field.length + value.length;
      if (i + 1 - from < FRAMED_FIELDS && chars < FRAMED_CHARS && i + 1 < entries.length) continue;
      out.push(frameHset(key, entries.slice(from, i + 1)));
      from = i + 1;
      chars = 0;
      if (slicer.due()) await slicer.yield();
    }
  }
  return out;
}

export class GraphWrites {
  private readonly redis: Redis;
  private readonly keys: ProjectKeys;

  constructor(private readonly io: GraphWritesIo) {
    this.redis = io.redis;
    this.keys = io.keys;
  }

  /**
   * One MULTI, so readers never see a half-replaced graph: optionally drops every index field, then
   * writes the given meta entries and index fields, and clears the stale mark.
   */
  write(meta: StringEntries, indexFields: StringEntries, clearIndexes: boolean): Promise<void> {
    return this.io.op("writing the dependency graph", async () => {
      const framed = await framedHsets([
        [this.keys.meta, meta],
        [this.keys.indexes, indexFields],
      ]);
      await execUnjoinedTransaction(this.redis, [
        ...(clearIndexes ? [new Command("unlink", [this.keys.indexes])] : []),
        ...framed.map((bytes) => new FramedCommand(bytes)),
        this.clearStale(),
      ]);
    });
  }

  /**
   * A full graph rewrite streamed in chunks; on commit the new index replaces the old one and the stale
   * mark goes, atomically. Each rewrite writes its own side key: two runs at once (the TUI starting while
   * `ipuaro index` runs) each commit a whole index, where a shared one let the first commit carry off
   * the other's fields (≈ 19K of 75K were left).
   */
  beginRewrite(): GraphRewrite {
    const pending: Promise<unknown>[] = [];
    let indexFields = 0;
    const next = `${this.keys.indexes_next}:${randomUUID()}`;
    const send = (fill: (p: Pipeline) => void) => {
      const pipeline = this.redis.pipeline();
      fill(pipeline);
      const done = this.io.execPipeline("writing the dependency graph", pipeline);
      done.catch(() => {}); // observed by commit(); never an unhandled rejection meanwhile
      pending.push(done);
    };
    // The side key of a run that died half-way expires; the one shared key older versions used goes now.
    send((p) => p.unlink(this.keys.indexes_next));
    // Framed here (frameHset says why); the pipeline's reply check is the same as for any HSET.
    const hset = (p: Pipeline, key: string, entries: [string, string][]) => queueFramed(p, frameHset(key, entries));
    return {
      meta: (entries) => send((p) => hset(p, this.keys.meta, entries)),
      index: (entries) => {
        indexFields += entries.length;
        send((p) => {
          hset(p, next, entries);
          p.pexpire(next, GRAPH_REWRITE_TTL_MS);
        });
      },
      dropIndex: (fields) => send((p) => addHdel(p, next, fields)),
      commit: async () => {
        await Promise.all(pending);
        await this.io.op("replacing the index", async () => {
          const multi = this.redis.multi();
          // RENAME keeps the side key's expiry: PERSIST, or the index would vanish an hour later.
          if (indexFields) multi.rename(next, this.keys.indexes).persist(this.keys.indexes);
          else multi.unlink(this.keys.indexes);
          await execTransaction(multi.hdel(this.keys.config, GRAPH_STALE_FIELD));
        });
      },
    };
  }

  /**
   * The live index's graph update in one MULTI: meta and index fields set, stale index fields deleted,
   * the stale mark cleared.
   */
  writeDelta(meta: StringEntries, setFields: StringEntries, deleteFields: readonly string[]): Promise<void> {
    return this.io.op("updating the dependency graph", async () => {
      const framed = await framedHsets([
        [this.keys.meta, meta],
        [this.keys.indexes, setFields],
      ]);
      await execUnjoinedTransaction(this.redis, [
        ...framed.map((bytes) => new FramedCommand(bytes)),
        ...hdelCommands(this.keys.indexes, deleteFields),
        this.clearStale(),
      ]);
    });
  }

  private clearStale(): Command {
    return new Command("hdel", [this.keys.config, GRAPH_STALE_FIELD]);
  }

  /** True when writes marked the graph stale and no graph write followed them (see GRAPH_STALE_FIELD). */
  isStale(): Promise<boolean> {
    return this.io.op("checking the graph", async () => (await this.redis.hexists(this.keys.config, GRAPH_STALE_FIELD)) === 1);
  }
}
