// ImporterIndex.affectedBy for workspace package imports: a created file moves `@acme/tools` only when it
// is one of the paths the resolver probes for it (entries, their sources, src/index, index, a subpath
// export), not whenever it lands somewhere in the package. The package's folder is named apart from it,
// so the bare-name keys (`tools`) cannot find these importers: only the package's probed paths can.
import { afterAll, describe, expect, it } from "vitest";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { ImporterIndex } from "../../../src/pipeline/watch/import-keys.js";
import type { GraphFacts } from "../../../src/workers/protocol.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const facts = (...from: string[]): GraphFacts => ({ imports: from.map((f) => ({ name: "x", from: f })), exports: [], symbols: [], calls: [] });
const IMPORTERS: Record<string, GraphFacts> = {
  "apps/web/src/root.ts": facts("@acme/tools"),
  "apps/web/src/cli.ts": facts("@acme/tools/cli"),
};

/** The importers affectedBy names when `created` appear in a project whose tools package has `pkg`. */
function affectedBy(pkg: Record<string, unknown>, existing: string[], created: string[]): string[] {
  const root = makeTempDir("ipuaro-importers-");
  dirs.push(root);
  writeTree(root, { "packages/tooling/package.json": JSON.stringify({ name: "@acme/tools", ...pkg }) });
  const before = new Set(["packages/tooling/package.json", ...existing, ...Object.keys(IMPORTERS)]);
  const layout = loadProjectLayout(root, before);
  const index = new ImporterIndex(layout);
  const resolverBefore = new ImportResolver(before, layout);
  for (const [p, f] of Object.entries(IMPORTERS)) index.add(p, f, resolverBefore);
  const out = new Set<string>();
  index.affectedBy(created, [], new Map(), new ImportResolver(new Set([...before, ...created]), layout), out);
  return [...out].sort();
}

describe("ImporterIndex.affectedBy for a workspace package", () => {
  it("a file created beside the entry moves nothing", () => {
    expect(affectedBy({}, ["packages/tooling/src/index.ts"], ["packages/tooling/src/helper.ts"])).toEqual([]);
  });

  it("without entries, src/index and then index at the package's root take the root import", () => {
    expect(affectedBy({}, [], ["packages/tooling/src/index.ts"])).toEqual(["apps/web/src/root.ts"]);
    expect(affectedBy({}, [], ["packages/tooling/index.ts"])).toEqual(["apps/web/src/root.ts"]);
    // src/index comes first: an index beside it changes nothing.
    expect(affectedBy({}, ["packages/tooling/src/index.ts"], ["packages/tooling/index.ts"])).toEqual([]);
  });

  it("an entry naming built output is found at its source", () => {
    expect(affectedBy({ main: "lib/main.js" }, [], ["packages/tooling/src/main.ts"])).toEqual(["apps/web/src/root.ts"]);
  });

  it("a subpath export takes its importers when its file comes", () => {
    expect(affectedBy({ exports: { ".": "./src/index.ts", "./cli": "./bin/cli.ts" } }, ["packages/tooling/src/index.ts"], ["packages/tooling/bin/cli.ts"])).toEqual(["apps/web/src/cli.ts"]);
  });
});
