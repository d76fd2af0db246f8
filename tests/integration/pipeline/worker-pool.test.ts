// One AbortSignal may cover every task of a run (hundreds). Aborting it drops the tasks still queued at
// once (a user who cancels should not wait for them), lets the started ones finish before they reject,
// and leaves the pool ready for the next run; the signal carries one listener, not one per task.
import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createIndexWorkerPool, type IndexWorkerPool } from "../../../src/pipeline/worker-pool.js";
import type { IndexTask } from "../../../src/workers/protocol.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

let root: string;
let pool: IndexWorkerPool;
const task = (paths: string[]): IndexTask => ({ root, paths, binaryExtensions: [], mode: "parse-only" });

beforeAll(() => {
  root = makeTempDir();
  const tree: Record<string, string> = {};
  for (let i = 0; i < 40; i++) tree[`src/f${i}.ts`] = `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`.repeat(40);
  writeTree(root, tree);
  pool = createIndexWorkerPool(2);
});
afterAll(async () => {
  await pool.destroy();
  removeDir(root);
});

it("drops the queued tasks of an aborted signal at once and stays usable", async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on("warning", onWarning);
  try {
    const stop = new AbortController();
    const runs = Array.from({ length: 60 }, (_, i) => pool.run(task([`src/f${i % 40}.ts`]), stop.signal));
    const outcomes = runs.map((r) => r.then(() => "done", (e: Error) => e.message));
    // Two tasks wait at each thread; the rest wait in the pool's queue.
    expect(pool.queued).toBe(60 - 2 * pool.size);
    stop.abort(new Error("cancelled by the user"));
    expect(pool.queued).toBe(0);
    // The queued ones reject at once; the started ones finish, then reject too.
    expect(await Promise.all(outcomes)).toEqual(Array.from({ length: 60 }, () => "cancelled by the user"));
    expect(await pool.run(task(["src/f1.ts"]))).toMatchObject({ bytes: expect.any(Number) });
    await new Promise((r) => setImmediate(r));
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  } finally {
    process.off("warning", onWarning);
  }
});

it("a background pool (the UI's) runs its threads at a lower priority than the main thread; the default does not", async () => {
  const niceOf = (tid: number) => Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
  const background = createIndexWorkerPool(1, { niceness: 5 });
  try {
    await background.run(task(["src/f1.ts"]));
    const [tid] = [...background.threadIds];
    expect(tid).toBeDefined();
    expect(niceOf(tid!)).toBe(5);
  } finally {
    await background.destroy();
  }
  await pool.run(task(["src/f2.ts"]));
  for (const tid of pool.threadIds) expect(niceOf(tid)).toBe(0);
});
