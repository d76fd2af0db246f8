// Redis killed while the watcher runs: failed writes become error events (never a crash), stay queued,
// and land once a server answers on the same socket again.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/main/config/loader.js";
import { isIpuaroError } from "../../../src/main/errors.js";
import { ProjectIndexer } from "../../../src/main/indexing/project-indexer.js";
import { ProjectWatcher, type ProjectWatchEvent } from "../../../src/main/indexing/project-watcher.js";
import { closeRedis, connectRedis, type Redis } from "../../../src/main/store/index.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { decodeStat } from "../../../src/pipeline/index-store-port.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { probeRedisSocket } from "../../../src/main/store/socket-probe.js";
import { buildAcmeShop } from "../../helpers/indexed-project.js";
import { startRedisServer, type TestRedisServer } from "../../helpers/redis-server.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { TEST_DEBOUNCE_MS, waitFor } from "./watch-harness.js";

let server: TestRedisServer;
let revived: ChildProcess | null = null;
let root: string;
let redis: Redis;
let indexer: ProjectIndexer;
let watcher: ProjectWatcher;
const events: ProjectWatchEvent[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  root = buildAcmeShop();
  const { config } = loadConfig({ projectRoot: root, env: { IPUARO_REDIS_URL: server.url, XDG_CONFIG_HOME: path.join(root, ".no-user-config") } });
  config.indexing.workers = 2;
  // The application's own connection settings: fail fast, give up after a few seconds, reconnect on demand.
  redis = await connectRedis({ url: server.url });
  const store = ProjectStore.forRoot(redis, root);
  indexer = new ProjectIndexer(root, config, store);
  await indexer.index(await indexer.scan());
  watcher = new ProjectWatcher({ indexer, redis, debounceMs: TEST_DEBOUNCE_MS });
  watcher.on((e) => events.push(e));
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
  await indexer?.close();
  await closeRedis(redis);
  revived?.kill("SIGKILL");
  await server?.stop();
  removeDir(root);
});

async function indexedHash(rel: string): Promise<string | null> {
  const raw = await redis.hget(`project:{${indexer.store.projectName}}:stat`, rel);
  return raw === null ? null : (decodeStat(raw)?.hash ?? null);
}

describe("Redis stopped mid-watch", () => {
  it("reports typed errors, keeps running, and lands the queued writes once Redis is back", async () => {
    const a = "packages/core/src/money.ts";
    const b = "apps/api/src/main.ts";
    await server.kill("SIGKILL");
    fs.appendFileSync(path.join(root, a), "\nexport const whileDown = 1;\n");
    const error = await waitFor("an error event", () => events.find((e) => e.type === "error"));
    expect(error.type === "error" && isIpuaroError(error.error, "redis")).toBe(true);
    fs.appendFileSync(path.join(root, b), "\n// also while down\n");
    await waitFor("a second failed attempt", () => events.filter((e) => e.type === "error").length >= 2);

    // A fresh server on the same socket: empty, so whatever it holds afterwards was replayed.
    fs.rmSync(server.socket, { force: true });
    revived = spawn("redis-server", ["--port", "0", "--unixsocket", server.socket, "--save", "", "--appendonly", "no", "--dir", server.dir], { stdio: "ignore" });
    await waitFor("the new server", async () => (await probeRedisSocket(server.socket, 500)) === "ready");
    await waitFor("recovery", () => events.find((e) => e.type === "recovered"), 25_000);
    const expectedA = await hashContent(fs.readFileSync(path.join(root, a)));
    const expectedB = await hashContent(fs.readFileSync(path.join(root, b)));
    await waitFor("both edits in Redis", async () => (await indexedHash(a)) === expectedA && (await indexedHash(b)) === expectedB);
    // The update events follow their writes (and the second edit may land in a later batch): wait for them.
    const updated = () => events.filter((e) => e.type === "updated").map((e) => "path" in e && e.path);
    await waitFor("both updates reported", () => updated().includes(a) && updated().includes(b));
    expect(updated()).toEqual(expect.arrayContaining([a, b]));

    // Still watching.
    fs.writeFileSync(path.join(root, "packages/core/src/after.ts"), "export const after = 1;\n");
    const expected = await hashContent("export const after = 1;\n");
    await waitFor("a file written after recovery", async () => (await indexedHash("packages/core/src/after.ts")) === expected);
  });
});
