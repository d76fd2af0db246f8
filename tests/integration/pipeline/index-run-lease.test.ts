// One index run of a project at a time: a run waits while another live process holds the project's
// index-run lease (real Redis; the other process is a real child that stays alive), says who for, and
// starts when it is let go. Two runs at once each re-parsed every file.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { IndexProgress } from "../../../src/pipeline/index-pipeline.js";
import { projectIndexLeaseKey } from "../../../src/main/store/keys.js";
import { LEASE_TTL_MS } from "../../../src/main/store/redis-lease.js";
import { openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let other: ChildProcess;
let project: IndexedProject;

beforeAll(() => void (other = spawn("sleep", ["600"], { stdio: "ignore" })));
afterAll(() => void other.kill());
beforeEach(async () => {
  const root = makeTempDir("ipuaro-run-lease-");
  writeTree(root, { "package.json": '{"name":"leased"}', "src/a.ts": "export const a = 1;\n", "src/b.ts": "import { a } from './a';\nexport const b = a + 1;\n" });
  project = await openIndexedProject(root, server().url);
  await project.redis.flushall();
});
afterEach(async () => {
  await project.close();
  removeDir(project.root);
});

const key = () => projectIndexLeaseKey(project.store.projectName);
const holdAs = (pid: number) =>
  project.redis.set(key(), JSON.stringify({ pid, host: os.hostname(), since: Date.parse("2026-12-01T14:05:00Z"), what: "ipuaro index", token: "theirs" }), "PX", LEASE_TTL_MS);

/** Runs an index, recording its progress events. */
function indexWatching(signal?: AbortSignal) {
  const events: IndexProgress[] = [];
  let settled = false;
  const run = project.indexer.scan().then((timed) => project.indexer.index(timed, (p) => events.push(p), signal));
  void run.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { events, run, settled: () => settled };
}

describe("the index-run lease", () => {
  it("a run waits for another live process's run, says who for once, and starts when it ends", async () => {
    await holdAs(other.pid!);
    const r = indexWatching();
    await new Promise((done) => setTimeout(done, 800));
    expect(r.settled()).toBe(false);
    expect(await project.store.fileCount()).toBe(0);
    const waits = r.events.filter((e) => e.phase === "waiting");
    expect(waits).toHaveLength(1);
    expect(waits[0]!.holder).toMatch(new RegExp(`^ipuaro index \\(pid ${other.pid}, since \\d\\d:\\d\\d\\)$`));
    await project.redis.del(key());
    const stats = await r.run;
    expect(stats.parsed).toBe(3);
    // Its own lease was held for the run and let go after it.
    expect(await project.redis.exists(key())).toBe(0);
  });

  it("holds the lease while it runs, under what runs it", async () => {
    const seen: string[] = [];
    const timed = await project.indexer.scan();
    await project.indexer.index(timed, (p) => {
      if (p.phase === "index") void project.redis.get(key()).then((v) => v && seen.push(v));
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.parse(seen[0]!)).toMatchObject({ pid: process.pid, what: "ipuaro" });
  });

  it("a lease left by a dead process is taken over at once", async () => {
    const dead = spawn("true");
    await new Promise((done) => dead.on("exit", done));
    await holdAs(dead.pid!);
    const r = indexWatching();
    expect((await r.run).parsed).toBe(3);
    expect(r.events.some((e) => e.phase === "waiting")).toBe(false);
  });

  it("Ctrl+C while waiting ends the run with nothing stored", async () => {
    await holdAs(other.pid!);
    const stop = new AbortController();
    const r = indexWatching(stop.signal);
    await new Promise((done) => setTimeout(done, 400));
    stop.abort(new Error("interrupted by the user"));
    await expect(r.run).rejects.toThrow("interrupted by the user");
    expect(await project.store.fileCount()).toBe(0);
    expect(JSON.parse((await project.redis.get(key()))!)).toMatchObject({ pid: other.pid });
  });
});
