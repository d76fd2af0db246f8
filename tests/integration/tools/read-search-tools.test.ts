// get_function, get_class, find_definition and find_references on the acme-shop fixture, indexed into a
// real Redis: what the model reads, what it is told on a miss, and every kind of bad input.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findDefinition } from "../../../src/main/tools/find-definition.js";
import { findReferences, MAX_REFERENCES } from "../../../src/main/tools/find-references.js";
import { getClass } from "../../../src/main/tools/get-class.js";
import { getFunction } from "../../../src/main/tools/get-function.js";
import { DEFAULT_LINE_WINDOW, getLines } from "../../../src/main/tools/get-lines.js";
import { getStructure, STRUCTURE_MAX_LINES } from "../../../src/main/tools/get-structure.js";
import { buildDirTree, chooseExpanded, MAX_ENTRIES_PER_FOLDER, renderTree } from "../../../src/main/tools/structure-tree.js";
import { MAX_DECLARATION_LINES } from "../../../src/main/tools/declaration-lookup.js";
import type { RegisteredTool } from "../../../src/main/tools/define-tool.js";
import type { ToolResult } from "../../../src/main/tools/tool-types.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { writeTree } from "../../helpers/temp-dir.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";
import { HOSTILE_PATHS, LONG_FUNCTION_LINES, MANY_REFS_LINES, openSearchFixture } from "./search-fixture.js";

const server = useRedisServer();
let project: IndexedProject;
let ctx: TestToolContext;

beforeAll(async () => {
  project = await openSearchFixture(server().url);
}, 60_000);
afterAll(async () => {
  await project?.close();
});

function fresh(): TestToolContext {
  ctx = toolContext(project);
  return ctx;
}

async function run(tool: RegisteredTool, args: unknown): Promise<ToolResult> {
  return tool.run("call-1", args, ctx ?? fresh());
}

async function ok(tool: RegisteredTool, args: unknown): Promise<string> {
  const r = await run(tool, args);
  expect(r.error, `${tool.name} ${JSON.stringify(args)}`).toBeUndefined();
  expect(r.success).toBe(true);
  return r.data!;
}

async function fails(tool: RegisteredTool, args: unknown, code: string): Promise<string> {
  const r = await run(tool, args);
  expect(r.success, `${tool.name} ${JSON.stringify(args)} should fail`).toBe(false);
  expect(r.code).toBe(code);
  return r.error!;
}

