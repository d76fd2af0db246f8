import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInitialContext, type BuildInitialContextOptions } from "../../../src/main/context/initial-context.js";
import { SnapshotCache } from "../../../src/main/context/snapshot-cache.js";
import { TokenEstimator } from "../../../src/main/llm/token-estimator.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer();
let project: IndexedProject;
const estimator = new TokenEstimator();
const estimateTokens = (text: string) => estimator.estimate(text);
const PRICE_TAG = "packages/ui/src/components/PriceTag.tsx";
const PARSED_FILES = 18;

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));

const build = (over: Partial<BuildInitialContextOptions> = {}) =>
  buildInitialContext({ store: project.store, root: project.root, budgetTokens: 10_000, estimateTokens, cache: null, ...over });

describe("what the map shows", () => {
  it("has the header, structure, metrics and every outline when the budget allows", async () => {
    const ctx = await build();
    expect(ctx.text).toContain(`# Project: ${path.basename(project.root)}\nRoot: ${project.root}\nFiles: 22 indexed (TypeScript 13, JSON 5, JavaScript 1, YAML 1, other 2)`);
    expect(ctx.text).toContain("## Structure (folders; files in each subtree; 4 files at the root)\napps/api/ (4)\n  src/ (3)\n    orders/ (2)\n");
    expect(ctx.text).toMatch(/Entry points \(5; package entries and code nothing imports\): [^\n]*apps\/api\/src\/main\.ts/);
    expect(ctx.text).toContain("Most imported (dependents): packages/core/src/utils/strings.ts 3");
    expect(ctx.includedFiles).toHaveLength(PARSED_FILES);
    expect(ctx.summarisedFolders).toBe(0);
    expect(ctx.totalFiles).toBe(22);
    expect(ctx.instructions).toBeNull();
    expect(ctx.projectMap).toBe(ctx.text);
  });

  it("shows signatures and never a line of code from a body", async () => {
    const ctx = await build();
    expect(ctx.text).toContain("packages/core/src/money.ts  [1 dependent, cx 8]");
    expect(ctx.text).toContain("  export class Money implements MoneyLike  L8-31");
    expect(ctx.text).toContain("    add(other): Money  L23-26");
    expect(ctx.text).toContain("    static of(amount, currency): Money  L28-30");
    expect(ctx.text).toContain("  export function sum(items): Money  L33-35");
    expect(ctx.text).toContain("  export const formatMoney = (m, locale): string  L37-38");
    expect(ctx.text).toContain("  @Controller export class OrderController  L8-17");
    expect(ctx.text).toContain("config.yaml  [cx 5]\n  keys: server, database");
    expect(ctx.text).not.toContain("this.#cents = Math.round(amount * 100);");
    // Every body line of every function and method in the fixture stays out.
    for (const p of ctx.includedFiles.filter((f) => /\.[jt]sx?$|\.cjs$/.test(f))) {
      const ast = (await project.store.getAst(p))!;
      const file = await project.store.getLines(p);
      const ranges = [...ast.functions, ...ast.classes.flatMap((c) => c.methods)].map((f) => [f.lineStart, f.lineEnd] as const);
      for (const [start, end] of ranges) {
        for (const line of file!.lines.slice(start, end - 1)) {
          if (line.trim().length >= 8) expect(ctx.text, `${p}: ${line.trim()}`).not.toContain(line.trim());
        }
      }
    }
  });
});

