// What `ipuaro index` and `ipuaro doctor` say about an index's state: empty, one file, written by a
// newer or an older ipuaro; and commands that never talk to the model running with a bad OLLAMA_HOST.
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_EXIT_CODE } from "../../src/main/config/loader.js";
import { SCHEMA_VERSION } from "../../src/main/store/schema-version.js";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let fake: FakeOllama;
let base = "";
let root = "";

beforeAll(async () => {
  redis = new Redis({ path: server().socket });
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  redis.disconnect();
  await fake.close();
});
beforeEach(async () => {
  await redis.flushall();
  base = makeTempDir("ipuaro-state-");
  root = path.join(base, "app");
});
afterEach(() => removeDir(base));

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  IPUARO_REDIS_URL: server().url,
  OLLAMA_HOST: fake.url,
  IPUARO_HOME: path.join(base, ".home"),
  XDG_CONFIG_HOME: path.join(base, ".xdg"),
  ...extra,
});

interface Check {
  name: string;
  status: string;
  detail: string;
}

async function doctor(extra: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; checks: Check[] }> {
  const r = await runIpuaro(["doctor", root, "--json"], { env: env(extra) });
  return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: Check[] }).checks };
}

const check = (checks: Check[], name: string) => checks.find((c) => c.name === name)!;
const configKey = async () => (await redis.keys("project:*:config"))[0]!;

describe("ipuaro doctor on the index", () => {
  it("says a project indexed with no files is indexed with 0 files, not 'not indexed'", async () => {
    writeTree(root, { "assets/.gitkeep": "" });
    const before = await doctor();
    expect(check(before.checks, "index").detail).toMatch(/is not indexed yet/);
    const indexed = await runIpuaro(["index", root], { env: env() });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/^indexed 0 files of /);
    const after = await doctor();
    const index = check(after.checks, "index");
    expect(index.detail).toMatch(/is indexed with 0 files \(last indexed \d{4}-/);
    expect(index.detail).not.toMatch(/not indexed/);
    expect(index.status).toBe("warn");
    expect(after.code).toBe(0);
  });

  it("counts one file as '1 file'", async () => {
    writeTree(root, { "src/only.ts": "export const only = 1;\n" });
    const r = await runIpuaro(["index", root], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^indexed 1 file of \S+ in [\d.]+s$/m);
    expect(check((await doctor()).checks, "index").detail).toMatch(/^1 file of /);
  });
});

describe("an index written by another ipuaro version", () => {
  beforeEach(() => {
    writeTree(root, { "src/a.ts": "export const a = 1;\n", "src/b.ts": "import { a } from './a';\nexport const b = a;\n" });
  });

  it("is refused when a newer ipuaro wrote it, kept as it is, and rebuilt by index --force", async () => {
    expect((await runIpuaro(["index", root], { env: env() })).code).toBe(0);
    const key = await configKey();
    const newer = String(SCHEMA_VERSION + 1);
    await redis.hset(key, "schemaVersion", newer);
    const filesKey = key.replace(/:config$/, ":files");
    const stored = await redis.hlen(filesKey);
    expect(stored).toBe(2);

    const refused = await runIpuaro(["index", root], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`was written by a newer ipuaro (schema ${newer}, this one reads ${SCHEMA_VERSION})`);
    expect(refused.stderr).toContain("Upgrade ipuaro, or run `ipuaro index --force`");
    expect(await redis.hget(key, "schemaVersion")).toBe(newer);
    expect(await redis.hlen(filesKey)).toBe(stored);

    // The tool, which brings the index up to date first, refuses the same way instead of wiping it.
    const tool = await runIpuaro(["tool", "get_lines", '{"path": "src/a.ts"}', root], { env: env() });
    expect(tool.code).toBe(1);
    expect(tool.stderr).toContain("written by a newer ipuaro");
    expect(await redis.hget(key, "schemaVersion")).toBe(newer);

    const doc = await doctor();
    expect(check(doc.checks, "index")).toMatchObject({ status: "fail", detail: expect.stringContaining(`newer ipuaro (schema ${newer}`) });
    expect(doc.code).toBe(1);

    const forced = await runIpuaro(["index", root, "--force"], { env: env() });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`the index a newer ipuaro wrote (schema ${newer}) was rebuilt from scratch for this one (schema ${SCHEMA_VERSION})`);
    expect(await redis.hget(key, "schemaVersion")).toBe(String(SCHEMA_VERSION));
    expect(await redis.hlen(filesKey)).toBe(2);
    expect(check((await doctor()).checks, "index").status).toBe("ok");
  });

  it("is rebuilt without a question when an older ipuaro wrote it", async () => {
    expect((await runIpuaro(["index", root], { env: env() })).code).toBe(0);
    const key = await configKey();
    await redis.hset(key, "schemaVersion", String(SCHEMA_VERSION - 1));
    expect(check((await doctor()).checks, "index")).toMatchObject({ status: "warn", detail: expect.stringContaining("indexed by an older ipuaro") });
    const r = await runIpuaro(["index", root], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("the stored index had an older schema and was rebuilt from scratch");
    expect(r.stdout).toMatch(/^indexed 2 files of /);
    expect(await redis.hget(key, "schemaVersion")).toBe(String(SCHEMA_VERSION));
  });
});

describe("an invalid OLLAMA_HOST", () => {
  const bad = { OLLAMA_HOST: "notaurl::" };

  it("does not stop commands that never talk to the model", async () => {
    writeTree(root, { "src/a.ts": "export const a = 1;\n" });
    const indexed = await runIpuaro(["index", root], { env: env(bad) });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/^indexed 1 file of /);
    const tool = await runIpuaro(["tool", "get_lines", '{"path": "src/a.ts"}', root], { env: env(bad) });
    expect(tool.code, tool.stderr).toBe(0);
    expect(tool.stdout).toContain("export const a = 1;");
    const sessions = await runIpuaro(["sessions", "list", root], { env: env(bad) });
    expect(sessions.code, sessions.stderr).toBe(0);
  });

  it("is a problem doctor reports, naming the variable, instead of dying", async () => {
    writeTree(root, { "src/a.ts": "export const a = 1;\n" });
    const { code, checks } = await doctor(bad);
    expect(code).toBe(1);
    expect(check(checks, "config").status).toBe("ok");
    expect(check(checks, "redis").status).toBe("ok");
    expect(check(checks, "ollama")).toMatchObject({ status: "fail", detail: expect.stringMatching(/^invalid configuration in environment variable OLLAMA_HOST: OLLAMA_HOST: "notaurl::"/) });
    expect(check(checks, "model").detail).toBe("not checked: OLLAMA_HOST is invalid");
  });

  it("is still a config error for ipuaro run, before anything is indexed", async () => {
    writeTree(root, { "src/a.ts": "export const a = 1;\n" });
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env(bad) });
    expect(r.code).toBe(CONFIG_EXIT_CODE);
    expect(r.stderr).toContain("invalid configuration in environment variable OLLAMA_HOST");
    expect(await redis.keys("project:*:files")).toEqual([]);
  });
});
