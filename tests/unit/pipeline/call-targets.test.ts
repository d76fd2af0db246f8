// callersThrough: which files' call targets a change to a barrel can move. Only a call whose head the
// file imports from the barrel goes through it; the barrel's other importers keep their targets.
import { describe, expect, it } from "vitest";
import type { GraphInput } from "../../../src/pipeline/graph/graph-builder.js";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import { ReExportRoutes } from "../../../src/pipeline/graph/re-export-routes.js";
import { callersThrough, movedBarrelScope, namesExported, reroutedNames, type ModuleStates } from "../../../src/pipeline/watch/call-targets.js";
import type { GraphFacts } from "../../../src/workers/protocol.js";
import type { NameScope } from "../../../src/pipeline/watch/call-targets.js";

const input = (facts: Partial<GraphFacts>): GraphInput => ({
  facts: { imports: [], exports: [], symbols: [], calls: [], ...facts },
  complexity: { loc: 1, nesting: 0, imports: 0, score: 0 },
});
const fn = (name: string) => ({ name, kind: "function", line: 1 });
const call = (callee: string) => ({ caller: "run", callee, line: 2 });

const BARREL = "src/lib/index.ts";
const FILES: Record<string, GraphInput> = {
  [BARREL]: input({ imports: [{ name: "*", from: "./a", isReExport: true }, { name: "*", from: "./b", isReExport: true }] }),
  "src/lib/a.ts": input({ symbols: [fn("charge")] }),
  "src/lib/b.ts": input({ symbols: [fn("pay")] }),
  "src/app/format.ts": input({ symbols: [fn("format")] }),
  "src/app/uses-pay.ts": input({ imports: [{ name: "pay", from: "../lib" }], calls: [call("pay")] }),
  "src/app/renamed.ts": input({ imports: [{ name: "settle", imported: "pay", from: "../lib" }], calls: [call("settle")] }),
  "src/app/namespace.ts": input({ imports: [{ name: "lib", imported: "*", from: "../lib" }], calls: [call("lib.charge")] }),
  // Imports from the barrel but calls only its own helper and what another file gives it.
  "src/app/elsewhere.ts": input({
    imports: [{ name: "pay", from: "../lib" }, { name: "format", from: "./format" }],
    symbols: [fn("helper"), fn("run")],
    calls: [call("helper"), call("format"), call("console.log")],
  }),
};
const IMPORTERS = ["src/app/uses-pay.ts", "src/app/renamed.ts", "src/app/namespace.ts", "src/app/elsewhere.ts"];

function callers(names: NameScope): string[] {
  const files = new Map(Object.entries(FILES));
  const resolver = new ImportResolver(new Set(files.keys()), loadProjectLayout("/nowhere", files.keys()));
  const dependentsOf = (p: string) => (p === BARREL ? IMPORTERS : []);
  const seed = { file: BARREL, names, direct: true };
  return [...callersThrough([seed], { dependentsOf, reExportersOf: dependentsOf }, files, resolver, new ReExportRoutes(files, resolver))].sort();
}

describe("callersThrough", () => {
  it("takes the barrel's importers whose calls go through it, under any local name, and no other", () => {
    expect(callers("all")).toEqual(["src/app/namespace.ts", "src/app/renamed.ts", "src/app/uses-pay.ts"]);
  });

  it("with a name filter, only the calls of names in it", () => {
    expect(callers(new Set(["charge"]))).toEqual(["src/app/namespace.ts"]);
    expect(callers(new Set(["pay"]))).toEqual(["src/app/renamed.ts", "src/app/uses-pay.ts"]);
  });

  it("a barrel that gained or lost a file moves only the names that file exports (and what the barrel re-exports by name)", () => {
    // Deleted in the batch: a barrel that forwarded the names of a file deleted with it.
    const gone: Record<string, GraphFacts> = {
      "src/lib/old/index.ts": input({ imports: [{ name: "*", from: "./refund", isReExport: true }] }).facts,
      "src/lib/old/refund.ts": input({ symbols: [fn("refund")] }).facts,
    };
    const deps: Record<string, string[]> = { [BARREL]: ["src/lib/a.ts", "src/lib/b.ts"], "src/lib/old/index.ts": ["src/lib/old/refund.ts"] };
    const modules: ModuleStates = { facts: (p) => [FILES[p]?.facts, gone[p]], deps: (p) => deps[p] ?? [] };
    const barrelFacts = (FILES[BARREL] as GraphInput).facts;

    const lostLeaf = movedBarrelScope(barrelFacts, namesExported(["src/lib/a.ts"], modules));
    // a.ts went: `charge` may now come from a later star or nowhere; `pay` still comes from b.ts.
    expect(callers(lostLeaf)).toEqual(["src/app/namespace.ts"]);
    // A barrel: the names it forwards, from the files below it as they were.
    expect([...(namesExported(["src/lib/old/index.ts"], modules) ?? [])]).toEqual(["refund"]);
    expect([...(namesExported([BARREL], modules) ?? [])].sort()).toEqual(["charge", "pay"]);
    const named = movedBarrelScope(input({ imports: [{ name: "*", from: "./a", isReExport: true }, { name: "pay", as: "settle", from: "./b", isReExport: true }] }).facts, new Set(["charge"]));
    expect([named !== "all" && named.has("settle"), named !== "all" && named.has("format")]).toEqual([true, false]);
    // A module on the way is not known: any name may have moved.
    expect(namesExported(["src/lib/nowhere.ts"], modules)).toBeNull();
    expect(movedBarrelScope(barrelFacts, null)).toBe("all");
  });

  it("a barrel whose re-export lines changed moves the names on the lines that came or went, all of them when kept lines changed order", () => {
    const files = new Map(Object.entries(FILES));
    const resolver = new ImportResolver(new Set(files.keys()), loadProjectLayout("/nowhere", files.keys()));
    const modules: ModuleStates = { facts: (p) => [files.get(p)?.facts], deps: (p) => (p === BARREL ? ["src/lib/a.ts", "src/lib/b.ts"] : []) };
    const star = (from: string) => ({ name: "*", from, isReExport: true });
    const barrel = (...imports: GraphFacts["imports"]) => input({ imports }).facts;
    const names = (before: GraphFacts, after: GraphFacts) => [...(reroutedNames(BARREL, before, after, [], modules, resolver) ?? ["(unknown)"])].sort();
    // A star line came: what the module on it exports.
    expect(names(barrel(star("./a")), barrel(star("./a"), star("./b")))).toEqual(["pay"]);
    // A line by name went: its name.
    expect(names(barrel(star("./a"), { name: "pay", as: "settle", from: "./b", isReExport: true }), barrel(star("./a")))).toEqual(["settle"]);
    // The kept lines changed order: the first star with a name wins, so any name the barrel exports.
    expect(names(barrel(star("./a"), star("./b")), barrel(star("./b"), star("./a")))).toEqual(["charge", "pay"]);
    // A star line that does not resolve now: everything the barrel exports, before or after.
    expect(names(barrel(star("./a"), star("./b")), barrel(star("./a"), star("./b"), star("./gone")))).toEqual(["charge", "pay"]);
  });
});