describe("ranking for the conversation", () => {
  it("a mentioned symbol ranks its file first, in any language around it", async () => {
    const plain = await build();
    expect(plain.rankedFiles.indexOf(PRICE_TAG)).toBeGreaterThan(0);
    for (const message of ["Where is PriceTag rendered?", "Почему PriceTag не показывает валюту?"]) {
      const ctx = await build({ mentions: ["hello", message] });
      expect(ctx.rankedFiles[0]).toBe(PRICE_TAG);
      expect(ctx.includedFiles[0]).toBe(PRICE_TAG);
    }
  });

  it("a mentioned file keeps its whole outline under a tight budget", async () => {
    const ctx = await build({ budgetTokens: 700, mentions: ["Why is Money.add throwing?"] });
    expect(ctx.includedFiles[0]).toBe("packages/core/src/money.ts");
    expect(ctx.text).toContain("    add(other): Money  L23-26");
    expect(ctx.text).toContain("  export const formatMoney = (m, locale): string  L37-38");
    expect(ctx.tokens).toBeLessThanOrEqual(700);
  });

  it("a mentioned path ranks first even when the budget fits only a few outlines", async () => {
    const ctx = await build({ budgetTokens: 400, mentions: ["look at apps/api/src/main.ts please"] });
    expect(ctx.includedFiles[0]).toBe("apps/api/src/main.ts");
    expect(ctx.includedFiles.length).toBeLessThan(PARSED_FILES);
  });

  it("a mentioned folder leans the ranking towards its files", async () => {
    const before = (await build()).rankedFiles;
    const after = (await build({ mentions: ["what does apps/api/src/orders do?"] })).rankedFiles;
    for (const f of ["apps/api/src/orders/order.controller.ts", "apps/api/src/orders/order.service.ts"]) {
      expect(after.indexOf(f)).toBeLessThan(2);
      expect(before.indexOf(f)).toBeGreaterThan(1);
    }
  });

  it("recently changed files move up (absolute or relative paths)", async () => {
    const button = "packages/ui/src/components/Button.tsx";
    const before = (await build()).rankedFiles.indexOf(button);
    for (const recent of [button, path.join(project.root, button)]) {
      expect((await build({ recentFiles: [recent] })).rankedFiles.indexOf(button)).toBeLessThan(before);
    }
  });

  it("is deterministic, with or without the snapshot cache", async () => {
    const opts = { budgetTokens: 700, mentions: ["fix Money.add"], recentFiles: ["config.yaml"] };
    const a = await build(opts);
    const b = await build(opts);
    const cache = new SnapshotCache();
    const c = await build({ ...opts, cache });
    const d = await build({ ...opts, cache });
    expect(b.text).toBe(a.text);
    expect(c.text).toBe(a.text);
    expect(d.text).toBe(a.text);
  });
});

