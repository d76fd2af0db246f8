// `ipuaro index` parses the first files while the walk is still going (walk-ahead.ts). Those early
// results are held until the walk ends: a declined run stores nothing, and a file the walk's final layout
// types differently (an import of a package the root's workspaces did not list) is parsed again.
import { afterEach, describe, expect, it } from "vitest";
import { projectKey } from "../../../src/main/store/keys.js";
import type { FileAST } from "../../../src/workers/ast-types.js";
import { typedDifferently, WalkAhead } from "../../../src/pipeline/walk-ahead.js";
import type { RunningScan, ScannedEntry } from "../../../src/pipeline/scanner.js";
import type { IndexTaskResult } from "../../../src/workers/protocol.js";
import { openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let project: IndexedProject | null = null;
afterEach(async () => {
  await project?.close();
  if (project) removeDir(project.root);
  project = null;
});

/**
 * A workspace monorepo of well over one task's worth of files. `apps/cli` (walked first) imports
 * `@acme/gen`, a package the root's `workspaces` leave out, so only the walk finds its package.json.
 */
function monorepo(): Record<string, string> {
  const tree: Record<string, string> = {
    "package.json": JSON.stringify({ name: "acme", private: true, workspaces: ["packages/*"] }),
    "apps/cli/main.ts": 'import { generate } from "@acme/gen";\nimport chalk from "chalk";\nexport function main(): string {\n  return generate(chalk.name);\n}\n',
    "packages/core/package.json": JSON.stringify({ name: "@acme/core", main: "src/index.ts" }),
    "packages/core/src/index.ts": 'export * from "./money";\n',
    "packages/core/src/money.ts": "export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n",
    "tools/gen/package.json": JSON.stringify({ name: "@acme/gen", main: "index.ts" }),
    "tools/gen/index.ts": "export function generate(name: string): string {\n  return `// ${name}`;\n}\n",
  };
  for (let i = 0; i < 150; i++) tree[`apps/cli/commands/c${String(i).padStart(3, "0")}.ts`] = `import { total } from "@acme/core";\nexport const c${i} = total([${i}, 1]);\n`;
  return tree;
}

async function open(tree: Record<string, string>): Promise<IndexedProject> {
  const root = makeTempDir();
  writeTree(root, tree);
  project = await openIndexedProject(root, server().url);
  return project;
}

describe("indexing while the walk goes on", () => {
  it("asks before storing anything, and a declined run leaves the index empty", async () => {
    const p = await open(monorepo());
    let asked = -1;
    const stats = await p.indexer.scanAndIndex({ proceed: (found) => ((asked = found), false) });
    expect(stats).toBeNull();
    expect(asked).toBe(Object.keys(monorepo()).length);
    expect(await p.redis.exists(projectKey(p.store.projectName, "files"), projectKey(p.store.projectName, "ast"))).toBe(0);
  });

  it("stores what indexing a finished walk stores, with the import of a package only the walk found typed internal", async () => {
    const p = await open(monorepo());
    const stats = await p.indexer.scanAndIndex({ proceed: () => true });
    expect(stats).toMatchObject({ files: Object.keys(monorepo()).length, parsed: Object.keys(monorepo()).length });
    const ast = JSON.parse((await p.redis.hget(projectKey(p.store.projectName, "ast"), "apps/cli/main.ts")) as string) as FileAST;
    expect(Object.fromEntries(ast.imports.map((i) => [i.from, i.type]))).toEqual({ "@acme/gen": "internal", chalk: "external" });
    const meta = JSON.parse((await p.redis.hget(projectKey(p.store.projectName, "meta"), "apps/cli/main.ts")) as string) as { dependencies: string[] };
    expect(meta.dependencies).toEqual(["tools/gen/index.ts"]);
    // The call through the late-found package is kept and resolved like any internal one.
    const calls = JSON.parse((await p.redis.hget(projectKey(p.store.projectName, "indexes"), "calls:apps/cli/main.ts")) as string) as { callee: string; target?: string }[];
    expect(calls.find((c) => c.callee === "generate")?.target).toBe("tools/gen/index.ts#generate");
    // A second run over the same files parses nothing.
    expect(await p.indexer.scanAndIndex()).toMatchObject({ parsed: 0, unchanged: Object.keys(monorepo()).length });
  });

  it("leaves the time the question waited for an answer out of the run's time", async () => {
    const p = await open(monorepo());
    const started = performance.now();
    const stats = await p.indexer.scanAndIndex({ proceed: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1500)) });
    const wall = (performance.now() - started) / 1000;
    expect(wall).toBeGreaterThan(1.5);
    expect(stats?.totalSeconds).toBeLessThan(wall - 1.4);
    expect(stats?.totalSeconds).toBeGreaterThan(0);
  });

  it("hands its early tasks over once, so the run can let each result go once it is stored", async () => {
    const entries: ScannedEntry[] = Array.from({ length: 6 }, (_, i) => ({ path: `src/f${i}.ts`, kind: "file" }));
    const walk: RunningScan = { entries, onFound: () => {}, done: new Promise(() => {}) };
    const ran: string[][] = [];
    const run = async (group: string[]): Promise<IndexTaskResult> => {
      ran.push(group);
      return { records: [], timings: { readHash: 0, parse: 0, serialise: 0 }, bytes: 0 };
    };
    const layout = { exact: [], prefixes: [] };
    const ahead = new WalkAhead(walk, 3, layout, run, 4);
    ahead.start();
    const first = ahead.settle(layout);
    expect(first.map((t) => t.group)).toEqual([
      ["src/f0.ts", "src/f1.ts", "src/f2.ts"],
      ["src/f3.ts", "src/f4.ts", "src/f5.ts"],
    ]);
    expect(ahead.entriesTaken).toBe(6);
    expect(ahead.settle(layout)).toEqual([]);
    await Promise.all(first.map((t) => t.result));
    expect(ran).toHaveLength(2);
  });

  it("keeps no more early tasks out than the pool runs at once, and starts none after the walk", async () => {
    const entries: ScannedEntry[] = [];
    let finish: () => void = () => {};
    const walk: RunningScan = { entries, onFound: () => {}, done: new Promise((resolve) => (finish = () => resolve({ scan: { entries, ignored: 0, unsupported: 0, unreadable: [], badNames: [] }, walkSeconds: 0 }))) };
    const started: string[][] = [];
    const answers: (() => void)[] = [];
    const run = (group: string[]) =>
      new Promise<IndexTaskResult>((resolve) => {
        started.push(group);
        answers.push(() => resolve({ records: [], timings: { readHash: 0, parse: 0, serialise: 0 }, bytes: 0 }));
      });
    const ahead = new WalkAhead(walk, 2, { exact: [], prefixes: [] }, run, 2);
    for (let i = 0; i < 10; i++) entries.push({ path: `src/f${i}.ts`, kind: "file" });
    ahead.start();
    expect(started).toHaveLength(2);
    (answers.shift() as () => void)();
    await new Promise((r) => setImmediate(r));
    // One slot freed, one more task: the rest of the files wait for the walk's final layout.
    expect(started).toHaveLength(3);
    finish();
    await new Promise((r) => setImmediate(r));
    for (const answer of answers.splice(0)) answer();
    await new Promise((r) => setImmediate(r));
    expect(started).toHaveLength(3);
    expect(ahead.entriesTaken).toBe(6);
  });

  it("tells which task results a change of layout affects", () => {
    const record = (imports: string[]) => ({
      records: [
        {
          path: "a.ts",
          kind: "text" as const,
          size: 1,
          mtimeMs: 1,
          hash: "0",
          language: "typescript" as const,
          parseError: false,
          complexity: { loc: 1, nesting: 0, imports: imports.length, score: 1 },
          fileJson: "{}",
          astJson: "{}",
          factsJson: JSON.stringify({ facts: { imports: imports.map((from) => ({ from, name: "x" })), exports: [], symbols: [], calls: [] }, complexity: {} }),
        },
      ],
      timings: { readHash: 0, parse: 0, serialise: 0 },
      bytes: 1,
    });
    const predicted = { exact: ["@acme/core"], prefixes: ["@acme/core/"] };
    const walked = { exact: ["@acme/core", "@acme/gen"], prefixes: ["@acme/core/", "@acme/gen/", "@/"] };
    expect(typedDifferently(record(["@acme/core", "react", "./x"]), predicted, walked)).toBe(false);
    expect(typedDifferently(record(["@acme/gen/cli"]), predicted, walked)).toBe(true);
    expect(typedDifferently(record(["@/utils"]), predicted, walked)).toBe(true);
  });
});
