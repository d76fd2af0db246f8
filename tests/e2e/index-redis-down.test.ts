// Redis dies while `ipuaro index` is storing: the user gets one clear `redis` error and exit code 1, the
// run stops instead of parsing on, and nothing crashes (no stack trace, no abort from a worker thread).
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateMonorepo } from "../../bench/generate/generate-monorepo.js";
import { runIpuaro } from "../helpers/cli.js";
import { startRedisServer, type TestRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

let root = "";
let home = "";
let server: TestRedisServer;

beforeAll(async () => {
  root = makeTempDir("ipuaro-redis-down-");
  home = makeTempDir("ipuaro-redis-down-home-");
  // Big enough that the run is still parsing when its first writes land.
  await generateMonorepo({ files: 2500, out: root, seed: 11 });
  server = await startRedisServer();
}, 120_000);
afterAll(async () => {
  await server.stop();
  removeDir(root);
  removeDir(home);
});

it("Redis killed during a run: one clear redis error, exit 1, no crash", async () => {
  const watcher = new Redis({ path: server.socket, maxRetriesPerRequest: 0 });
  watcher.on("error", () => {}); // it sees the kill too
  const project = `${path.basename(path.dirname(root))}-${path.basename(root)}`;
  let killedWhenFiles = -1;
  // Kill the server as soon as the run has stored its first files.
  const killer = (async () => {
    for (;;) {
      const stored = await watcher.hlen(`project:{${project}}:files`).catch(() => -1);
      if (stored > 0) {
        killedWhenFiles = stored;
        await server.kill("SIGKILL");
        watcher.disconnect();
        return;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const run = await runIpuaro(["index", root, "--yes", "--json"], { env: { IPUARO_REDIS_URL: server.url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") }, timeoutMs: 120_000 });
  await killer;

  expect(killedWhenFiles).toBeGreaterThan(0);
  expect(run.code, run.stderr).toBe(1);
  // With --json, stdout holds only the failure as one JSON object (no half-written result).
  expect(JSON.parse(run.stdout)).toMatchObject({ error: { type: "redis", message: expect.stringContaining("Lost connection to Redis") } });
  expect(run.stderr).toMatch(/^ipuaro: redis error: Lost connection to Redis at .* while writing an index batch/m);
  expect(run.stderr).toContain(server.socket);
  expect(run.stderr).toMatch(/ECONNREFUSED|ENOENT/); // why, in the socket's words, not the client's retry limit
  expect(run.stderr).not.toContain("maxRetriesPerRequest");
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(run.stderr).not.toMatch(/terminate called|Napi::Error|Unhandled/);
});
