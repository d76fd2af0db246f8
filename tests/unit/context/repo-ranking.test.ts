import { describe, expect, it } from "vitest";
import { buildRankingGraph, pageRank, rankFiles, restartVector, withReferences } from "../../../src/main/context/repo-ranking.js";

// app → (ui, api); ui → (core, utils); api → (core); core → utils; script → nothing; doc isolated.
const deps = new Map<string, string[]>([
  ["src/app.ts", ["src/ui.ts", "src/api.ts"]],
  ["src/ui.ts", ["src/core.ts", "src/utils.ts"]],
  ["src/api.ts", ["src/core.ts"]],
  ["src/core.ts", ["src/utils.ts", "outside/unknown.ts"]],
  ["src/utils.ts", []],
  ["scripts/a.ts", []],
  ["scripts/b.ts", []],
]);

describe("buildRankingGraph", () => {
  it("indexes files in path order and keeps only edges between ranked files", () => {
    const g = buildRankingGraph(deps);
    expect(g.paths).toEqual(["scripts/a.ts", "scripts/b.ts", "src/api.ts", "src/app.ts", "src/core.ts", "src/ui.ts", "src/utils.ts"]);
    const edgesOf = (p: string) => {
      const i = g.index.get(p)!;
      return Array.from(g.targets.subarray(g.offsets[i]!, g.offsets[i + 1]!)).map((t) => g.paths[t]);
    };
    expect(edgesOf("src/core.ts")).toEqual(["src/utils.ts"]);
    expect(edgesOf("src/app.ts")).toEqual(["src/api.ts", "src/ui.ts"]);
    expect(g.targets.length).toBe(6);
  });

  it("merges reference edges into existing rows and creates new ones", () => {
    const g = withReferences(buildRankingGraph(deps), [
      { from: "src/app.ts", to: "src/ui.ts", weight: 2 },
      { from: "src/app.ts", to: "src/utils.ts", weight: 1.5 },
      { from: "src/app.ts", to: "missing.ts", weight: 9 },
      { from: "src/utils.ts", to: "src/utils.ts", weight: 9 },
    ]);
    const i = g.index.get("src/app.ts")!;
    const row = Array.from(g.targets.subarray(g.offsets[i]!, g.offsets[i + 1]!)).map((t, k) => [g.paths[t], g.weights[g.offsets[i]! + k]]);
    expect(row).toEqual([
      ["src/api.ts", 1],
      ["src/ui.ts", 3],
      ["src/utils.ts", 1.5],
    ]);
    expect(g.targets.length).toBe(7);
  });
});

describe("pageRank", () => {
  it("sums to 1 and ranks what everything builds on highest", () => {
    const g = buildRankingGraph(deps);
    const { scores } = pageRank(g, new Float64Array(g.paths.length));
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    const at = (p: string) => scores[g.index.get(p)!]!;
    expect(at("src/utils.ts")).toBeGreaterThan(at("src/core.ts"));
    expect(at("src/core.ts")).toBeGreaterThan(at("src/app.ts"));
    expect(at("scripts/a.ts")).toBeCloseTo(at("scripts/b.ts"), 12);
  });

  it("rejects a restart vector of the wrong size", () => {
    const g = buildRankingGraph(deps);
    expect(() => pageRank(g, new Float64Array(2))).toThrow(/restart vector has 2 entries for 7 files/);
  });
});

describe("rankFiles", () => {
  const g = buildRankingGraph(deps);
  const order = (seeds: Parameters<typeof rankFiles>[1] = {}) => rankFiles(g, seeds).files.map((f) => f.path);

  it("is deterministic and breaks equal scores by path", () => {
    expect(order()).toEqual(order());
    const plain = order();
    expect(plain.indexOf("scripts/a.ts")).toBeLessThan(plain.indexOf("scripts/b.ts"));
    expect(plain[0]).toBe("src/utils.ts");
  });

  it("pins mentioned files, and files of specific mentioned symbols, before the rest", () => {
    const ranked = rankFiles(g, { mentionedFiles: ["scripts/b.ts"], mentionedSymbols: [{ name: "Widget", paths: ["src/ui.ts"] }] }).files;
    expect(ranked.slice(0, 2).map((f) => [f.path, f.pinned])).toEqual(
      expect.arrayContaining([
        ["scripts/b.ts", true],
        ["src/ui.ts", true],
      ]),
    );
    expect(ranked[2]!.pinned).toBe(false);
  });

  it("does not pin a symbol defined in many files but still leans towards them", () => {
    const common = { name: "create", paths: ["scripts/a.ts", "scripts/b.ts", "src/api.ts", "src/app.ts"] };
    const ranked = rankFiles(g, { mentionedSymbols: [common] }).files;
    expect(ranked.every((f) => !f.pinned)).toBe(true);
    const base = rankFiles(g).files;
    const score = (files: typeof ranked, p: string) => files.find((f) => f.path === p)!.score;
    expect(score(ranked, "scripts/a.ts")).toBeGreaterThan(score(base, "scripts/a.ts"));
  });

  it("recent files and entry points move up", () => {
    const before = order().indexOf("scripts/b.ts");
    expect(order({ recentFiles: ["scripts/b.ts"] }).indexOf("scripts/b.ts")).toBeLessThan(before);
    expect(order({ entryPoints: ["scripts/b.ts"] }).indexOf("scripts/b.ts")).toBeLessThan(before);
  });

  it("restart shares add up to 1 whatever seeds are present", () => {
    for (const seeds of [{}, { recentFiles: ["src/app.ts"] }, { mentionedFiles: ["nope.ts"], entryPoints: ["src/app.ts"] }]) {
      expect(restartVector(g, seeds).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    }
  });

  it("ranks a 12K-file graph with 60K edges and converges", () => {
    const big = new Map<string, string[]>();
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const name = (i: number) => `packages/p${i % 40}/src/m${i}.ts`;
    for (let i = 0; i < 12_000; i++) {
      const d = new Set<string>();
      for (let k = 0; k < 5; k++) d.add(name(Math.floor(rnd() ** 2 * 12_000)));
      big.set(name(i), [...d].sort());
    }
    const graph = buildRankingGraph(big);
    const a = rankFiles(graph, { entryPoints: [name(5)], recentFiles: [name(11_999)] });
    const b = rankFiles(graph, { entryPoints: [name(5)], recentFiles: [name(11_999)] });
    expect(a.files).toHaveLength(12_000);
    expect(a.iterations).toBeLessThan(25);
    expect(a.files.map((f) => f.path)).toEqual(b.files.map((f) => f.path));
    // The one recent file takes a fifth of the restart mass; after it come the most imported files
    // (rnd() ** 2 skews imports towards low ids).
    expect(a.files[0]!.path).toBe(name(11_999));
    expect(Number(/m(\d+)\.ts$/.exec(a.files[1]!.path)![1])).toBeLessThan(100);
  });
});
