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

export async function serialiseGraph(graph: GraphOutput): Promise<{ meta: [string, string][]; indexFields: [string, string][] }> {
  const slicer = new TimeSlicer();
  const meta: [string, string][] = [];
  const indexFields: [string, string][] = [];
  for (const [p, m] of graph.meta) {
    meta.push([p, JSON.stringify(m)]);
    await slicer.maybeYield();
  }
  for (const [name, locs] of graph.symbols) {
    indexFields.push([INDEX_FIELD.symbol(name), JSON.stringify(locs)]);
    await slicer.maybeYield();
  }
  for (const [p, deps] of graph.dependencies) {
    if (deps.length) indexFields.push([INDEX_FIELD.deps(p), JSON.stringify(deps)]);
    await slicer.maybeYield();
  }
  for (const [p, calls] of graph.calls) {
    indexFields.push([INDEX_FIELD.calls(p), JSON.stringify(calls)]);
    await slicer.maybeYield();
  }
  return { meta, indexFields };
}
