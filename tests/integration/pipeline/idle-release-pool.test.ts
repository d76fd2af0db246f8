// The UI's pool lets its threads go once idle and starts new ones for the next task: real worker
// threads (their count read from /proc), real parse tasks, a short idle time.
import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { releasedWhenIdle } from "../../../src/pipeline/idle-release-pool.js";
import { createIndexWorkerPool, TASKS_PER_THREAD, type IndexWorkerPool } from "../../../src/pipeline/worker-pool.js";
import type { IndexTask } from "../../../src/workers/protocol.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const IDLE_MS = 300;
let root: string;
const task = (path: string): IndexTask => ({ root, paths: [path], binaryExtensions: [], mode: "parse-only" });
const threads = () => fs.readdirSync("/proc/self/task").length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  root = makeTempDir();
  writeTree(root, { "src/a.ts": "export function a(x: number): number {\n  return x;\n}\n" });
});
afterAll(() => removeDir(root));

it("ends its threads after the idle time, runs the next task on new ones, and reports each release", async () => {
  let created = 0;
  let released = 0;
  const pool: IndexWorkerPool = releasedWhenIdle(
    () => {
      created++;
      return createIndexWorkerPool(2);
    },
    { size: 2, capacity: 2 * TASKS_PER_THREAD },
    IDLE_MS,
    () => released++,
  );
  try {
    const before = threads();
    expect(created).toBe(0); // nothing starts before the first task
    expect(await pool.run(task("src/a.ts"))).toMatchObject({ bytes: expect.any(Number) });
    expect(created).toBe(1);
    expect(threads()).toBeGreaterThanOrEqual(before + 2);
    // Busy again before the idle time is up: the same threads.
    await sleep(IDLE_MS / 3);
    await pool.run(task("src/a.ts"));
    expect(created).toBe(1);
    await sleep(IDLE_MS * 2 + 500);
    expect(released).toBe(1);
    expect(threads()).toBeLessThanOrEqual(before);
    // The next change starts new threads.
    expect(await pool.run(task("src/a.ts"))).toMatchObject({ bytes: expect.any(Number) });
    expect(created).toBe(2);
  } finally {
    await pool.destroy();
  }
  await expect(pool.run(task("src/a.ts"))).rejects.toThrow("the worker pool is closed");
}, 30_000);

it("a task that comes while the threads are being let go waits for that, then runs", async () => {
  let created = 0;
  const pool = releasedWhenIdle(() => (created++, createIndexWorkerPool(1)), { size: 1, capacity: TASKS_PER_THREAD }, 50);
  try {
    await pool.run(task("src/a.ts"));
    // Lands in the middle of the release more often than not; either way it must run.
    await sleep(60);
    expect(await pool.run(task("src/a.ts"))).toMatchObject({ bytes: expect.any(Number) });
    expect(created).toBe(2);
  } finally {
    await pool.destroy();
  }
}, 30_000);
