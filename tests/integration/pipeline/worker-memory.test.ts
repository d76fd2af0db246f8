// A long session (watcher, TUI) keeps one worker pool and sends it file after file. tree-sitter frees a
// parsed tree only in a finalizer on the worker's event loop, so the pool must let that loop turn:
// otherwise every tree ever parsed stays in memory (measured: ~1.3 GB per 12K files, never returned).
import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateMonorepo } from "../../../bench/generate/generate-monorepo.js";
import { runParseOnly, warmPool } from "../../../src/pipeline/parse-baseline.js";
import { createIndexWorkerPool, type IndexWorkerPool } from "../../../src/pipeline/worker-pool.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

let root: string;
let pool: IndexWorkerPool;
let paths: string[];

beforeAll(async () => {
  root = makeTempDir();
  await generateMonorepo({ files: 1500, out: root, seed: 7 });
  paths = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.(ts|tsx|js)$/.test(f) && !f.includes("node_modules/") && !f.includes("big-table"));
  pool = createIndexWorkerPool(2);
  await warmPool(pool, root);
}, 120_000);

afterAll(async () => {
  await pool.destroy();
  removeDir(root);
});

it("parsing the same files again and again does not grow the process's memory", async () => {
  const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
  // Two passes let the allocator and the heaps reach their working size.
  for (let run = 0; run < 2; run++) await runParseOnly(root, paths, pool, []);
  const settled = rssMb();
  const seen: number[] = [];
  for (let run = 0; run < 4; run++) {
    await runParseOnly(root, paths, pool, []);
    seen.push(Math.round(rssMb() - settled));
  }
  // With parsed trees kept alive, each pass over these ~1,300 files adds ~600 MB.
  expect(Math.max(...seen), `growth after each pass: ${seen.join(", ")} MB`).toBeLessThan(250);
}, 120_000);

it("indexes a 10-million-character file holding a few pieces' trees at a time, not the whole file's", async () => {
  // 107K generated functions. Parsed whole, its tree (≈ 45 bytes a character) and declaration mirror took
  // this process ≈ 1.1 GB more; in pieces, with their trees freed as the file is read, ≈ 0.5 GB.
  const dir = makeTempDir();
  const own = createIndexWorkerPool(1);
  try {
    const lines: string[] = [];
    let length = 0;
    let count = 0;
    while (length < 10_000_000) {
      const fn = `export function fn${count}(a: number, b: string): string {\n  return b.repeat(a) + helper${count % 7}(a);\n}\n`;
      lines.push(fn);
      length += fn.length;
      count++;
    }
    fs.writeFileSync(`${dir}/generated.ts`, lines.join(""));
    await warmPool(own, dir);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const result = await own.run({ root: dir, paths: ["generated.ts"], binaryExtensions: [], mode: "index" }).finally(() => clearInterval(sampler));
    const record = result.records[0]!;
    expect(record.kind).toBe("text");
    const ast = JSON.parse((record as { astJson: string }).astJson) as { functions: { name: string; lineStart: number }[]; parseError: boolean };
    expect(ast.parseError).toBe(false);
    expect(ast.functions).toHaveLength(count);
    expect(ast.functions.at(-1)).toEqual(expect.objectContaining({ name: `fn${count - 1}`, lineStart: 3 * count - 2 }));
    const grownMb = Math.round((peak - before) / 1024 / 1024);
    expect(grownMb, `peak growth ${grownMb} MB`).toBeLessThan(800);
  } finally {
    await own.destroy();
    removeDir(dir);
  }
}, 120_000);

it("ending a busy pool lets the running task finish, drops the queued ones, and the process lives on", async () => {
  const busy = createIndexWorkerPool(1);
  await warmPool(busy, root);
  // Ending a thread inside tree-sitter aborts the whole process ("terminate called after throwing an
  // instance of 'Napi::Error'"), which would take this test runner down with it.
  const running = Promise.all(Array.from({ length: 4 }, () => runParseOnly(root, paths, busy, []))).catch((e: Error) => e);
  await new Promise((r) => setTimeout(r, 150));
  await busy.destroy();
  expect(await running).toBeInstanceOf(Error);
  await expect(busy.run({ root, paths: [], binaryExtensions: [], mode: "parse-only" })).rejects.toThrow(/closed/);
}, 60_000);

it("cancelling drops the tasks still queued; the ones handed to the thread finish and are rejected", async () => {
  const own = createIndexWorkerPool(1);
  try {
    await warmPool(own, root);
    const stop = new AbortController();
    const task = { root, paths: paths.slice(0, 300), binaryExtensions: [], mode: "parse-only" as const };
    // Two go to the thread at once; the third waits in the pool's queue.
    const runs = [own.run(task, stop.signal), own.run(task, stop.signal), own.run(task, stop.signal)];
    const outcomes = Promise.allSettled(runs);
    expect(own.queued).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    stop.abort(new Error("stop"));
    expect(own.queued).toBe(0);
    expect((await outcomes).map((o) => (o.status === "rejected" ? (o.reason as Error).message : "resolved"))).toEqual(["stop", "stop", "stop"]);
    // The thread was not ended: it takes the next task.
    expect((await own.run({ root, paths: paths.slice(0, 5), binaryExtensions: [], mode: "parse-only" })).bytes).toBeGreaterThan(0);
  } finally {
    await own.destroy();
  }
}, 60_000);

it("keeps a thread's next task waiting at the thread, and refills it before the caller handles a result", async () => {
  const own = createIndexWorkerPool(1);
  try {
    await warmPool(own, root);
    const task = { root, paths: paths.slice(0, 5), binaryExtensions: [], mode: "parse-only" as const };
    let queuedWhenFirstArrived = -1;
    const first = own.run(task).then(() => (queuedWhenFirstArrived = own.queued));
    // Two go to the thread at once (the next waits in its port); the rest wait here.
    const rest = [own.run(task), own.run(task), own.run(task)];
    expect(own.queued).toBe(2);
    await Promise.all([first, ...rest]);
    // The thread got its refill before the caller saw the result: the caller's handling of a result
    // (graph, Redis writes) must not keep the thread idle.
    expect(queuedWhenFirstArrived).toBe(1);
  } finally {
    await own.destroy();
  }
}, 60_000);