/** `  12│ text` rows of a numbered block: [line, text]. */
function numbered(text: string): Array<[number, string]> {
  return text
    .split("\n")
    .map((l) => /^\s*(\d+)│ (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => [Number(m[1]), m[2]!]);
}

describe("get_function", () => {
  it("returns a function's lines, numbered, and records the file's hash in the read ledger", async () => {
    fresh();
    const out = await ok(getFunction, { path: "packages/core/src/money.ts", name: "sum" });
    expect(out.split("\n")[0]).toBe("packages/core/src/money.ts: function sum(items): Money, lines 33-35 of 38");
    expect(numbered(out)).toEqual([
      [33, "export function sum(items: Money[]): Money {"],
      [34, "  return items.reduce((acc, m) => acc.add(m), Money.ZERO);"],
      [35, "}"],
    ]);
    const stored = await project.store.getFile("packages/core/src/money.ts");
    expect(stored?.kind).toBe("text");
    expect(ctx.session.readLedger.get("packages/core/src/money.ts")).toBe(stored?.kind === "text" ? stored.hash : "?");
  });

  it("addresses methods as Class.method, and by method name alone", async () => {
    const qualified = await ok(getFunction, { path: "packages/core/src/money.ts", name: "Money.add" });
    expect(qualified).toContain("method Money.add(other): Money, lines 23-26");
    expect(numbered(qualified).map(([n]) => n)).toEqual([23, 24, 25, 26]);
    const bare = await ok(getFunction, { path: "packages/core/src/money.ts", name: "add" });
    expect(bare).toBe(qualified);
    const getter = await ok(getFunction, { path: "packages/core/src/money.ts", name: "Money.cents" });
    expect(getter).toContain("get method Money.cents");
  });

  it("reads arrow functions bound to constants and strips a trailing ()", async () => {
    const out = await ok(getFunction, { path: "packages/core/src/money.ts", name: "formatMoney()" });
    expect(numbered(out).map(([n]) => n)).toEqual([37, 38]);
  });

  it("gives a class when asked for one by name instead of failing", async () => {
    const out = await ok(getFunction, { path: "packages/core/src/money.ts", name: "Money" });
    expect(out).toContain("class Money implements MoneyLike");
    expect(numbered(out)[0]).toEqual([8, "export class Money implements MoneyLike {"]);
  });

  it("cuts a long function at the window and says how to read on", async () => {
    const out = await ok(getFunction, { path: "packages/core/src/long.ts", name: "longOne" });
    const rows = numbered(out);
    expect(rows).toHaveLength(MAX_DECLARATION_LINES);
    expect(out).toContain(`lines 1-${LONG_FUNCTION_LINES}`);
    expect(out).toContain(`[${LONG_FUNCTION_LINES - MAX_DECLARATION_LINES} more lines; read on with get_lines path=packages/core/src/long.ts start=${MAX_DECLARATION_LINES + 1} end=${LONG_FUNCTION_LINES}]`);
  });

  it("on a miss lists the file's declarations, a near match and where the index has the name", async () => {
    const msg = await fails(getFunction, { path: "packages/core/src/money.ts", name: "slugify" }, "NOT_FOUND");
    expect(msg).toContain('"slugify" is declared in packages/core/src/utils/strings.ts:2 (function)');
    expect(msg).toContain("functions: sum, formatMoney");
    expect(msg).toContain("methods: Money.constructor, Money.cents, Money.add, Money.of");
    const near = await fails(getFunction, { path: "packages/core/src/money.ts", name: "SUM" }, "NOT_FOUND");
    expect(near).toContain('Did you mean "sum"?');
    const noMethod = await fails(getFunction, { path: "packages/core/src/money.ts", name: "Money.subtract" }, "NOT_FOUND");
    expect(noMethod).toContain('no function named "Money.subtract"');
  });

  it("explains files it cannot read declarations from", async () => {
    expect(await fails(getFunction, { path: "packages/core/src/missing.ts", name: "x" }, "FILE_NOT_FOUND")).toContain("get_structure");
    expect(await fails(getFunction, { path: "packages/core", name: "x" }, "PATH_INVALID")).toContain("is a folder");
    expect(await fails(getFunction, { path: "packages/core/src/blob.ts", name: "x" }, "NOT_TEXT")).toContain("binary");
    expect(await fails(getFunction, { path: "money-link.ts", name: "sum" }, "NOT_TEXT")).toContain("symlink to packages/core/src/money.ts");
    // build.log exists on disk but is ignored, so it was never indexed.
    expect(await fails(getFunction, { path: "build.log", name: "x" }, "NOT_FOUND")).toContain("get_lines");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile path %j", async (path, code) => {
    await fails(getFunction, { path, name: "sum" }, code);
    await fails(getClass, { path, name: "Money" }, code);
  });

  it.each([
    [{ path: "packages/core/src/money.ts" }, "name"],
    [{ name: "sum" }, "path"],
    [{ path: 5, name: "sum" }, "path"],
    [{ path: "packages/core/src/money.ts", name: ["sum"] }, "name"],
    [{ path: "packages/core/src/money.ts", name: "" }, "name"],
    [{ path: "packages/core/src/money.ts", name: "sum", extra: 1 }, "extra"],
  ])("rejects bad arguments %j", async (args, mentioned) => {
    const msg = await fails(getFunction, args, "INVALID_ARGS");
    expect(msg).toContain(mentioned);
  });

  it.each(["foo bar", "a.b.c", "x;rm -rf /", "sum(1)", "../sum", "1abc"])("rejects the non-identifier name %j", async (name) => {
    const msg = await fails(getFunction, { path: "packages/core/src/money.ts", name }, "INVALID_ARGS");
    expect(msg).toContain('"Class.method"');
  });
});

describe("get_class", () => {
  it("returns a whole class with its header", async () => {
    const out = await ok(getClass, { path: "packages/core/src/money.ts", name: "Money" });
    expect(out.split("\n")[0]).toBe("packages/core/src/money.ts: class Money implements MoneyLike (4 methods, 4 properties), lines 8-31 of 38");
    const rows = numbered(out);
    expect(rows[0]).toEqual([8, "export class Money implements MoneyLike {"]);
    expect(rows.at(-1)).toEqual([31, "}"]);
  });

  it("returns interfaces and type aliases too", async () => {
    expect(numbered(await ok(getClass, { path: "packages/core/src/money.ts", name: "MoneyLike" })).map(([n]) => n)).toEqual([3, 4, 5, 6]);
    expect(await ok(getClass, { path: "packages/core/src/money.ts", name: "Currency" })).toContain("type Currency, lines 1-1");
  });

  it("reads decorated and default-exported classes", async () => {
    const ctrl = await ok(getClass, { path: "apps/api/src/orders/order.controller.ts", name: "OrderController" });
    expect(ctrl).toContain("class OrderController");
    expect(ctrl).toContain("handle(req: IncomingMessage, res: ServerResponse): void {");
    expect(await ok(getClass, { path: "packages/core/src/logger.ts", name: "Logger" })).toContain("export default class Logger {");
  });

  it("shows a method outline with a class too long to print whole", async () => {
    const out = await ok(getClass, { path: "packages/core/src/long.ts", name: "BigClass" });
    expect(numbered(out)).toHaveLength(MAX_DECLARATION_LINES);
    expect(out).toMatch(/methods: first :\d+-\d+, second :\d+-\d+ \(read one with get_function BigClass\.<method>\)/);
    expect(out).toContain("more lines; read on with get_lines");
  });

  it("on a miss names the file's classes and types", async () => {
    const msg = await fails(getClass, { path: "apps/api/src/orders/order.service.ts", name: "OrderRepo" }, "NOT_FOUND");
    expect(msg).toContain('no class named "OrderRepo"');
    expect(msg).toContain("classes: OrderService");
    expect(msg).toContain("types: Order");
  });
});

describe("get_structure", () => {
  it("shows the project as a folder tree with file counts and per-file outline counts", async () => {
    const out = (await ok(getStructure, {})).split("\n");
    expect(out[0]).toMatch(/^\.\/ \(\d+ files\)$/);
    expect(out).toContain("  assets/ (1 file)");
    expect(out).toContain("        money.ts (2 fn, 1 class, 2 type, 5 export)");
    expect(out).toContain("        blob.ts");
    // Symlinks say where they point (never followed).
    expect(out).toContain("  money-link.ts → packages/core/src/money.ts");
    expect(out.find((l) => l.startsWith("  outside-link"))).toBe(`  outside-link → ${os.tmpdir()}`);
  });

  it("names what a shown folder holds besides indexed files (docs, styles), ignored files left out", async () => {
    writeTree(project.root, { "README.md": "# Acme\n", "docs/guide.md": "guide\n", "packages/core/src/utils/notes.md": "n\n" });
    const out = (await ok(getStructure, {})).split("\n");
    const root = out.find((l) => l.startsWith("  (not indexed:"));
    expect(root).toMatch(/^ {2}\(not indexed: .*README\.md.*; read with get_lines\)$/);
    expect(root).toContain("docs/");
    expect(root).not.toContain("node_modules");
    const folder = (await ok(getStructure, { path: "packages/core/src/utils" })).split("\n");
    expect(folder).toEqual(["packages/core/src/utils/ (2 files)", "  index.ts (1 export)", "  strings.ts (2 fn, 2 export)", "  (not indexed: notes.md; read with get_lines)"]);
    fs.rmSync(path.join(project.root, "packages/core/src/utils/notes.md"));
  });

  it("zooms into a folder, and gives a file's outline with line ranges", async () => {
    const folder = await ok(getStructure, { path: "packages/core/src/utils" });
    expect(folder.split("\n")).toEqual(["packages/core/src/utils/ (2 files)", "  index.ts (1 export)", "  strings.ts (2 fn, 2 export)"]);
    const outline = (await ok(getStructure, { path: "packages/core/src/money.ts" })).split("\n");
    expect(outline[0]).toBe("packages/core/src/money.ts (2 fn, 1 class, 2 type, 5 export)");
    expect(outline).toContain("  export class Money implements MoneyLike :8-31");
    expect(outline).toContain("    static of(amount, currency) :28-30");
    expect(outline).toContain("  export interface MoneyLike :3-6");
  });

  it("opens larger folders first, each showing at most MAX_ENTRIES_PER_FOLDER entries and a count of the rest", () => {
    const paths = [
      ...Array.from({ length: 400 }, (_, i) => `packages/big/src/f${i}.ts`),
      ...Array.from({ length: 3 }, (_, i) => `packages/small/s${i}.ts`),
      "README.ts",
    ];
    const tree = buildDirTree(paths, "");
    const out = renderTree(tree, chooseExpanded(tree, STRUCTURE_MAX_LINES), (f) => f.slice(f.lastIndexOf("/") + 1)).split("\n");
    expect(out.length).toBeLessThanOrEqual(STRUCTURE_MAX_LINES);
    const bigFiles = Array.from({ length: 400 }, (_, i) => `f${i}.ts`).sort().slice(0, MAX_ENTRIES_PER_FOLDER);
    expect(out).toEqual([
      "./ (404 files)",
      "  packages/ (403 files)",
      // big/ holds only src/: one line.
      "    big/src/ (400 files)",
      ...bigFiles.map((f) => `      ${f}`),
      `      … +${400 - MAX_ENTRIES_PER_FOLDER} more files (get_structure packages/big/src)`,
      "    small/ (3 files)",
      "      s0.ts",
      "      s1.ts",
      "      s2.ts",
      "  README.ts",
    ]);
  });

  it("shows a chain of single folders on one line, and a name with a line break escaped", () => {
    const deep = Array.from({ length: 200 }, (_, i) => `d${i}`).join("/");
    const tree = buildDirTree([`${deep}/leaf.ts`, "odd\nname.ts"], "");
    const out = renderTree(tree, chooseExpanded(tree, STRUCTURE_MAX_LINES), (f) => f.slice(f.lastIndexOf("/") + 1)).split("\n");
    expect(out).toEqual(["./ (2 files)", `  ${deep}/ (1 file)`, "    leaf.ts", "  odd\\nname.ts"]);
  });

  it("says a file without an outline is one, and what is not there is not", async () => {
    expect(await fails(getStructure, { path: "build.log" }, "NOT_FOUND")).toBe("build.log is a file the index has no outline for (not code, or ignored); read it with get_lines");
    expect(await fails(getStructure, { path: "packages/nope" }, "NOT_FOUND")).toBe("nothing indexed under packages/nope");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile path %j", async (p, code) => {
    await fails(getStructure, { path: p }, code);
  });
});

describe("get_lines", () => {
  it("numbers the lines of a range and says how to read on past the window", async () => {
    fresh();
    const out = await ok(getLines, { path: "packages/core/src/long.ts", start: 2, end: 3 });
    expect(out.split("\n")[0]).toBe("packages/core/src/long.ts (lines 2-3 of 958)");
    expect(numbered(out)).toEqual([
      [2, "  let total = 0;"],
      [3, "  total += 0;"],
    ]);
    const first = await ok(getLines, { path: "packages/core/src/long.ts" });
    expect(numbered(first)).toHaveLength(DEFAULT_LINE_WINDOW);
    expect(first).toContain(`[lines 1-${DEFAULT_LINE_WINDOW} of 958; ask for start=${DEFAULT_LINE_WINDOW + 1} to read on]`);
  });

  it("keeps its one-line title short whatever the path", () => {
    const title = getLines.titleFor({ path: `src/${"a".repeat(5000)}.ts`, start: 1, end: 2 });
    expect(title.length).toBe(160);
    expect(title.endsWith("…")).toBe(true);
    expect(getLines.titleFor({ path: "src/a.ts", start: 1, end: 2 })).toBe("get_lines src/a.ts 1-2");
  });

  it("returns whole lines up to the output cap, and says where to read on", async () => {
    fresh();
    // 400 lines of 100 characters are more than one answer holds.
    fs.writeFileSync(path.join(project.root, "wide.txt"), Array.from({ length: 500 }, (_, i) => `${String(i + 1).padStart(4, "0")} ${"x".repeat(95)}`).join("\n"));
    const out = await ok(getLines, { path: "wide.txt" });
    const rows = numbered(out);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(DEFAULT_LINE_WINDOW);
    const last = rows.at(-1)!;
    expect(last[1]).toBe(`${String(last[0]).padStart(4, "0")} ${"x".repeat(95)}`);
    expect(out).toContain(`[lines 1-${last[0]} of 500 (as much of the range as fits in one answer); ask for start=${last[0] + 1} to read on]`);
    expect(out).not.toContain("output truncated");
  });

  it("reads a file the index does not hold from disk, and refuses what is not text", async () => {
    fresh();
    expect(numbered(await ok(getLines, { path: "build.log" }))).toEqual([[1, "ignored"]]);
    fs.writeFileSync(path.join(project.root, "notes-latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await fails(getLines, { path: "notes-latin1.txt" }, "NOT_TEXT")).toContain("not UTF-8");
    expect(await fails(getLines, { path: "packages/core/src/blob.ts" }, "NOT_TEXT")).toContain("binary file (6 bytes)");
    expect(await fails(getLines, { path: "money-link.ts" }, "NOT_TEXT")).toContain("symlink to packages/core/src/money.ts");
  });

  it("says what is wrong with a path or a range the model can fix", async () => {
    fresh();
    expect(await fails(getLines, { path: "packages/core/src" }, "PATH_INVALID")).toBe("packages/core/src is a folder; give a file path (get_structure packages/core/src lists its files)");
    expect(await fails(getLines, { path: "packages/core/src/nope.ts" }, "FILE_NOT_FOUND")).toContain("get_structure");
    expect(await fails(getLines, { path: "packages/core/src/long.ts", start: 9, end: 3 }, "INVALID_ARGS")).toBe("end (3) is before start (9)");
    expect(await fails(getLines, { path: "packages/core/src/long.ts", start: 1200 }, "INVALID_ARGS")).toBe("packages/core/src/long.ts has 958 lines; start 1200 is past the end");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile path %j", async (p, code) => {
    fresh();
    await fails(getLines, { path: p }, code);
  });

  it("records the hash of an indexed file it returned", async () => {
    fresh();
    await ok(getLines, { path: "packages/core/src/utils/strings.ts", start: 1, end: 2 });
    const stored = await project.store.getFile("packages/core/src/utils/strings.ts");
    expect(ctx.session.readLedger.get("packages/core/src/utils/strings.ts")).toBe(stored?.kind === "text" ? stored.hash : "?");
  });
});

describe("find_definition", () => {
  it("says when the index is still taking in a large change, and waits for it first", async () => {
    const asked: string[] = [];
    const lagging = { ...ctx, services: { ...ctx.services, indexSettled: async () => (asked.push("settle"), { settled: false, backlog: 1834 }) } };
    const r = await findDefinition.run("t", { symbol: "Money" }, lagging);
    expect(asked).toEqual(["settle"]);
    expect(r.data).toContain("Money: 1 declaration");
    expect(r.data).toMatch(/\(The index is still taking in 1,834 changed files, as after a branch switch: this answer may be out of date\. Ask again in a few seconds\.\)$/);
    // Reads check the disk themselves: they do not wait.
    const read = await getLines.run("t", { path: "packages/core/src/money.ts", start: 1, end: 2 }, lagging);
    expect(asked).toEqual(["settle"]);
    expect(read.data).not.toContain("still taking in");
  });

  it("gives path, line, kind and the declaring line", async () => {
    const out = await ok(findDefinition, { symbol: "Money" });
    expect(out.split("\n")).toEqual([
      "Money: 1 declaration",
      "packages/core/src/money.ts:8 class Money │ export class Money implements MoneyLike {",
      "Read it with get_class path=packages/core/src/money.ts name=Money",
    ]);
  });

  it("finds methods as Class.method, and by method name across classes", async () => {
    expect(await ok(findDefinition, { symbol: "Money.add" })).toContain("packages/core/src/money.ts:23 method Money.add │ add(other: Money): Money {");
    const byName = await ok(findDefinition, { symbol: "add" });
    expect(byName.split("\n")[0]).toBe("add (as a method name): 2 declarations");
    expect(byName).toContain("packages/core/src/money.ts:23 method Money.add");
    expect(byName).toContain("packages/core/src/references-edge.ts:7 method Wallet.add");
  });

  it("finds what a namespace declares as ns.name, and by its own name as a member name", async () => {
    const out = await ok(findDefinition, { symbol: "util.assertEqual" });
    expect(out.split("\n")).toEqual([
      "util.assertEqual: 1 declaration",
      "packages/core/src/checks.ts:2 function util.assertEqual │ export function assertEqual(a: unknown, b: unknown): void {",
      "Read it with get_function path=packages/core/src/checks.ts name=util.assertEqual",
    ]);
    expect((await ok(findDefinition, { symbol: "assertEqual" })).split("\n")[0]).toBe("assertEqual (as a member name: of a class or a namespace): 1 declaration");
    // The hint it gives works.
    expect((await ok(getFunction, { path: "packages/core/src/checks.ts", name: "util.assertEqual" })).split("\n")[0]).toBe(
      "packages/core/src/checks.ts: function assertEqual(a, b): void, lines 2-4 of 11",
    );
    expect(await ok(findDefinition, { symbol: "util" })).toContain("packages/core/src/checks.ts:1 namespace util");
  });

  it("lists every declaration of a name declared twice, sorted by path", async () => {
    const out = await ok(findDefinition, { symbol: " slugify " });
    const rows = out.split("\n").slice(1, 3);
    expect(rows).toEqual([
      "packages/core/src/utils/strings.ts:2 function slugify │ export function slugify(input: string): string {",
      "packages/ui/src/slug.ts:1 function slugify │ export function slugify(s: string): string {",
    ]);
  });

  it("finds interfaces, type aliases and exported constants", async () => {
    expect(await ok(findDefinition, { symbol: "Order" })).toContain("apps/api/src/orders/order.service.ts:4 interface Order");
    expect(await ok(findDefinition, { symbol: "Currency" })).toContain("packages/core/src/money.ts:1 type Currency");
    expect(await ok(findDefinition, { symbol: "manyRefs" })).toContain("Read it with get_lines path=packages/core/src/many-refs.ts start=1");
  });

  it("suggests close names on a miss", async () => {
    const msg = await fails(findDefinition, { symbol: "Mony" }, "NOT_FOUND");
    expect(msg).toContain('Did you mean "Money"');
    expect(msg).toContain("find_references Mony");
    expect(await fails(findDefinition, { symbol: "orderservice" }, "NOT_FOUND")).toContain('"OrderService"');
    expect(await fails(findDefinition, { symbol: "zzzNothingLikeIt" }, "NOT_FOUND")).not.toContain("Did you mean");
  });

  it.each([[{}], [{ symbol: 3 }], [{ symbol: "" }], [{ symbol: "a b" }], [{ symbol: "sym:*" }], [{ symbol: "*" }], [{ symbol: "x".repeat(300) }]])(
    "rejects %j",
    async (args) => {
      await fails(findDefinition, args, "INVALID_ARGS");
    },
  );
});

interface RefRow {
  line: number;
  roles: string;
  inside: string | null;
  text: string;
}

/** Parses find_references output into file → rows. */
function references(out: string): Map<string, RefRow[]> {
  const files = new Map<string, RefRow[]>();
  let current: RefRow[] | null = null;
  for (const line of out.split("\n").slice(1)) {
    const row = /^\s+(\d+) (\S+)(?: in (\S+))? │ (.*)$/.exec(line);
    if (row) current!.push({ line: Number(row[1]), roles: row[2]!, inside: row[3] ?? null, text: row[4]! });
    else if (!line.startsWith("…")) files.set(line, (current = []));
  }
  return files;
}

describe("find_references", () => {
  it("finds code uses with roles and enclosing declarations, not comments or strings", async () => {
    const out = await ok(findReferences, { symbol: "Money" });
    const refs = references(out);
    // The declaring file comes first.
    expect([...refs.keys()][0]).toBe("packages/core/src/money.ts");
    expect(refs.get("packages/core/src/money.ts")).toContainEqual({ line: 8, roles: "definition", inside: null, text: "export class Money implements MoneyLike {" });
    expect(refs.get("packages/core/src/money.ts")).toContainEqual(expect.objectContaining({ line: 25, roles: "new", inside: "Money.add" }));
    expect(refs.get("apps/api/src/orders/order.service.ts")).toEqual([
      { line: 1, roles: "import", inside: null, text: 'import { Money, sum } from "@acme/core";' },
      { line: 6, roles: "type", inside: null, text: "lines: { sku: string; price: Money }[];" },
      { line: 18, roles: "type", inside: "OrderService.total", text: "total(id: string): Money {" },
    ]);
    // Comment lines 1-2 and the string on line 4 are not references; the template substitution is.
    expect(refs.get("packages/core/src/references-edge.ts")!.map((r) => r.line)).toEqual([3, 5, 7]);
    expect(out.split("\n")[0]).toMatch(/^Money: \d+ lines in 4 files \(/);
  });

  it("uses the call graph to name the calling function", async () => {
    const refs = references(await ok(findReferences, { symbol: "truncate" }));
    expect(refs.get("packages/ui/src/components/PriceTag.tsx")).toContainEqual({ line: 7, roles: "call", inside: "PriceTag", text: "{truncate(title, 40)}: {formatMoney(price)}" });
    expect(refs.get("packages/core/src/utils/strings.ts")).toEqual([
      { line: 9, roles: "definition", inside: null, text: "export function truncate(input: string, max: number): string {" },
    ]);
  });

  it("finds member uses of Class.method, leaving out other classes' methods of that name", async () => {
    const refs = references(await ok(findReferences, { symbol: "Money.add" }));
    expect(refs.get("packages/core/src/money.ts")).toEqual([
      { line: 23, roles: "definition", inside: null, text: "add(other: Money): Money {" },
      { line: 34, roles: "call", inside: "sum", text: "return items.reduce((acc, m) => acc.add(m), Money.ZERO);" },
    ]);
    // Wallet.add (references-edge.ts:7) is a different method.
    expect(refs.has("packages/core/src/references-edge.ts")).toBe(false);
    // A static property is not in the symbol index; its declaration inside the class still counts.
    const zero = references(await ok(findReferences, { symbol: "Money.ZERO" }));
    expect(zero.get("packages/core/src/money.ts")!.map((r) => [r.line, r.roles])).toEqual([
      [9, "definition"],
      [34, "member"],
    ]);
    expect(zero.get("packages/core/src/references-edge.ts")!.map((r) => [r.line, r.roles])).toEqual([[5, "member"]]);
    const total = references(await ok(findReferences, { symbol: "OrderService.total" }));
    expect(total.get("apps/api/src/reports/report-0.ts")).toEqual([
      { line: 2, roles: "call", inside: "report0", text: 'export const report0 = (s: OrderService) => s.total("r0");' },
    ]);
  });

  it("finds a namespace member's uses, qualified from importers and bare inside the namespace", async () => {
    const out = await ok(findReferences, { symbol: "util.assertEqual" });
    const refs = references(out);
    expect(refs.get("packages/core/src/checks.ts")!.map((r) => [r.line, r.roles])).toEqual([
      [2, "definition"],
      [9, "call"],
    ]);
    expect(refs.get("packages/core/src/verify.ts")!.map((r) => [r.line, r.roles, r.inside])).toEqual([[4, "call", "verify"]]);
    expect(out.split("\n")[0]).not.toContain("member uses of");
    // A member the namespace keeps to itself: its bare uses inside.
    const same = references(await ok(findReferences, { symbol: "util.same" }));
    expect(same.get("packages/core/src/checks.ts")!.map((r) => [r.line, r.roles])).toEqual([
      [3, "call"],
      [5, "definition"],
    ]);
  });

  it("narrows to a folder or a file", async () => {
    const refs = references(await ok(findReferences, { symbol: "Money", path: "apps" }));
    expect([...refs.keys()]).toEqual(["apps/api/src/orders/order.service.ts"]);
    const one = references(await ok(findReferences, { symbol: "OrderService", path: "apps/api/src/main.ts" }));
    expect([...one.keys()]).toEqual(["apps/api/src/main.ts"]);
    expect(one.get("apps/api/src/main.ts")!.map((r) => [r.line, r.roles])).toEqual([
      [2, "import"],
      [5, "new"],
    ]);
  });

  it("shows at most MAX_REFERENCES lines and counts the rest", async () => {
    const out = await ok(findReferences, { symbol: "manyRefs" });
    expect(out.split("\n")[0]).toMatch(new RegExp(`^manyRefs: ${MANY_REFS_LINES + 1} lines in 1 file \\(1 definition, ${MANY_REFS_LINES} ref\\)`));
    const shown = [...references(out).values()].flat();
    expect(shown).toHaveLength(MAX_REFERENCES);
    expect(out).toContain(`… ${MANY_REFS_LINES + 1 - MAX_REFERENCES} more lines; narrow with path=<folder>`);
  });

  it("reports a name used only in comments and strings as not referenced, with suggestions", async () => {
    const msg = await fails(findReferences, { symbol: "privet" }, "NOT_FOUND");
    expect(msg).toContain("comments and strings are not counted");
    expect(await fails(findReferences, { symbol: "Monee" }, "NOT_FOUND")).toContain('Did you mean "Money"');
  });

  it("does not treat data files as code", async () => {
    // config.yaml has `port: 3000` and package.json has "name"; neither is a code reference.
    await fails(findReferences, { symbol: "port" }, "NOT_FOUND");
  });

  it("adds the calls the call graph leads to it under other names (a renamed re-export, an alias), not the ones the text shows", async () => {
    const rel = "apps/api/src/slug-names.ts";
    fs.writeFileSync(
      path.join(project.root, rel),
      [
        'import { toSlug } from "@acme/core";',
        'import { slugify as makeSlug } from "@core/utils/strings";',
        'import * as strings from "@core/utils/strings";',
        'export const a = () => toSlug("a");',
        "export function b(): string {",
        '  return makeSlug("b");',
        "}",
        'export const c = () => strings.slugify("c");',
        "",
      ].join("\n"),
    );
    await project.reindex();
    try {
      const out = await ok(findReferences, { symbol: "slugify" });
      const section = out.split("\n");
      const at = section.indexOf("called under other names (2):");
      expect(at).toBeGreaterThan(0);
      expect(section.slice(at + 1, at + 3)).toEqual([
        `  ${rel}:4 toSlug() in a │ export const a = () => toSlug("a");`,
        `  ${rel}:6 makeSlug() in b │ return makeSlug("b");`,
      ]);
      // The namespace call and the import line name slugify: the text search lists them with the rest.
      expect(references(out.split("\n").slice(0, at).join("\n")).get(rel)!.map((r) => [r.line, r.roles])).toEqual([
        [2, "import"],
        [8, "call"],
      ]);
      // Narrowed to another folder, they are out of scope.
      expect(await ok(findReferences, { symbol: "slugify", path: "packages" })).not.toContain("called under other names");
    } finally {
      fs.rmSync(path.join(project.root, rel));
      await project.reindex();
    }
  });

  it("stops when the call is cancelled", async () => {
    const abort = new AbortController();
    abort.abort();
    const r = await findReferences.run("call-1", { symbol: "Money" }, toolContext(project, { signal: abort.signal }));
    expect(r.success).toBe(false);
    expect(r.code).toBe("CANCELLED");
  });

  it.each(HOSTILE_PATHS)("refuses the hostile scope %j", async (path, code) => {
    await fails(findReferences, { symbol: "Money", path }, code);
  });

  it.each([[{}], [{ symbol: null }], [{ symbol: "Money", path: 1 }], [{ symbol: "Money+1" }], [{ symbol: "Money", where: "x" }]])("rejects %j", async (args) => {
    await fails(findReferences, args, "INVALID_ARGS");
  });
});

describe("find_references with more lines than it shows", () => {
  it("shows the uses before lines that only import the symbol", async () => {
    const tree: Record<string, string> = { "packages/late/src/pick.ts": "export function pickLate(x: number): number {\n  return x;\n}\n" };
    // 120 files import it; three use it.
    for (let i = 0; i < 120; i++) tree[`packages/late/src/importers/i${String(i).padStart(3, "0")}.ts`] = 'import { pickLate } from "../pick";\nexport const unused = 1;\n';
    for (let i = 0; i < 3; i++) tree[`packages/late/src/users/z${i}.ts`] = `import { pickLate } from "../pick";\nexport const used${i} = pickLate(${i});\n`;
    writeTree(project.root, tree);
    await project.reindex();
    const out = await ok(findReferences, { symbol: "pickLate" });
    expect(out.split("\n")[0]).toMatch(/^pickLate: 127 lines in 124 files/);
    for (let i = 0; i < 3; i++) expect(out).toContain(`export const used${i} = pickLate(${i});`);
    expect(out).toMatch(/… 27 more lines \(27 of them import lines\), 24 files not shown at all; narrow with path=<folder>/);
  });
});
