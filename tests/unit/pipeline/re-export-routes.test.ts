// ReExportRoutes answers "where is this name declared" through barrels while a run's files are still
// arriving: an answer that met a missing file waits, and is worked out again when that file comes.
import { describe, expect, it } from "vitest";
import type { GraphInput } from "../../../src/pipeline/graph/graph-builder.js";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { ReExportRoutes, type HopLookup } from "../../../src/pipeline/graph/re-export-routes.js";
import type { GraphFacts } from "../../../src/workers/protocol.js";

const input = (facts: Partial<GraphFacts>): GraphInput => ({
  facts: { imports: [], exports: [], symbols: [], calls: [], ...facts },
  complexity: { loc: 1, nesting: 0, imports: 0, score: 0 },
});
const star = (from: string) => ({ name: "*", from, isReExport: true });

/** `index.ts` re-exports everything of `a.ts` and then of `b.ts`; `b.ts` declares `pay`. */
const FILES: Record<string, GraphInput> = {
  "src/index.ts": input({ imports: [star("./a"), star("./b")] }),
  "src/a.ts": input({ symbols: [{ name: "charge", kind: "function", line: 1 }] }),
  "src/b.ts": input({ symbols: [{ name: "pay", kind: "function", line: 1 }] }),
};

function routesOver(present: string[]) {
  const files = new Map<string, GraphInput>(present.map((p) => [p, FILES[p] as GraphInput]));
  const resolver = new ImportResolver(new Set(Object.keys(FILES)), loadProjectLayout("/nowhere", Object.keys(FILES)));
  const routes = new ReExportRoutes(files, resolver);
  const ask = () => {
    const lookup: HopLookup = { missing: false };
    return { target: routes.follow("src/index.ts", "pay", lookup), waitsFor: lookup.missing ? lookup.missingFile : null };
  };
  return { files, routes, ask };
}

describe("ReExportRoutes while files arrive", () => {
  it("waits for the first missing module under a star, and settles when it comes", () => {
    const { files, routes, ask } = routesOver(["src/index.ts"]);
    // a.ts comes first among the stars: it may declare `pay` too, and would win.
    expect(ask()).toEqual({ target: "src/index.ts#pay", waitsFor: "src/a.ts" });
    files.set("src/a.ts", FILES["src/a.ts"] as GraphInput);
    routes.fileAdded("src/a.ts");
    expect(ask()).toEqual({ target: "src/index.ts#pay", waitsFor: "src/b.ts" });
    files.set("src/b.ts", FILES["src/b.ts"] as GraphInput);
    routes.fileAdded("src/b.ts");
    expect(ask()).toEqual({ target: "src/b.ts#pay", waitsFor: null });
  });

  it("keeps an answer waiting for one file when another arrives (it is asked again when that one comes)", () => {
    const { files, routes, ask } = routesOver(["src/index.ts"]);
    expect(ask().waitsFor).toBe("src/a.ts");
    files.set("src/b.ts", FILES["src/b.ts"] as GraphInput);
    routes.fileAdded("src/b.ts");
    expect(ask()).toEqual({ target: "src/index.ts#pay", waitsFor: "src/a.ts" });
    files.set("src/a.ts", FILES["src/a.ts"] as GraphInput);
    routes.fileAdded("src/a.ts");
    expect(ask()).toEqual({ target: "src/b.ts#pay", waitsFor: null });
  });

  it("works every waiting answer out again when files are added without word of which (the live index)", () => {
    const { files, ask } = routesOver(["src/index.ts"]);
    expect(ask().waitsFor).toBe("src/a.ts");
    files.set("src/b.ts", FILES["src/b.ts"] as GraphInput);
    // Still waiting for a.ts, which may declare `pay`, but no longer for a stale reason.
    expect(ask()).toEqual({ target: "src/index.ts#pay", waitsFor: "src/a.ts" });
    files.set("src/a.ts", FILES["src/a.ts"] as GraphInput);
    expect(ask()).toEqual({ target: "src/b.ts#pay", waitsFor: null });
  });
});
