// The live index writes only what a batch changed: a caller whose call targets come out the same is
// recomputed (the search upstream over-approximates) but its `calls:` field is not written again.
import { describe, expect, it } from "vitest";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { GraphState, type FactsRecord } from "../../../src/pipeline/watch/graph-state.js";
import type { GraphFacts } from "../../../src/workers/protocol.js";

const record = (facts: Partial<GraphFacts>): FactsRecord => ({
  facts: { imports: [], exports: [], symbols: [], calls: [], ...facts },
  complexity: { loc: 5, nesting: 1, imports: facts.imports?.length ?? 0, score: 2 },
});

function project(): Map<string, FactsRecord> {
  return new Map([
    ["src/app.ts", record({ imports: [{ from: "./lib", name: "fmt" }, { from: "./lib", name: "total" }], symbols: [{ name: "main", kind: "function", line: 1 }], calls: [{ caller: "main", callee: "fmt", line: 2 }, { caller: "main", callee: "total", line: 3 }] })],
    ["src/other.ts", record({ imports: [{ from: "./lib", name: "total" }], calls: [{ caller: "<module>", callee: "total", line: 1 }] })],
    ["src/lib/index.ts", record({ imports: [{ from: "./fmt", name: "*", isReExport: true }, { from: "./money", name: "*", isReExport: true }] })],
    ["src/lib/fmt.ts", record({ symbols: [{ name: "fmt", kind: "function", line: 1 }] })],
    ["src/lib/money.ts", record({ symbols: [{ name: "total", kind: "function", line: 1 }] })],
    ["src/lib/extra.ts", record({ symbols: [{ name: "unrelated", kind: "function", line: 1 }] })],
  ]);
}

describe("GraphState writes", () => {
  it("rewrites the calls of a caller whose targets moved, and not those of one whose targets stayed", async () => {
    const files = project();
    const state = await GraphState.build(files, loadProjectLayout("/nowhere", [...files.keys()]));
    const written = (delta: ReturnType<typeof state.apply>) => Object.fromEntries(delta.setFields.filter(([f]) => f.startsWith("calls:")).map(([f, v]) => [f, JSON.parse(v) as { target?: string }[]]));
    // The barrel gains a star to a file that declares neither name: every caller through it is looked at
    // again (its re-exports changed), and none is written, since their targets come out the same (the
    // first batch after a load compares with the calls the load computed).
    const rerouted = state.apply([
      {
        path: "src/lib/index.ts",
        record: record({ imports: [{ from: "./fmt", name: "*", isReExport: true }, { from: "./money", name: "*", isReExport: true }, { from: "./extra", name: "*", isReExport: true }] }),
      },
    ]);
    expect(written(rerouted)).toEqual({});
    // fmt.ts now declares `total` too: through the first star, app.ts's and other.ts's `total` move there.
    const moved = state.apply([{ path: "src/lib/fmt.ts", record: record({ symbols: [{ name: "fmt", kind: "function", line: 1 }, { name: "total", kind: "function", line: 3 }] }) }]);
    expect(Object.keys(written(moved)).sort()).toEqual(["calls:src/app.ts", "calls:src/other.ts"]);
    expect(written(moved)["calls:src/other.ts"]![0]!.target).toBe("src/lib/fmt.ts#total");

    // Back as before: both move back, and are written once more.
    const back = state.apply([{ path: "src/lib/fmt.ts", record: record({ symbols: [{ name: "fmt", kind: "function", line: 1 }] }) }]);
    expect(written(back)["calls:src/app.ts"]!.map((c) => c.target)).toEqual(["src/lib/fmt.ts#fmt", "src/lib/money.ts#total"]);
  });
});
