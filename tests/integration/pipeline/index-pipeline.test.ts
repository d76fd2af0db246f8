import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexJson, summaryText } from "../../../src/main/cli/index-report.js";
import { ProjectIndexer } from "../../../src/main/indexing/project-indexer.js";
import { PARSE_ERRORS_NAMED } from "../../../src/pipeline/index-pipeline.js";
import { INDEX_RUN_FIELD, parseIndexRunMark } from "../../../src/pipeline/index-run-mark.js";
import { projectKey } from "../../../src/main/store/keys.js";
import type { ProjectStore } from "../../../src/main/store/project-store.js";
import type { FileAST } from "../../../src/workers/ast-types.js";
import { buildAcmeShop, closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { rebuiltGraph, storedGraph } from "../watch/graph-oracle.js";

const server = useRedisServer();
let project: IndexedProject;
let firstRun: Awaited<ReturnType<IndexedProject["reindex"]>>;

beforeAll(async () => {
  project = await openIndexedProject(buildAcmeShop(), server().url);
  firstRun = await project.reindex();
});
afterAll(() => closeIndexedProject(project));

const key = (part: Parameters<typeof projectKey>[1]) => projectKey(project.store.projectName, part);

describe("cold index of a fixture monorepo into a real Redis", () => {
  it("stores every indexable file and nothing ignored", async () => {
    const paths = (await project.store.listPaths()).sort();
    expect(paths).toContain("packages/core/src/money.ts");
    expect(paths).toContain("packages/ui/src/components/PriceTag.tsx");
    expect(paths).toContain("scripts/release.cjs");
    expect(paths).toContain("config.yaml");
    expect(paths).toContain("tsconfig.json");
    for (const p of paths) {
      expect(p).not.toMatch(/^(node_modules|dist)\//);
      expect(p).not.toMatch(/generated-cache|\.log$/);
    }
    expect(firstRun.skipped.ignored).toBeGreaterThanOrEqual(3);
    // The index's files: the skipped non-UTF-8 ones are not among them.
    expect(firstRun.skipped.nonUtf8).toBeGreaterThan(0);
    expect(firstRun.files).toBe(paths.length);
  });

  it("says in its summary what the symlinks are, so the counts add up", () => {
    expect(firstRun.symlinks).toBeGreaterThan(0);
    expect(summaryText("acme", firstRun).split("\n")[1]).toBe(`${firstRun.parsed} parsed, 0 unchanged, ${firstRun.symlinks} ${firstRun.symlinks === 1 ? "symlink" : "symlinks"} (recorded, not followed)`);
  });

  it("keeps text lines, binary metadata only, skips non-UTF-8, records symlinks without following", async () => {
    const money = await project.store.getFile("packages/core/src/money.ts");
    expect(money?.kind).toBe("text");
    if (money?.kind === "text") {
      expect(money.lines[0]).toBe('export type Currency = "EUR" | "USD" | "RUB";');
      expect(money.hash).toMatch(/^[0-9a-f]{16}$/);
    }
    const logo = await project.store.getFile("assets/logo.png");
    expect(logo).toMatchObject({ kind: "binary", size: 16 });
    const blob = await project.store.getFile("packages/core/src/blob.ts");
    expect(blob?.kind).toBe("binary");
    expect(await project.store.getFile("packages/core/src/legacy-cp1251.ts")).toBeNull();
    expect(firstRun.skipped.nonUtf8).toBe(1);
    expect(await project.store.getFile("money-link.ts")).toEqual({ kind: "symlink", target: "packages/core/src/money.ts" });
    expect(await project.store.getFile("packages/loop")).toEqual({ kind: "symlink", target: "." });
    expect((await project.store.listPaths()).some((p) => p.startsWith("packages/loop/"))).toBe(false);
  });

  it("stores the AST outline with the seed's fields", async () => {
    const ast = (await project.store.getAst("packages/core/src/money.ts")) as FileAST;
    const money = ast.classes.find((c) => c.name === "Money");
    expect(money).toMatchObject({ isExported: true, implements: ["MoneyLike"] });
    expect(money?.methods.map((m) => m.name)).toEqual(expect.arrayContaining(["constructor", "cents", "add", "of"]));
    expect(money?.properties.map((p) => p.name)).toEqual(expect.arrayContaining(["ZERO", "#cents", "amount", "currency"]));
    expect(ast.functions.map((f) => f.name)).toEqual(expect.arrayContaining(["sum", "formatMoney"]));
    const tag = (await project.store.getAst("packages/ui/src/components/PriceTag.tsx")) as FileAST;
    // Workspace names and tsconfig aliases are internal; react is external.
    expect(tag.imports.find((i) => i.from === "@acme/core")?.type).toBe("internal");
    expect(tag.imports.find((i) => i.from === "@core/utils/strings")?.type).toBe("internal");
    expect(tag.imports.find((i) => i.from === "react")?.type).toBe("external");
    const logger = (await project.store.getAst("packages/core/src/logger.ts")) as FileAST;
    expect(logger.imports[0]).toMatchObject({ from: "node:fs", type: "builtin" });
  });

  it("resolves the dependency graph across packages and aliases", async () => {
    const meta = await project.store.getMeta("packages/ui/src/components/PriceTag.tsx");
    expect(meta?.dependencies).toEqual(["packages/core/src/index.ts", "packages/core/src/utils/strings.ts"]);
    const index = await project.store.getMeta("packages/core/src/index.ts");
    expect(index?.dependencies).toEqual(["packages/core/src/logger.ts", "packages/core/src/money.ts", "packages/core/src/utils/strings.ts"]);
    expect(index?.dependents).toEqual(["apps/api/src/orders/order.service.ts", "packages/ui/src/components/PriceTag.tsx"]);
    const controller = await project.store.getMeta("apps/api/src/orders/order.controller.ts");
    expect(controller?.dependents).toEqual(["apps/api/src/main.ts"]); // via the ~api/* alias
    expect((await project.store.getMeta("apps/api/src/main.ts"))?.isEntryPoint).toBe(true);
    expect(controller?.isEntryPoint).toBe(false);
    expect(controller?.complexity.loc).toBeGreaterThan(5);
  });

  it("builds the symbol index and a call graph", async () => {
    const sym = JSON.parse((await project.redis.hget(key("indexes"), "sym:Money")) ?? "null");
    expect(sym).toEqual([expect.objectContaining({ path: "packages/core/src/money.ts", kind: "class" })]);
    // Only calls that can land in the project are kept: not Math.round, reduce or Intl.
    const calls = JSON.parse((await project.redis.hget(key("indexes"), "calls:packages/core/src/money.ts")) ?? "[]") as { callee: string; target?: string }[];
    expect(calls.map((c) => c.callee)).not.toContain("Math.round");
    const service = JSON.parse((await project.redis.hget(key("indexes"), "calls:apps/api/src/orders/order.service.ts")) ?? "[]") as { callee: string; target?: string }[];
    // Through the barrel packages/core/src/index.ts to the file that declares it.
    expect(service.find((c) => c.callee === "sum")?.target).toBe("packages/core/src/money.ts#sum");
    const tagCalls = JSON.parse((await project.redis.hget(key("indexes"), "calls:packages/ui/src/components/PriceTag.tsx")) ?? "[]") as { callee: string; target?: string }[];
    expect(tagCalls.find((c) => c.callee === "truncate")?.target).toBe("packages/core/src/utils/strings.ts#truncate");
  });
});

describe("the graph written while the workers parse", () => {
  it("equals a full graph pass over the stored facts (meta and every index field)", async () => {
    const [stored, rebuilt] = await Promise.all([storedGraph(project), rebuiltGraph(project)]);
    expect(Object.keys(stored.indexes).length).toBeGreaterThan(20);
    expect(stored).toEqual(rebuilt);
    expect(await project.redis.keys(`${key("indexes_next")}*`)).toEqual([]);
  });
});

describe("re-index", () => {
  it("re-parses and writes nothing when nothing changed (symlinks included)", async () => {
    const before = await project.redis.hgetall(key("files"));
    const written: unknown[] = [];
    const writeRecords = project.store.writeRecords.bind(project.store);
    project.store.writeRecords = (batch) => (written.push(batch), writeRecords(batch));
    const stats = await project.reindex().finally(() => (project.store.writeRecords = writeRecords));
    expect(written).toEqual([]);
    expect(stats.symlinks).toBe(firstRun.symlinks);
    expect(stats.parsed).toBe(0);
    // The summary reads as the first run's did: binary files still count as binary, not as unchanged.
    expect(stats.unchanged).toBe(firstRun.parsed);
    expect(stats.skipped.binary).toBe(firstRun.skipped.binary);
    expect(firstRun.skipped.binary).toBeGreaterThan(0);
    expect(stats.graphRebuilt).toBe(false);
    expect(await project.redis.hgetall(key("files"))).toEqual(before);
  });

  it("a file touched without a change keeps its content and gets its new lastModified, nothing parsed", async () => {
    const rel = "packages/core/src/money.ts";
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(project.root, rel), later, later);
    const stats = await project.reindex();
    expect(stats.parsed).toBe(0);
    const stored = await project.store.getFile(rel);
    expect(stored).toMatchObject({ kind: "text", lastModified: Math.floor(fs.statSync(path.join(project.root, rel)).mtimeMs) });
    expect(stored?.kind === "text" && stored.lines.join("\n")).toBe(fs.readFileSync(path.join(project.root, rel), "utf8").replace(/\n$/, ""));
    // A second run has nothing to do.
    expect((await project.reindex()).parsed).toBe(0);
  });

  it("updates exactly the changed entries, and drops a deleted file everywhere", async () => {
    const beforeFiles = await project.redis.hgetall(key("files"));
    const beforeAst = await project.redis.hgetall(key("ast"));
    const strings = path.join(project.root, "packages/core/src/utils/strings.ts");
    fs.appendFileSync(strings, "\nexport function shout(s: string): string {\n  return s.toUpperCase();\n}\n");
    fs.rmSync(path.join(project.root, "packages/core/src/logger.ts"));
    const stats = await project.reindex();
    expect(stats.parsed).toBe(1);
    expect(stats.removed).toBe(1);
    const afterFiles = await project.redis.hgetall(key("files"));
    const afterAst = await project.redis.hgetall(key("ast"));
    const changed = Object.keys(afterFiles).filter((p) => afterFiles[p] !== beforeFiles[p]);
    expect(changed).toEqual(["packages/core/src/utils/strings.ts"]);
    expect(Object.keys(afterAst).filter((p) => afterAst[p] !== beforeAst[p])).toEqual(["packages/core/src/utils/strings.ts"]);
    expect(afterFiles["packages/core/src/logger.ts"]).toBeUndefined();
    expect(await project.store.getAst("packages/core/src/logger.ts")).toBeNull();
    expect(await project.store.getMeta("packages/core/src/logger.ts")).toBeNull();
    expect((await project.store.getMeta("packages/core/src/index.ts"))?.dependencies).not.toContain("packages/core/src/logger.ts");
    expect(await project.redis.hget(key("indexes"), "sym:Logger")).toBeNull();
    expect(JSON.parse((await project.redis.hget(key("indexes"), "sym:shout")) ?? "null")).toEqual([
      expect.objectContaining({ path: "packages/core/src/utils/strings.ts" }),
    ]);
    // Unchanged files joined from stored facts, the changed one from the worker: still one whole graph.
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a run that died before its graph landed leaves the graph marked stale; the next run rebuilds it from the stored facts", async () => {
    fs.appendFileSync(path.join(project.root, "packages/core/src/utils/strings.ts"), "\nexport function whisper(s: string): string {\n  return s.toLowerCase();\n}\n");
    // The same store, except that the graph's final step fails, as when the process is killed then.
    const dying = Object.create(project.store) as ProjectStore;
    dying.beginGraphRewrite = () => ({ ...project.store.beginGraphRewrite(), commit: () => Promise.reject(new Error("killed before the graph landed")) });
    const indexer = new ProjectIndexer(project.root, project.config, dying);
    try {
      await expect(indexer.index(await indexer.scan())).rejects.toThrow(/killed/);
    } finally {
      await indexer.close();
    }
    // The file's records are stored, so the next run has nothing to parse; only the mark says the graph lags.
    expect(await project.redis.hget(key("indexes"), "sym:whisper")).toBeNull();
    expect(await project.store.graphStale()).toBe(true);

    const stats = await project.reindex();
    expect(stats.parsed).toBe(0);
    expect(stats.graphRebuilt).toBe(true);
    expect(JSON.parse((await project.redis.hget(key("indexes"), "sym:whisper")) ?? "null")).toEqual([expect.objectContaining({ path: "packages/core/src/utils/strings.ts" })]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
    expect(await project.store.graphStale()).toBe(false);
    expect((await project.reindex()).graphRebuilt).toBe(false);
  });

  it("a touched but identical file is not re-parsed", async () => {
    const money = path.join(project.root, "packages/core/src/money.ts");
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(money, later, later);
    const stats = await project.reindex();
    expect(stats.parsed).toBe(0);
    const again = await project.reindex();
    expect(again.parsed).toBe(0);
  });

  it("marks the index with the run that wrote it, and only a run that wrote something", async () => {
    const mark = async () => project.redis.hget(key("config"), INDEX_RUN_FIELD);
    const before = await mark();
    expect(parseIndexRunMark(before)).not.toBeNull();
    expect((await project.reindex()).parsed).toBe(0);
    expect(await mark()).toBe(before);

    const money = path.join(project.root, "packages/core/src/money.ts");
    const original = fs.readFileSync(money);
    fs.appendFileSync(money, "\nexport const MONEY_MARKER = 1;\n");
    const startedBefore = Date.now();
    expect((await project.reindex()).parsed).toBe(1);
    const after = parseIndexRunMark(await mark());
    fs.writeFileSync(money, original);
    expect((await project.reindex()).parsed).toBe(1);
    expect(after?.id).not.toBe(parseIndexRunMark(before)?.id);
    // Taken before the run read anything: a live index re-checks what it wrote after this.
    expect(after?.startedAt).toBeGreaterThanOrEqual(startedBefore);
    expect(after?.startedAt).toBeLessThanOrEqual(Date.now());
  });

  it("a text file that turns binary keeps metadata only: its AST, facts and meta go", async () => {
    const file = path.join(project.root, "packages/core/src/utils/index.ts");
    fs.writeFileSync(file, Buffer.from([0x65, 0x78, 0x00, 0x70, 0x6f, 0x72, 0x74]));
    const stats = await project.reindex();
    expect(stats.skipped.binary).toBe(firstRun.skipped.binary + 1); // the ones there were, and this one
    expect((await project.store.getFile("packages/core/src/utils/index.ts"))?.kind).toBe("binary");
    expect(await project.store.getAst("packages/core/src/utils/index.ts")).toBeNull();
    expect(await project.store.getMeta("packages/core/src/utils/index.ts")).toBeNull();
    expect(await project.redis.hget(key("facts"), "packages/core/src/utils/index.ts")).toBeNull();
    // Importers resolved `./utils` to it while scanning; those edges go once it is known to be binary.
    const importers = Object.entries(await project.redis.hgetall(key("indexes"))).filter(([f, v]) => f.startsWith("deps:") && v.includes("utils/index.ts"));
    expect(importers).toEqual([]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("an import that a binary file of the same stem hid resolves to the text file, as the live index has it", async () => {
    fs.writeFileSync(path.join(project.root, "packages/core/src/palette.ts"), Buffer.from([0x70, 0x00, 0x61]));
    fs.writeFileSync(path.join(project.root, "packages/core/src/palette.tsx"), "export function palette(): string[] {\n  return [];\n}\n");
    fs.writeFileSync(path.join(project.root, "packages/core/src/uses-palette.ts"), 'import { palette } from "./palette";\nexport const colours = palette();\n');
    await project.reindex();
    const index = await project.redis.hgetall(key("indexes"));
    expect(JSON.parse(index["deps:packages/core/src/uses-palette.ts"] ?? "null")).toEqual(["packages/core/src/palette.tsx"]);
    expect(JSON.parse(index["calls:packages/core/src/uses-palette.ts"] ?? "[]")).toEqual([expect.objectContaining({ callee: "palette", target: "packages/core/src/palette.tsx#palette" })]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("an index written by another schema version is rebuilt, not misread", async () => {
    await project.redis.hset(key("config"), "schemaVersion", "0");
    const stats = await project.reindex();
    expect(stats.schemaReset).toBe(true);
    expect(stats.parsed).toBeGreaterThan(10);
    expect(await project.store.getAst("packages/core/src/money.ts")).not.toBeNull();
  });
});

describe("two full runs of one project at once", () => {
  it("leave one whole graph (the TUI starting while `ipuaro index` runs)", async () => {
    const second = new ProjectIndexer(project.root, project.config, project.store);
    try {
      const run = async (indexer: ProjectIndexer) => indexer.index(await indexer.scan(), undefined, undefined, { force: true });
      const [a, b] = await Promise.all([run(project.indexer), run(second)]);
      expect(a.parsed).toBeGreaterThan(10);
      expect(b.parsed).toBe(a.parsed);
    } finally {
      await second.close();
    }
    const [stored, rebuilt] = await Promise.all([storedGraph(project), rebuiltGraph(project)]);
    expect(Object.keys(stored.indexes).length).toBeGreaterThan(20);
    expect(stored).toEqual(rebuilt);
  });
});

describe("a file whose name is not UTF-8", () => {
  it("is skipped, counted and named, and the rest is indexed", async () => {
    const root = makeTempDir();
    writeTree(root, { "package.json": '{"name":"names"}', "src/ok.ts": "export const ok = 1;\n", "src/привет 🙂.ts": "export const hi = 1;\n" });
    // "café.ts" in Latin-1: the 0xE9 byte is not UTF-8.
    fs.writeFileSync(Buffer.concat([Buffer.from(path.join(root, "src", "caf")), Buffer.from([0xe9]), Buffer.from(".ts")]), "export const b = 2;\n");
    const named = await openIndexedProject(root, server().url);
    try {
      const stats = await named.reindex();
      expect(stats.parsed).toBe(3); // package.json too
      expect(stats.skipped.nonUtf8).toBe(1);
      expect(stats.errors).toEqual([{ path: "src/caf\uFFFD.ts", message: "the file name is not valid UTF-8; it was skipped" }]);
      expect((await named.store.listPaths()).sort()).toEqual(["package.json", "src/ok.ts", "src/привет 🙂.ts"]);
      expect(summaryText("names", stats)).toContain("error: src/caf\uFFFD.ts: the file name is not valid UTF-8; it was skipped");
    } finally {
      await named.close();
      removeDir(root);
    }
  });
});

describe("files with syntax errors", () => {
  it("are indexed as far as they parse, counted, and the first ones named in the summary", async () => {
    const tree: Record<string, string> = { "package.json": '{"name":"broken"}', "src/ok.ts": "export const ok = 1;\n" };
    for (let i = 0; i < 12; i++) tree[`src/broken-${String(i).padStart(2, "0")}.ts`] = `export function f${i}(x: number {\n  return x;\n}\n`;
    const root = makeTempDir();
    writeTree(root, tree);
    const broken = await openIndexedProject(root, server().url);
    try {
      const stats = await broken.reindex();
      expect(stats.parseErrors).toBe(12);
      expect(stats.parseErrorPaths).toHaveLength(PARSE_ERRORS_NAMED);
      for (const p of stats.parseErrorPaths) expect(p).toMatch(/^src\/broken-\d\d\.ts$/);
      expect(new Set(stats.parseErrorPaths).size).toBe(PARSE_ERRORS_NAMED);
      expect((await broken.store.getAst("src/broken-00.ts"))?.functions.map((f) => f.name)).toEqual(["f0"]);
      const summary = summaryText("broken", stats);
      expect(summary).toContain(`12 files with syntax errors (indexed as far as they parse): ${stats.parseErrorPaths.join(", ")} and 2 more`);
      expect(indexJson("broken", stats, null).parseErrorFiles).toEqual(stats.parseErrorPaths);
    } finally {
      await broken.close();
      removeDir(root);
    }
  });

  it("are still counted by warm runs that do not parse them again, until they are fixed", async () => {
    const root = makeTempDir();
    writeTree(root, { "package.json": '{"name":"warm-broken"}', "src/ok.ts": "export const ok = 1;\n", "src/a.ts": "export function a(x: number {\n}\n", "src/b.ts": "export const b = ;\n" });
    const project = await openIndexedProject(root, server().url);
    try {
      expect((await project.reindex()).parseErrors).toBe(2);
      const warm = await project.reindex();
      expect(warm.parsed).toBe(0);
      expect([warm.parseErrors, [...warm.parseErrorPaths].sort()]).toEqual([2, ["src/a.ts", "src/b.ts"]]);
      // A new mtime with the same bytes (a checkout, touch) is not a fix.
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(path.join(root, "src/a.ts"), later, later);
      expect((await project.reindex()).parseErrors).toBe(2);
      expect((await project.reindex()).parseErrors).toBe(2);
      fs.writeFileSync(path.join(root, "src/b.ts"), "export const b = 2;\n");
      fs.writeFileSync(path.join(root, "src/ok.ts"), "export const ok = ;\n");
      const after = await project.reindex();
      expect([after.parsed, after.parseErrors, [...after.parseErrorPaths].sort()]).toEqual([2, 2, ["src/a.ts", "src/ok.ts"]]);
      expect((await project.reindex()).parseErrorPaths.sort()).toEqual(["src/a.ts", "src/ok.ts"]);
    } finally {
      await project.close();
      removeDir(root);
    }
  });
});

describe("a TypeScript namespace", () => {
  it("declares its members under its name, and calls to them from inside, from importers and through a barrel land there", async () => {
    const root = makeTempDir();
    writeTree(root, {
      "package.json": '{"name":"checks-app"}',
      "src/checks.ts": [
        "export namespace util {",
        "  export function assertEqual(a: unknown, b: unknown): void {",
        "    if (!same(a, b)) throw new Error(\"differ\");",
        "  }",
        "  function same(a: unknown, b: unknown): boolean {",
        "    return a === b;",
        "  }",
        "}",
        "",
      ].join("\n"),
      "src/index.ts": 'export * from "./checks";\n',
      "src/app.ts": ['import { util } from "./index";', "", "export function main(): void {", "  util.assertEqual(1, 1);", "}", ""].join("\n"),
    });
    const ns = await openIndexedProject(root, server().url);
    try {
      await ns.reindex();
      const indexes = projectKey(ns.store.projectName, "indexes");
      const field = async (f: string) => JSON.parse((await ns.redis.hget(indexes, f)) ?? "null");
      expect(await field("sym:util")).toEqual([{ path: "src/checks.ts", line: 1, kind: "namespace" }]);
      expect(await field("sym:util.assertEqual")).toEqual([{ path: "src/checks.ts", line: 2, kind: "function" }]);
      expect(await field("calls:src/app.ts")).toEqual([{ caller: "main", callee: "util.assertEqual", line: 4, target: "src/checks.ts#util.assertEqual" }]);
      expect(await field("calls:src/checks.ts")).toEqual([{ caller: "util.assertEqual", callee: "same", line: 3, target: "src/checks.ts#util.same" }]);
      // The AST keeps the names as written.
      expect((await ns.store.getAst("src/checks.ts"))?.functions.map((f) => f.name)).toEqual(["assertEqual", "same"]);
    } finally {
      await ns.close();
      removeDir(root);
    }
  });
});

describe("a cancelled index", () => {
  it("keeps what it parsed before the cancel, so the next run does not parse it again", async () => {
    const tree: Record<string, string> = { "package.json": '{"name":"many"}' };
    for (let i = 0; i < 400; i++) tree[`src/m${String(i).padStart(3, "0")}.ts`] = `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`;
    const root = makeTempDir();
    writeTree(root, tree);
    const many = await openIndexedProject(root, server().url);
    try {
      const stop = new AbortController();
      let doneAtCancel = 0;
      const timed = await many.indexer.scan();
      const cancelled = many.indexer.index(
        timed,
        (p) => {
          // Cancel once two tasks' results are in, while others are still out at the threads.
          if (p.phase === "index" && p.done >= 96 && !stop.signal.aborted) {
            doneAtCancel = p.done;
            stop.abort(new Error("cancelled"));
          }
        },
        stop.signal,
      );
      await expect(cancelled).rejects.toThrow("cancelled");
      // What it stored is marked as a finished run's writes are, so live indexes elsewhere reload.
      expect(parseIndexRunMark(await many.redis.hget(projectKey(many.store.projectName, "config"), INDEX_RUN_FIELD))).not.toBeNull();
      expect(doneAtCancel).toBeGreaterThanOrEqual(96);
      expect(doneAtCancel).toBeLessThan(401);
      const next = await many.reindex();
      // Everything the cancelled run had taken in was stored, even the results still waiting to be
      // written together with the next ones.
      expect(next.unchanged).toBeGreaterThanOrEqual(doneAtCancel);
      expect(next.parsed + next.unchanged).toBe(401);
    } finally {
      await many.close();
      removeDir(root);
    }
  }, 120_000);
});

describe("the lines a cold index stores", () => {
  it("are the file's lines exactly, whatever its line ends, escapes and characters", async () => {
    // The worker writes these values from the file's bytes, not through JSON.stringify.
    const tree: Record<string, string> = {
      "package.json": '{"name":"lines"}',
      "src/crlf.ts": "export const a = 1;\r\nexport const b = 2;\r\n",
      "src/bom.ts": "\uFEFFexport const c = 3;\n",
      "src/words.ts": '// Привет, мир 👩‍💻\nexport const s = "quote \\" backslash \\\\ tab\t";\nexport const esc = "\u001b[31m";',
      "src/lone-cr.js": "const x = 1;\rconst y = 2;\n\n\n",
      "src/empty.ts": "",
      "config/app.yaml": "name: app\r\nlist:\r\n  - a\r\n",
    };
    const root = makeTempDir();
    writeTree(root, tree);
    const lines = await openIndexedProject(root, server().url);
    try {
      await lines.reindex();
      for (const [p, text] of Object.entries(tree)) {
        const stored = await lines.store.getFile(p);
        expect(stored?.kind, p).toBe("text");
        if (stored?.kind !== "text") continue;
        // A lone CR ends a line too, as editors and tsc read it.
        const expected = text.replace(/^\uFEFF/, "").split(/\r\n?|\n/);
        if (expected.length > 1 && expected[expected.length - 1] === "") expected.pop();
        expect(stored.lines, p).toEqual(expected);
        expect(stored.size, p).toBe(Buffer.byteLength(text));
      }
    } finally {
      await lines.close();
      removeDir(root);
    }
  });
});
