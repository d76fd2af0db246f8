// IPUARO_REDIS_URL pointing at a server that accepts the connection and never answers: `ipuaro index`
// fails with one clear redis error and `ipuaro doctor` reports the redis check failed next to its other
// checks, both within the connect bound — before the fix both hung with no output.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECT_ANSWER_TIMEOUT_MS } from "../../src/main/store/silent-server.js";
import { startBlackHole, type BlackHole } from "../helpers/black-hole-server.js";
import { runIpuaro } from "../helpers/cli.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

/** The CLI's own start (tsx compiling the sources) on top of the bound; a hang is far beyond it. */
const RUN_LIMIT_MS = CONNECT_ANSWER_TIMEOUT_MS + 20_000;

let hole: BlackHole;
let base = "";
let root = "";

beforeAll(async () => {
  hole = await startBlackHole();
  base = makeTempDir("ipuaro-silent-redis-");
  root = path.join(base, "app");
  writeTree(root, { "src/a.ts": "export const a = 1;\n" });
});
afterAll(async () => {
  await hole.close();
  removeDir(base);
});

const env = () => ({
  IPUARO_REDIS_URL: hole.url,
  OLLAMA_HOST: "http://127.0.0.1:9", // refused at once: only Redis is silent here
  IPUARO_HOME: path.join(base, ".home"),
  XDG_CONFIG_HOME: path.join(base, ".xdg"),
});

const silentMessage = () => `Redis at ${hole.url} accepted the connection but did not answer within ${CONNECT_ANSWER_TIMEOUT_MS / 1000} s`;

describe("IPUARO_REDIS_URL at a server that never answers", () => {
  it(
    "ipuaro index fails with a redis error and a suggestion instead of hanging",
    async () => {
      const run = await runIpuaro(["index", root, "--yes"], { env: env(), timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`ipuaro: redis error: ${silentMessage()}`);
      expect(run.stderr).toContain("IPUARO_REDIS_URL");
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    },
    RUN_LIMIT_MS + 5000,
  );

  it(
    "ipuaro doctor --json reports the redis check failed and still runs the others",
    async () => {
      const run = await runIpuaro(["doctor", root, "--json"], { env: env(), timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stderr).toBe(1);
      const { checks } = JSON.parse(run.stdout) as { checks: { name: string; status: string; detail: string }[] };
      expect(checks.map((c) => [c.name, c.status])).toEqual([
        ["config", "ok"],
        ["redis", "fail"],
        ["ollama", "fail"],
        ["model", "fail"],
        ["index", "fail"],
        ["file-history", "ok"],
      ]);
      const redis = checks.find((c) => c.name === "redis")!;
      expect(redis.detail).toContain(silentMessage());
      expect(redis.detail).toContain("IPUARO_REDIS_URL");
      expect(checks.find((c) => c.name === "index")!.detail).toBe("not checked: Redis is unreachable");
    },
    RUN_LIMIT_MS + 5000,
  );
});
