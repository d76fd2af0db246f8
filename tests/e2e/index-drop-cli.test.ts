// `ipuaro index --drop [path]`: every key of the project's index goes, its sessions and memory stay, and
// a drop is refused while another process runs an index of the project.
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectIndexLeaseKey, projectKey, projectSessionsKey } from "../../src/main/store/keys.js";
import { takeLease } from "../../src/main/store/redis-lease.js";
import { shadowKey } from "../../src/main/store/shadow-keys.js";
import { runIpuaro } from "../helpers/cli.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
let root = "";
let home = "";
let redis: Redis;
const env = () => ({ IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") });
const projectName = () => `${path.basename(path.dirname(root))}-${path.basename(root)}`;
const ipuaro = (...args: string[]) => runIpuaro(args, { env: env(), timeoutMs: 60_000 });

beforeAll(() => {
  root = makeTempDir();
  home = makeTempDir("ipuaro-drop-home-");
  writeTree(root, { "src/a.ts": "export const a = 1;\n", "src/b.ts": 'import { a } from "./a";\nexport const b = a;\n', "package.json": '{"name":"drop-me"}' });
  redis = new Redis({ path: server().url.slice("unix://".length) });
});
afterAll(() => {
  redis.disconnect();
  removeDir(root);
  removeDir(home);
});

const keysOf = async (project: string) => (await redis.keys(`project:{${project}}:*`)).sort();

describe("ipuaro index --drop", () => {
  it("deletes every key of the index, says what it freed, and keeps the project's sessions and memory", async () => {
    const indexed = await ipuaro("index", "--yes", "--json", root);
    expect(indexed.code, indexed.stderr).toBe(0);
    const name = projectName();
    // What the project remembers, and the side key a graph rewrite that died left behind.
    await redis.zadd(projectSessionsKey(name), 1, "s1");
    await redis.hset(shadowKey(name, "memory"), "m1", '{"text":"use pnpm"}');
    await redis.hset(`${projectKey(name, "indexes_next")}:dead-run`, "sym:a", "[]");

    const dropped = await ipuaro("index", "--drop", "--json", root);
    expect(dropped.code, dropped.stderr).toBe(0);
    const json = JSON.parse(dropped.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ project: name, root, dropped: true, files: 3, keys: 8 });
    expect(json.bytesFreed).toBeGreaterThan(1000);
    expect(await keysOf(name)).toEqual([projectSessionsKey(name), shadowKey(name, "memory")].sort());

    const again = await ipuaro("index", "--drop", root);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${name} (${root}) has no index to drop`);
    // The next index builds it all again.
    const rebuilt = await ipuaro("index", "--json", root);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ files: 3, parsed: 3 });
    const plain = await ipuaro("index", "--drop", root);
    expect(plain.stdout).toMatch(new RegExp(`^dropped the index of ${name} \\(${root}\\): 3 files, 7 keys, [\\d.]+ KiB freed; its sessions and memory are kept \\(an ipuaro UI or \`ipuaro index --watch\` running on it indexes the project again\\)\\n$`));
  });

  it("is refused while another process runs an index of the project, and nothing is dropped", async () => {
    expect((await ipuaro("index", "--json", root)).code).toBe(0);
    const name = projectName();
    const lease = projectIndexLeaseKey(name);
    // Taken by this (test) process: to the CLI it is another live process running an index.
    const taken = await takeLease(redis, lease, "ipuaro index");
    expect("value" in taken).toBe(true);
    try {
      const refused = await ipuaro("index", "--drop", "--json", root);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`ipuaro index \\(pid ${process.pid}, since \\d\\d:\\d\\d\\) is indexing ${name}; its index was not dropped`));
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { type: "conflict" } });
      expect(await redis.hlen(projectKey(name, "stat"))).toBe(3);
    } finally {
      await redis.del(lease);
    }
    const dropped = await ipuaro("index", "--drop", root);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(await redis.exists(projectKey(name, "stat"), lease)).toBe(0);
  });

  it("drops an index of `/` an older ipuaro left, and one of a folder that is gone", async () => {
    await redis.hset(projectKey("root", "stat"), "proc/1/fd/1", "0:0:link:/dev/null");
    await redis.hset(projectKey("root", "config"), "root", "/");
    const slash = await ipuaro("index", "--drop", "--json", "/");
    expect(slash.code, slash.stderr).toBe(0);
    expect(JSON.parse(slash.stdout)).toMatchObject({ project: "root", dropped: true, files: 1, keys: 2 });
    expect(await keysOf("root")).toEqual([]);

    const gone = makeTempDir();
    writeTree(gone, { "x.ts": "export const x = 1;\n" });
    expect((await ipuaro("index", gone)).code).toBe(0);
    removeDir(gone);
    const dropped = await ipuaro("index", "--drop", "--json", gone);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ root: gone, dropped: true, files: 1 });
  });

  it("cannot go with the options that index", async () => {
    const r = await ipuaro("index", "--drop", "--force", root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--drop deletes the index; it cannot go with --force");
  });
});
