// The oracle for incremental graph updates: the graph a full pass builds from the facts now stored,
// serialised exactly as the index pipeline does, normalised for comparison with what Redis holds.
import { buildGraph } from "../../../src/pipeline/graph/graph-builder.js";
import { serialiseGraph } from "../../../src/pipeline/graph/graph-serialiser.js";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { linkTargetPath } from "../../../src/pipeline/graph/project-links.js";
import { symlinkTarget } from "../../../src/workers/protocol.js";
import type { FactsRecord } from "../../../src/pipeline/watch/graph-state.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";

type Graph = { meta: Record<string, unknown>; indexes: Record<string, unknown> };

/** Symbol lists are order-free (an incremental update appends); everything else compares as is. */
function normalise(meta: Iterable<[string, string]>, indexes: Iterable<[string, string]>): Graph {
  const out: Graph = { meta: {}, indexes: {} };
  for (const [p, json] of meta) out.meta[p] = JSON.parse(json);
  for (const [field, json] of indexes) {
    let value = JSON.parse(json) as unknown;
    if (field.startsWith("sym:")) value = (value as { path: string; line: number }[]).slice().sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
    out.indexes[field] = value;
  }
  return out;
}

export async function storedGraph(project: IndexedProject): Promise<Graph> {
  const meta = Object.entries(await project.redis.hgetall(`project:{${project.store.projectName}}:meta`));
  const indexes = Object.entries(await project.redis.hgetall(`project:{${project.store.projectName}}:indexes`));
  return normalise(meta, indexes);
}

export async function rebuiltGraph(project: IndexedProject): Promise<Graph> {
  const known = await project.store.loadKnownStats();
  const inputs = new Map<string, FactsRecord>();
  for await (const rows of project.store.scanFacts()) for (const [p, json] of rows) if (known.has(p)) inputs.set(p, JSON.parse(json) as FactsRecord);
  const layout = loadProjectLayout(project.root, known.keys());
  // Imports through a symlink land on the file it points to (the stat holds the link's target).
  const links = new Map<string, string | null>();
  for (const [p, k] of known) {
    const target = symlinkTarget(k.hash);
    if (target !== null) links.set(p, linkTargetPath(project.root, p, target));
  }
  const graph = await buildGraph(inputs, new ImportResolver(new Set([...inputs.keys(), ...links.keys()]), layout, links), layout, links);
  const { meta, indexFields } = await serialiseGraph(graph);
  return normalise(meta, indexFields);
}
