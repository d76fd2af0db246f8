import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILES_PER_TASK } from "../../../src/pipeline/index-pipeline.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import type { BatchSummary } from "../../../src/pipeline/watch/live-index.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { liveIndexServices, SETTLE_FROM_PATHS } from "../../../src/ui/runtime/live-index-services.js";
import { closeWatched, openWatchedAcmeShop, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => void ({ project, w } = await openWatchedAcmeShop(server().url)));
afterAll(() => closeWatched(project, w));

describe("live index: who changed a file", () => {
  it("a write registered beforehand is ipuaro's; one with other content is external", async () => {
    const rel = "packages/core/src/logger.ts";
    const mine = "export default class Logger {\n  log(): void {}\n}\n";
    const from = w.events.length;
    await w.watcher.ownWrites.registerContent(rel, mine);
    w.write(rel, mine);
    expect(await w.waitUpdate((e) => e.path === rel, from)).toMatchObject({ type: "updated", origin: "ipuaro", hash: await hashContent(mine) });
    expect(w.watcher.ownWrites.size).toBe(0); // consumed

    const next = w.events.length;
    await w.watcher.ownWrites.registerContent(rel, "export const planned = 1;\n");
    w.write(rel, "export const typedByAHuman = 1;\n"); // someone else got there first
    expect(await w.waitUpdate((e) => e.path === rel, next)).toMatchObject({ origin: "external" });
  });

  it("a registered delete is ipuaro's", async () => {
    const rel = "scripts/release.cjs";
    const from = w.events.length;
    w.watcher.ownWrites.register(rel, null);
    w.remove(rel);
    expect(await w.waitUpdate((e) => e.path === rel, from)).toMatchObject({ type: "deleted", origin: "ipuaro" });
  });
});

describe("live index: a burst", () => {
  const N = 1000;
  const rels = Array.from({ length: N }, (_, i) => `packages/gen/src/m${String(i).padStart(4, "0")}.ts`);

  it(`${N} files created at once are indexed in one or very few batches`, async () => {
    const from = w.events.length;
    for (const [i, rel] of rels.entries()) {
      const prev = i > 0 ? `import { f${i - 1} } from "./m${String(i - 1).padStart(4, "0")}";\n` : "";
      w.write(rel, `${prev}export function f${i}(): number {\n  return ${i};\n}\n`);
    }
    await w.waitIndexed(rels[N - 1] as string);
    await waitFor("all files indexed", async () => (await project.redis.hmget(w.key("stat"), ...rels)).every((v) => v !== null));
    await w.watcher.idle();
    const batches = w.events.slice(from).filter((e): e is BatchSummary => e.type === "batch");
    expect(batches.length).toBeLessThanOrEqual(3);
    expect(batches.reduce((n, b) => n + b.parsed, 0)).toBe(N);
    expect((await project.store.getMeta(rels[0] as string))?.dependents).toEqual([rels[1]]);
    // Each batch was announced as it started (the TUI shows "updating N files"), with the paths the events named.
    const seen = w.events.slice(from).map((e) => e.type);
    expect(seen.filter((t) => t === "updating")).toHaveLength(batches.length);
    expect(seen.indexOf("updating")).toBeLessThan(seen.indexOf("batch"));
    expect(w.watcher.backlog).toBe(0);
  });

  it("an index tool asked right after a file was saved answers from the saved file", async () => {
    const services = liveIndexServices(project.indexer, () => w.watcher);
    const rel = "packages/core/src/money.ts";
    const saved = `// five\n// new\n// lines\n// at the\n// top\n${fs.readFileSync(path.join(project.root, rel), "utf8")}`;
    w.write(rel, saved);
    await waitFor("the save seen", () => w.watcher.backlog > 0);
    expect(await services.indexSettled!()).toEqual({ settled: true, backlog: 0 });
    expect(await w.indexedHash(rel)).toBe(await hashContent(saved));
  });

  it("an index tool asked mid-burst waits until the index has taken the burst in", async () => {
    const services = liveIndexServices(project.indexer, () => w.watcher);
    // Into a folder already watched: one event per file, as a branch switch gives.
    const more = Array.from({ length: 300 }, (_, i) => `packages/gen/src/n${i}.ts`);
    for (const [i, rel] of more.entries()) w.write(rel, `export const n${i} = ${i};\n`);
    await waitFor("the burst seen", () => w.watcher.backlog >= SETTLE_FROM_PATHS);
    const settled = await services.indexSettled!();
    expect(settled).toEqual({ settled: true, backlog: 0 });
    expect((await project.redis.hmget(w.key("stat"), ...more)).every((v) => v !== null)).toBe(true);
  });

  it(`${N} files changed at once: every hash right afterwards, few batches, worker tasks of ~${FILES_PER_TASK} files`, async () => {
    const from = w.events.length;
    // A spy on the real pool (it still runs every task): how the batch was cut into worker tasks.
    const pool = project.indexer.pool;
    const run = pool.run.bind(pool);
    const taskSizes: number[] = [];
    pool.run = (task, signal) => {
      taskSizes.push(task.paths.length);
      return run(task, signal);
    };
    for (const [i, rel] of rels.entries()) fs.appendFileSync(path.join(project.root, rel), `export const changed${i} = ${i};\n`);
    const last = rels[N - 1] as string;
    await w.waitIndexed(last);
    await w.watcher.idle();
    const stored = await project.redis.hmget(w.key("stat"), ...rels);
    const expected = await Promise.all(rels.map(async (rel) => hashContent(fs.readFileSync(path.join(project.root, rel)))));
    await waitFor("every hash to match", async () => {
      const now = await project.redis.hmget(w.key("stat"), ...rels);
      return now.every((v, i) => v?.endsWith(`:${expected[i]}`));
    });
    pool.run = run;
    expect(stored.length).toBe(N);
    expect(Math.max(...taskSizes)).toBeLessThanOrEqual(FILES_PER_TASK);
    expect(taskSizes.length).toBeLessThanOrEqual(Math.ceil(N / FILES_PER_TASK) + 3);
    expect(taskSizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(N);
    const batches = w.events.slice(from).filter((e): e is BatchSummary => e.type === "batch");
    expect(batches.length).toBeLessThanOrEqual(3);
    expect(batches.reduce((n, b) => n + b.parsed, 0)).toBe(N);
    expect(JSON.parse((await project.redis.hget(w.key("indexes"), "sym:changed999")) ?? "[]")).toEqual([expect.objectContaining({ path: last })]);
  });

  it(`${N} files deleted at once (rm -r of their folder) leave the index and the graph`, async () => {
    fs.rmSync(path.join(project.root, "packages/gen"), { recursive: true });
    await waitFor("all gone", async () => (await project.redis.hmget(w.key("stat"), ...rels)).every((v) => v === null));
    await w.watcher.idle();
    expect(await project.redis.hget(w.key("indexes"), "sym:f0")).toBeNull();
    expect((await project.store.listPaths()).filter((p) => p.startsWith("packages/gen/"))).toEqual([]);
  });
});
