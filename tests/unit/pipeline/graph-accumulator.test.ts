// The cold index sends graph fields while files are still arriving (GraphAccumulator with a sink). Whatever
// the arrival order, the fields that end up stored must be exactly what a full pass over all files gives.
import { describe, expect, it } from "vitest";
import { buildGraph, GraphAccumulator, type GraphInput } from "../../../src/pipeline/graph/graph-builder.js";
import { FieldChunker, serialiseGraph, type GraphChunkSink } from "../../../src/pipeline/graph/graph-serialiser.js";
import { ImportResolver } from "../../../src/pipeline/graph/import-resolver.js";
import { loadProjectLayout } from "../../../src/pipeline/graph/project-layout.js";
import type { GraphFacts } from "../../../src/workers/protocol.js";

type Imp = GraphFacts["imports"][number];
const imp = (name: string, from: string, extra: Partial<Imp> = {}): Imp => ({ name, from, ...extra });
const sym = (name: string, line: number, kind = "function") => ({ name, kind, line });
const call = (callee: string, line: number, caller = "main") => ({ caller, callee, line });
const input = (facts: Partial<GraphFacts>): GraphInput => ({
  facts: { imports: [], exports: [], symbols: [], calls: [], ...facts },
  complexity: { loc: 10, nesting: 1, imports: facts.imports?.length ?? 0, score: 3 },
});

/** A small app that calls through nested barrels, a star re-export, a named re-export and a binary import. */
function project(): Map<string, GraphInput> {
  return new Map([
    [
      "src/app.ts",
      input({
        imports: [imp("total", "./lib"), imp("makeCart", "./lib"), imp("fmt", "./lib"), imp("applyCode", "./lib"), imp("nowhere", "./lib"), imp("Badge", "./lib"), imp("yell", "./lib"), imp("Cart", "./lib"), imp("logo", "./logo.ts"), imp("helper", "./util"), imp("palette", "./theme"), imp("sum", "./lib/money", { imported: "total" }), imp("money", "./lib/money", { imported: "*" }), imp("promos", "./lib"), imp("Knob", "./lib/button", { imported: "default" }), imp("anon", "./lib/anon", { imported: "default" }), imp("util", "./cjs/util", { imported: "=", isDynamic: true }), imp("Store", "./cjs/cache", { imported: "=", isDynamic: true }), imp("checks", "./lib")],
        symbols: [sym("main", 3), sym("helper", 9)],
        calls: [call("total", 4), call("makeCart", 5), call("fmt", 6), call("helper", 7), call("main", 8, "<module>"), call("palette", 10), call("applyCode", 11), call("nowhere", 12), call("Badge", 13), call("yell", 14), call("Cart.create", 15), call("sum", 16), call("money.total", 17), call("promos.applyCode", 18), call("promos", 19), call("Knob", 20), call("anon", 21), call("Knob.press", 22), call("util.toSetString", 23), call("Store", 24), call("Store.get", 25), call("checks.assertEqual", 26)],
      }),
    ],
    // Stars in order: one that resolves nowhere, a nested barrel, a file, and a nested barrel last that
    // holds `applyCode` (a star is taken only if the name can be found below it).
    [
      "src/lib/index.ts",
      input({
        imports: [
          imp("fmt", "./fmt", { isReExport: true }),
          imp("*", "./renamed-away", { isReExport: true }),
          imp("*", "./shop", { isReExport: true }),
          imp("*", "./money", { isReExport: true }),
          imp("*", "./promo", { isReExport: true }),
          imp("*", "./checks", { isReExport: true }),
          // Under other names: `export { default as Badge } from "./badge"`, `export { shout as yell } from "./text"`.
          imp("default", "./badge", { isReExport: true, as: "Badge" }),
          imp("shout", "./text", { isReExport: true, as: "yell" }),
          // `export * as promos from "./promo"`: one name, the module's namespace.
          imp("*", "./promo", { isReExport: true, as: "promos" }),
        ],
      }),
    ],
    ["src/lib/badge.ts", input({ symbols: [sym("Badge", 1)], defaultName: "Badge" })],
    // `export default class Button`, imported as Knob; an anonymous default export is the symbol `default`.
    ["src/lib/button.ts", input({ symbols: [sym("Button", 1, "class"), sym("Button.press", 2, "method")], defaultName: "Button" })],
    ["src/lib/anon.ts", input({ symbols: [sym("default", 1)] })],
    // CommonJS: `exports.toSetString = …`, and `module.exports = Cache`.
    ["src/cjs/util.js", input({ symbols: [sym("toSetString", 1)] })],
    ["src/cjs/cache.js", input({ symbols: [sym("Cache", 1, "class"), sym("Cache.get", 2, "method")], moduleName: "Cache" })],
    ["src/lib/text.ts", input({ symbols: [sym("shout", 1)] })],
    // `export namespace checks { export function assertEqual() { same(); } function same() {} }`
    ["src/lib/checks.ts", input({ symbols: [sym("checks", 1, "namespace"), sym("checks.assertEqual", 2), sym("checks.same", 3)], calls: [call("same", 2, "checks.assertEqual")] })],
    ["src/lib/promo/index.ts", input({ imports: [imp("*", "./codes", { isReExport: true })] })],
    ["src/lib/promo/codes.ts", input({ symbols: [sym("applyCode", 1)] })],
    ["src/lib/shop/index.ts", input({ imports: [imp("*", "./cart", { isReExport: true })] })],
    ["src/lib/shop/cart.ts", input({ symbols: [sym("Cart", 1, "class"), sym("Cart.add", 2, "method"), sym("Cart.create", 3, "method"), sym("makeCart", 6)], calls: [call("this.add", 4, "Cart.addAll")] })],
    // An overload: one name declared twice in a file.
    ["src/lib/money.ts", input({ symbols: [sym("total", 1), sym("total", 3)] })],
    ["src/lib/fmt.ts", input({ symbols: [sym("fmt", 1)], imports: [imp("total", "./money")], calls: [call("total", 2, "fmt")] })],
    ["src/util.ts", input({ symbols: [sym("helper", 1)] })],
    ["src/splash.ts", input({ imports: [imp("logo", "./logo")], symbols: [sym("splash", 1), sym("helper", 4)] })],
    ["src/theme.tsx", input({ symbols: [sym("palette", 1)] })],
    // Two copies of a generated file: more symbols than are scanned for a shared name, all shared,
    // one of them declared twice in the first copy.
    ["gen/a.ts", input({ symbols: [...Array.from({ length: 100 }, (_, i) => sym(`g${i}`, i + 1)), sym("g7", 200)] })],
    ["gen/b.ts", input({ symbols: Array.from({ length: 100 }, (_, i) => sym(`g${i}`, i + 1)) })],
  ]);
}
/**
 * Scanned but never added: they turned out binary. `src/theme.ts` also hides `src/theme.tsx` from
 * `import … from "./theme"` while every scanned path counts.
 */
