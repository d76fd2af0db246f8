// `ipuaro tool` and `ipuaro run` check what they were given before indexing the folder, and above
// limits.maxFilesWarning they say that a long first index starts instead of asking (they run in scripts).
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama, unusedLoopbackUrl } from "../helpers/fake-ollama.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root = "";
let fake: FakeOllama | null = null;

beforeAll(async () => {
  redis = new Redis({ path: server().socket });
});
afterAll(() => redis.disconnect());
beforeEach(async () => {
  await redis.flushall();
  root = makeTempDir("ipuaro-failfast-");
  const files: Record<string, string> = { ".ipuaro.json": JSON.stringify({ limits: { maxFilesWarning: 3 } }) };
  for (let i = 1; i <= 5; i++) files[`src/m${i}.ts`] = `export const m${i} = ${i};\n`;
  writeTree(path.join(root, "app"), files);
  root = path.join(root, "app");
});
afterEach(async () => {
  await fake?.close();
  fake = null;
  removeDir(path.dirname(root));
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  IPUARO_REDIS_URL: server().url,
  IPUARO_HOME: path.join(path.dirname(root), ".home"),
  XDG_CONFIG_HOME: path.join(path.dirname(root), ".xdg"),
  ...extra,
});

/** Files stored in any project's index: 0 when nothing was indexed. */
async function indexedFiles(): Promise<number> {
  let n = 0;
  for (const key of await redis.keys("project:*:files")) n += await redis.hlen(key);
  return n;
}

describe("ipuaro tool", () => {
  it("refuses arguments that do not fit the tool before indexing anything", async () => {
    const cases: [string, RegExp][] = [
      ["{}", /invalid arguments for get_lines: "path" is required\. Expected get_lines\(path: string, start\?: integer, end\?: integer\)\./],
      ['{"path": 5}', /"path": expected string, got integer/],
      ['{"path": "src/m1.ts", "start": "first"}', /"start": expected integer, got string/],
      ['{"path": "src/m1.ts", "start": 0}', /"start": must be at least 1/],
      ['{"path": "src/m1.ts", "strat": 2}', /"strat" is not a parameter of get_lines/],
      ["[1]", /the arguments must be a JSON object, got array/],
    ];
    for (const [args, said] of cases) {
      const r = await runIpuaro(["tool", "get_lines", args, root], { env: env() });
      expect(r.code, `${args}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(said);
    }
    expect(await indexedFiles()).toBe(0);
  });

  it("still coerces what the model's calls may send as text, and runs", async () => {
    const r = await runIpuaro(["tool", "get_lines", '{"path": "src/m1.ts", "start": "1", "end": "1"}', root], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("export const m1 = 1;");
  });

  it("says that a first index above limits.maxFilesWarning starts, without asking, and only the first time", async () => {
    const first = await runIpuaro(["tool", "get_lines", '{"path": "src/m2.ts"}', root], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("ipuaro: 6 files to index before the tool runs (more than limits.maxFilesWarning = 3)");
    expect(first.stdout).toContain("export const m2 = 2;");
    expect(await indexedFiles()).toBe(6);
    const second = await runIpuaro(["tool", "get_lines", '{"path": "src/m2.ts"}', root], { env: env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("maxFilesWarning");
  });
});

describe("ipuaro run", () => {
  it("says a --session that does not exist before indexing anything", async () => {
    fake = await new FakeOllama().start();
    const r = await runIpuaro(["run", "-p", "hello", "--session", "no-such-session", root], { env: env({ OLLAMA_HOST: fake.url }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session no-such-session in project/);
    expect(await indexedFiles()).toBe(0);
    expect(fake.chatRequests).toHaveLength(0);
  });

  it("says that Ollama does not answer before indexing anything", async () => {
    const r = await runIpuaro(["run", "-p", "hello", root], { env: env({ OLLAMA_HOST: await unusedLoopbackUrl() }) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Ollama/);
    expect(await indexedFiles()).toBe(0);
  });

  it("indexes a big first project without asking, saying so on stderr", async () => {
    fake = await new FakeOllama().start();
    fake.reply().text("Five modules.");
    const r = await runIpuaro(["run", "-p", "how many modules?", root], { env: env({ OLLAMA_HOST: fake.url }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("ipuaro: 6 files to index before the agent runs (more than limits.maxFilesWarning = 3)");
    expect(r.stdout).toContain("Five modules.");
    expect(await indexedFiles()).toBe(6);
  });
});

