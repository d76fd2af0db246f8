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

  it("data files (JSON, YAML) count 0 and do not set the scale: a deeply nested tsconfig.json is not the most complex file", () => {
    const view = indexViewOf(
      new Map([
        ["tsconfig.json", meta({ loc: 40, nesting: 6, imports: 0, score: 34 })],
        ["deploy/values.yaml", meta({ loc: 300, nesting: 8, imports: 0, score: 70 })],
        ["src/money.ts", meta({ loc: 100, nesting: 2, imports: 0, score: 20 })],
      ]),
    );
    expect(view.maxComplexity).toBe(20);
    expect(relativeComplexity(view, "tsconfig.json")).toBe(0);
    expect(relativeComplexity(view, "deploy/values.yaml")).toBe(0);
    expect(relativeComplexity(view, "src/money.ts")).toBe(1);
  });
});
