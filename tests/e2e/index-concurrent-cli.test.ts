// Two `ipuaro index` runs of one project at once (two terminals, or a script and a person): the later
// one waits for the other and then finds nothing to parse. Each used to re-parse every file.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { projectIndexLeaseKey } from "../../src/main/store/keys.js";
import { runIpuaro } from "../helpers/cli.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

// A stand-in holder cannot renew its lease as a live one does: it holds it for longer than any test
// here takes, however loaded the machine (the tests delete it when done).
const HELD_MS = 600_000;

const server = useRedisServer();
let root = "";
let home = "";
let redis: Redis;
let other: ChildProcess;

beforeAll(() => {
  root = buildAcmeShop();
  home = makeTempDir("ipuaro-concurrent-home-");
  redis = new Redis({ path: server().socket });
  other = spawn("sleep", ["600"], { stdio: "ignore" });
});
afterAll(() => {
  other.kill();
  redis.disconnect();
  removeDir(root);
  removeDir(home);
});

it("two index runs at once: one parses, the other waits for it, says so, and parses nothing", async () => {
  const env = { IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") };
  const key = projectIndexLeaseKey(`${path.basename(path.dirname(root))}-${path.basename(root)}`);
  // A third run holds the project first, so both are surely waiting before either starts.
  await redis.set(key, JSON.stringify({ pid: other.pid, host: os.hostname(), since: Date.now(), what: "ipuaro index", token: "first" }), "PX", HELD_MS);
  const saidWaiting: Array<() => void> = [];
  const waited = [0, 1].map((i) => new Promise<void>((resolve) => (saidWaiting[i] = resolve)));
  const runs = [0, 1].map((i) =>
    runIpuaro(["index", root, "--json", "--yes"], {
      env,
      timeoutMs: 120_000,
      onStderr: (text) => text.includes(`waiting for ipuaro index (pid ${other.pid}`) && saidWaiting[i]!(),
    }),
  );
  await Promise.all(waited);
  await redis.del(key);
  const results = await Promise.all(runs);
  for (const r of results) expect(r.code, r.stderr).toBe(0);
  const parsed = results.map((r) => (JSON.parse(r.stdout) as { parsed: number; files: number }).parsed).sort((a, b) => a - b);
  expect(parsed[0]).toBe(0);
  expect(parsed[1]).toBeGreaterThan(10);
  // The one that parsed nothing waited for the one that parsed, and was told who that was.
  const later = results.find((r) => (JSON.parse(r.stdout) as { parsed: number }).parsed === 0)!;
  expect(later.stderr).toMatch(/waiting for ipuaro index \(pid \d+, since \d\d:\d\d\) to finish indexing this project…/);
  expect(await redis.exists(key)).toBe(0);
}, 150_000);
