// Turns the graph into Redis values in time slices (stringifying ~100K small values at once would
// block the event loop for a noticeable moment). Index fields are prefixed so one hash holds them all:
// `sym:<name>` → locations, `deps:<path>` → internal dependencies, `calls:<path>` → call sites.
import type { GraphOutput } from "./graph-builder.js";
import { TimeSlicer } from "./graph-builder.js";

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
}

/** Serialises the graph chunk by chunk into the sink, yielding to the event loop between slices. */
export async function streamGraph(graph: GraphOutput, sink: GraphChunkSink): Promise<void> {
  const slicer = new TimeSlicer();
  let chunk: [string, string][] = [];
  const flush = (to: (entries: [string, string][]) => void) => {
    if (chunk.length) to(chunk);
    chunk = [];
  };
  const push = async (to: (entries: [string, string][]) => void, entry: [string, string]) => {
    chunk.push(entry);
    if (chunk.length >= GRAPH_CHUNK_FIELDS) flush(to);
    await slicer.maybeYield();
  };
  const meta = (e: [string, string][]) => sink.meta(e);
  const index = (e: [string, string][]) => sink.index(e);
  for (const [p, m] of graph.meta) await push(meta, [p, JSON.stringify(m)]);
  flush(meta);
  for (const [name, locs] of graph.symbols) await push(index, [INDEX_FIELD.symbol(name), JSON.stringify(locs)]);
  for (const [p, deps] of graph.dependencies) if (deps.length) await push(index, [INDEX_FIELD.deps(p), JSON.stringify(deps)]);
  for (const [p, calls] of graph.calls) await push(index, [INDEX_FIELD.calls(p), JSON.stringify(calls)]);
  flush(index);
}

export async function serialiseGraph(graph: GraphOutput): Promise<{ meta: [string, string][]; indexFields: [string, string][] }> {
  const meta: [string, string][] = [];
  const indexFields: [string, string][] = [];
  await streamGraph(graph, { meta: (e) => meta.push(...e), index: (e) => indexFields.push(...e) });
  return { meta, indexFields };
}