const SCANNED_ONLY = ["src/logo.ts", "src/theme.ts"];

/** Symbol lists follow arrival order, which differs between the runs compared: compare them sorted. */
function sortedSymbols(index: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(index)) out[k] = k.startsWith("sym:") ? (JSON.parse(v) as { path: string }[]).sort((a, b) => a.path.localeCompare(b.path)) : JSON.parse(v);
  return out;
}

/** Applies what a sink receives, in order, the way Redis applies HSET/HDEL. */
function recordingSink(): GraphChunkSink & { meta_: Map<string, string>; index_: Map<string, string> } {
  const meta_ = new Map<string, string>();
  const index_ = new Map<string, string>();
  return {
    meta_,
    index_,
    meta: (entries) => entries.forEach(([k, v]) => meta_.set(k, v)),
    index: (entries) => entries.forEach(([k, v]) => index_.set(k, v)),
    dropIndex: (fields) => fields.forEach((f) => index_.delete(f)),
  };
}

/** A deterministic shuffle (a small linear congruential generator), so a failing order can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function streamed(order: string[]) {
  const files = project();
  const layout = loadProjectLayout("/nowhere", [...files.keys()]);
  const sink = recordingSink();
  const acc = new GraphAccumulator(new ImportResolver(new Set([...files.keys(), ...SCANNED_ONLY]), layout), layout, sink);
  for (const p of order) acc.add(p, files.get(p) as GraphInput);
  await acc.drain(async (asked) => new Map(asked.map((p) => [p, project().get(p) as GraphInput])));
  return { meta: Object.fromEntries(sink.meta_), index: sortedSymbols(Object.fromEntries(sink.index_)) };
}

async function fullPass() {
  const files = project();
  const layout = loadProjectLayout("/nowhere", [...files.keys()]);
  const { meta, indexFields } = await serialiseGraph(await buildGraph(files, new ImportResolver(new Set(files.keys()), layout), layout));
  return { meta: Object.fromEntries(meta), index: sortedSymbols(Object.fromEntries(indexFields)) };
}

describe("GraphAccumulator streaming into a sink", () => {
  const paths = [...project().keys()];

  it.each([
    ["callers before the barrels they call through", paths],
    ["declarations first", [...paths].reverse()],
    ["barrels last", [...paths.filter((p) => !p.endsWith("index.ts")), ...paths.filter((p) => p.endsWith("index.ts"))]],
    // The barrel is known when app.ts arrives, but not yet the star target that declares `total`.
    ["the declaring file of a star re-export last", ["src/lib/index.ts", "src/lib/shop/index.ts", "src/lib/shop/cart.ts", "src/lib/fmt.ts", "src/app.ts", "src/util.ts", "src/splash.ts", "src/theme.tsx", "src/lib/promo/index.ts", "src/lib/promo/codes.ts", "src/lib/badge.ts", "src/lib/text.ts", "src/lib/money.ts", "src/lib/button.ts", "src/lib/anon.ts", "src/cjs/util.js", "src/cjs/cache.js", "src/lib/checks.ts", "gen/b.ts", "gen/a.ts"]],
  ])("stores what a full pass stores (%s)", async (_label, order) => {
    const expected = await fullPass();
    expect(await streamed(order)).toEqual(expected);
  });

  it("stores what a full pass stores whatever order the files arrive in (40 seeded shuffles)", async () => {
    const expected = await fullPass();
    for (let seed = 1; seed <= 40; seed++) expect(await streamed(shuffled(paths, seed)), `seed ${seed}`).toEqual(expected);
  });

  it("follows the barrels to the declaring files, drops the edge to a file that was never added, and finds the text file a binary one hid", async () => {
    const { index } = await streamed(paths);
    const calls = index["calls:src/app.ts"] as { callee: string; target?: string }[];
    expect(Object.fromEntries(calls.map((c) => [c.callee, c.target]))).toEqual({
      total: "src/lib/money.ts#total",
      makeCart: "src/lib/shop/cart.ts#makeCart",
      fmt: "src/lib/fmt.ts#fmt",
      helper: "src/app.ts#helper",
      main: "src/app.ts#main",
      palette: "src/theme.tsx#palette",
      applyCode: "src/lib/promo/codes.ts#applyCode",
      // Declared nowhere: the call stays at the module it imports from.
      nowhere: "src/lib/index.ts#nowhere",
      // A renamed re-export leads to the name the file declares, a default export's too.
      Badge: "src/lib/badge.ts#Badge",
      // A default import: the declaration the default export names, or `default` when it names none.
      Knob: "src/lib/button.ts#Button",
      "Knob.press": "src/lib/button.ts#Button.press",
      anon: "src/lib/anon.ts#default",
      // require() bindings are the module object: its member, or what `module.exports` is.
      "util.toSetString": "src/cjs/util.js#toSetString",
      Store: "src/cjs/cache.js#Cache",
      "Store.get": "src/cjs/cache.js#Cache.get",
      yell: "src/lib/text.ts#shout",
      // Imports under another name: the module's own name, the namespace left out.
      sum: "src/lib/money.ts#total",
      "money.total": "src/lib/money.ts#total",
      // Through a namespace re-export and on through the star below it; the namespace itself is no declaration.
      "promos.applyCode": "src/lib/promo/codes.ts#applyCode",
      promos: "src/lib/index.ts#promos",
      // A static method through the barrel: the whole callee, the method's own symbol.
      "Cart.create": "src/lib/shop/cart.ts#Cart.create",
      // A namespace's member through the barrel's star, under the namespace's name.
      "checks.assertEqual": "src/lib/checks.ts#checks.assertEqual",
    });
    // Inside the namespace a bare call is to its own member.
    expect(index["calls:src/lib/checks.ts"]).toEqual([{ caller: "checks.assertEqual", callee: "same", line: 2, target: "src/lib/checks.ts#checks.same" }]);
    expect(index["deps:src/app.ts"]).toEqual(["src/cjs/cache.js", "src/cjs/util.js", "src/lib/anon.ts", "src/lib/button.ts", "src/lib/index.ts", "src/lib/money.ts", "src/theme.tsx", "src/util.ts"]);
    expect(index["sym:helper"]).toEqual([
      { path: "src/app.ts", line: 9, kind: "function" },
      { path: "src/splash.ts", line: 4, kind: "function" },
      { path: "src/util.ts", line: 1, kind: "function" },
    ]);
    expect(index["sym:total"]).toEqual([
      { path: "src/lib/money.ts", line: 1, kind: "function" },
      { path: "src/lib/money.ts", line: 3, kind: "function" },
    ]);
    expect(index["deps:src/splash.ts"]).toBeUndefined();
  });
});

describe("FieldChunker", () => {
  it("hands fields over in chunks of 2000 and flushes pending fields before a drop", () => {
    const sent: string[] = [];
    const chunker = new FieldChunker({
      meta: (e) => sent.push(`meta×${e.length}`),
      index: (e) => sent.push(`index×${e.length}`),
      dropIndex: (f) => sent.push(`drop ${f.join(",")}`),
    });
    for (let i = 0; i < 2001; i++) chunker.index(`sym:s${i}`, "[]");
    chunker.meta("a.ts", "{}");
    expect(sent).toEqual(["index×2000"]);
    chunker.dropIndex(["deps:a.ts"]);
    chunker.dropIndex([]);
    chunker.flush();
    expect(sent).toEqual(["index×2000", "index×1", "drop deps:a.ts", "meta×1"]);
  });
});