describe("the budget", () => {
  it.each([60, 120, 250, 400, 700, 1000, 2000, 10_000])("never exceeds %i tokens", async (budget) => {
    const ctx = await build({ budgetTokens: budget });
    expect(ctx.tokens).toBeLessThanOrEqual(budget);
    expect(estimateTokens(ctx.text)).toBe(ctx.tokens);
    if (budget >= 250 && budget <= 700) {
      // Fewer outlines, and the rest summarised (a tight budget may only count them on one line).
      expect(ctx.includedFiles.length).toBeGreaterThan(0);
      expect(ctx.includedFiles.length).toBeLessThan(PARSED_FILES);
      const summary = ctx.text.slice(ctx.text.indexOf("## Other files by folder"));
      expect(summary).toMatch(/^## Other files by folder[^\n]*\n./);
      if (ctx.summarisedFolders === 0) expect(summary).toMatch(/\n… \+\d+ more folders? \(\d+ files\)$/);
      if (budget >= 400) expect(ctx.summarisedFolders).toBeGreaterThan(0);
    }
  });

  it("fits more outlines as the budget grows", async () => {
    let previous = -1;
    for (const budget of [150, 300, 500, 800, 1200, 3000]) {
      const n = (await build({ budgetTokens: budget })).includedFiles.length;
      expect(n).toBeGreaterThanOrEqual(previous);
      previous = n;
    }
    expect(previous).toBe(PARSED_FILES);
  });

  it("holds with another estimator (words, not characters)", async () => {
    const words = (text: string) => (text ? text.split(/\s+/).length : 0);
    for (const budget of [40, 90, 200, 500]) {
      const ctx = await build({ budgetTokens: budget, estimateTokens: words });
      expect(words(ctx.text)).toBeLessThanOrEqual(budget);
      expect(ctx.tokens).toBe(words(ctx.text));
    }
  });

  it("rejects a budget that is not a positive integer, a relative root and a bad estimator", async () => {
    for (const budgetTokens of [0, -5, 1.5, Number.NaN]) await expect(build({ budgetTokens })).rejects.toThrow(/budgetTokens must be a positive integer/);
    await expect(build({ root: "relative/root" })).rejects.toThrow(/root must be an absolute path/);
    await expect(build({ estimateTokens: undefined as never })).rejects.toThrow(/estimateTokens must be a function/);
  });
});

describe("project instruction files", () => {
  const agents = () => path.join(project.root, "AGENTS.md");
  const local = () => path.join(project.root, ".ipuaro", "instructions.md");
  afterAll(() => {
    fs.rmSync(agents(), { force: true });
    fs.rmSync(path.dirname(local()), { recursive: true, force: true });
  });

  it("come first, as their own section, and the project map fills the rest", async () => {
    fs.writeFileSync(agents(), "Run tests with `npm test`.\nMoney amounts are integers in cents.\n");
    fs.mkdirSync(path.dirname(local()), { recursive: true });
    fs.writeFileSync(local(), "Prefer small diffs.\n");
    const ctx = await build({ budgetTokens: 1000 });
    expect(ctx.instructions?.files).toEqual(["AGENTS.md", ".ipuaro/instructions.md"]);
    expect(ctx.text.startsWith("## Project instructions (AGENTS.md)\nRun tests with `npm test`.\nMoney amounts are integers in cents.\n\n## Project instructions (.ipuaro/instructions.md)\nPrefer small diffs.\n\n# Project: ")).toBe(true);
    expect(ctx.text).toBe(`${ctx.instructions!.text}\n\n${ctx.projectMap}`);
    expect(ctx.projectMap).not.toContain("Prefer small diffs");
    expect(ctx.tokens).toBeLessThanOrEqual(1000);
  });

  it("a huge AGENTS.md is cut to its share with a note, and the total still fits", async () => {
    fs.writeFileSync(agents(), Array.from({ length: 4000 }, (_, i) => `- rule ${i}: describe the change in the commit body`).join("\n"));
    const ctx = await build({ budgetTokens: 2000 });
    expect(ctx.instructions!.truncated).toEqual(["AGENTS.md"]);
    expect(ctx.instructions!.tokens).toBeLessThanOrEqual(600);
    expect(ctx.text).toMatch(/\[AGENTS\.md truncated to fit the context: \d+ of 4000 lines shown; read the file for the rest\]/);
    expect(ctx.tokens).toBeLessThanOrEqual(2000);
    expect(ctx.includedFiles.length).toBeGreaterThan(0);
  });
});

describe("after a re-index", () => {
  it("a cached snapshot is replaced and the new signature shows", async () => {
    const cache = new SnapshotCache();
    const before = await build({ cache });
    expect(before.text).not.toContain("shout");
    fs.appendFileSync(path.join(project.root, "packages/core/src/utils/strings.ts"), "\nexport function shout(s: string): string {\n  return s.toUpperCase() + '!';\n}\n");
    await project.reindex();
    const after = await build({ cache });
    expect(after.text).toMatch(/ {2}export function shout\(s\): string {2}L\d+-\d+/);
    expect(after.text).not.toContain("toUpperCase");
  });

  it("a watcher-style update (records, then graph, no last_indexed) is seen by a cached build", async () => {
    const cache = new SnapshotCache();
    const file = "packages/ui/src/components/Button.tsx";
    await build({ cache });
    const ast = (await project.store.getAst(file))!;
    ast.functions[0]!.name = "FancyButton";
    const stat = (await project.store.getAllStats()).get(file)!;
    // The watcher writes the file's records first…
    await project.store.writeBatch({ ast: [[file, JSON.stringify(ast)]], stat: [[file, `${stat.size}:${stat.mtimeMs + 1}:${stat.hash}x`]] });
    const afterRecords = await build({ cache });
    expect(afterRecords.text).toContain("export function FancyButton({ label, onClick })");
    // …and the graph just after: the next build still re-reads meta once.
    const meta = (await project.store.getMeta(file))!;
    await project.store.setMetaMany([[file, { ...meta, isEntryPoint: true }]]);
    const afterGraph = await build({ cache });
    expect(afterGraph.text).toMatch(/packages\/ui\/src\/components\/Button\.tsx {2}\[entry point, /);
    expect((await build({ cache })).text).toBe(afterGraph.text);
  });
});
