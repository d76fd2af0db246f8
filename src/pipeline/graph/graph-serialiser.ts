// Turns the graph into Redis values in time slices (stringifying ~100K small values at once would
// block the event loop for a noticeable moment). Index fields are prefixed so one hash holds them all:
// `sym:<name>` → locations, `deps:<path>` → internal dependencies, `calls:<path>` → call sites.
import type { GraphOutput } from "./graph-builder.js";
import { objectArray } from "./object-array.js";
import { TimeSlicer } from "./time-slicer.js";

export const INDEX_FIELD = {
  symbol: (name: string) => `sym:${name}`,
  deps: (p: string) => `deps:${p}`,
  calls: (p: string) => `calls:${p}`,
} as const;

/** Values handed over per chunk when streaming: Redis works on one chunk while the next is stringified. */
export const GRAPH_CHUNK_FIELDS = 2000;

export interface GraphChunkSink {
  meta(entries: [string, string][]): void;
  index(entries: [string, string][]): void;
  /** Index fields sent earlier that turned out not to exist (an edge to a file that was not text). */
  dropIndex(fields: string[]): void;
}

/** Collects fields and hands them to a sink GRAPH_CHUNK_FIELDS at a time. */
export class FieldChunker {
  // objectArray(): a fresh `[]` after each flush had another hidden class than the filled one (object-array.ts).
  private metaChunk = objectArray<[string, string]>();
  private indexChunk = objectArray<[string, string]>();
  constructor(private readonly sink: GraphChunkSink) {}

  meta(p: string, json: string): void {
    this.metaChunk.push([p, json]);
    if (this.metaChunk.length >= GRAPH_CHUNK_FIELDS) this.flushMeta();
  }

  index(field: string, json: string): void {
    this.indexChunk.push([field, json]);
    if (this.indexChunk.length >= GRAPH_CHUNK_FIELDS) this.flushIndex();
  }

  /** Drops fields sent before; pending ones of the same names are flushed first so the order holds. */
  dropIndex(fields: string[]): void {
    if (!fields.length) return;
    this.flushIndex();
    this.sink.dropIndex(fields);
  }

  flush(): void {
    this.flushMeta();
    this.flushIndex();
  }

  private flushMeta(): void {
    if (this.metaChunk.length) this.sink.meta(this.metaChunk);
    this.metaChunk = objectArray();
  }

  private flushIndex(): void {
    if (this.indexChunk.length) this.sink.index(this.indexChunk);
    this.indexChunk = objectArray();
  }
}

/** Serialises the graph chunk by chunk into the sink, yielding to the event loop between slices. */
export async function streamGraph(graph: GraphOutput, sink: GraphChunkSink): Promise<void> {
  const slicer = new TimeSlicer();
  const out = new FieldChunker(sink);
  for (const [p, m] of graph.meta) {
    out.meta(p, JSON.stringify(m));
    await slicer.maybeYield();
  }
  for (const [name, locs] of graph.symbols) {
    out.index(INDEX_FIELD.symbol(name), JSON.stringify(locs));
    await slicer.maybeYield();
  }
  for (const [p, deps] of graph.dependencies) {
    if (deps.length) out.index(INDEX_FIELD.deps(p), JSON.stringify(deps));
    await slicer.maybeYield();
  }
  for (const [p, calls] of graph.calls) {
    out.index(INDEX_FIELD.calls(p), JSON.stringify(calls));
    await slicer.maybeYield();
  }
  out.flush();
}

export async function serialiseGraph(graph: GraphOutput): Promise<{ meta: [string, string][]; indexFields: [string, string][] }> {
  const meta: [string, string][] = [];
  const indexFields: [string, string][] = [];
  await streamGraph(graph, { meta: (e) => meta.push(...e), index: (e) => indexFields.push(...e), dropIndex: () => {} });
  return { meta, indexFields };
}
