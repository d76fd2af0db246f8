import { describe, expect, it } from "vitest";
import { indexViewOf, relativeComplexity } from "../../../src/main/shadow/index-view.js";
import type { ComplexityScore, FileMeta } from "../../../src/workers/ast-types.js";

const meta = (complexity: ComplexityScore): FileMeta => ({ complexity, dependencies: [], dependents: [], isHub: false, isEntryPoint: false });

describe("relativeComplexity", () => {
  it("measures hand-written files against the most complex hand-written one; generated code counts 0", () => {
    const view = indexViewOf(
      new Map([
        ["src/orders.ts", meta({ loc: 200, nesting: 4, imports: 5, score: 50 })],
        ["src/money.ts", meta({ loc: 100, nesting: 2, imports: 0, score: 20 })],
        ["src/gql/client.ts", meta({ loc: 9000, nesting: 6, imports: 3, score: 936, generated: true })],
      ]),
    );
    expect(view.maxComplexity).toBe(50);
    expect(relativeComplexity(view, "src/orders.ts")).toBe(1);
    expect(relativeComplexity(view, "src/money.ts")).toBe(0.4);
    expect(relativeComplexity(view, "src/gql/client.ts")).toBe(0);
    expect(relativeComplexity(view, "src/unknown.ts")).toBe(0);
  });
});
