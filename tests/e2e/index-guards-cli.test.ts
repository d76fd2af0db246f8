// `ipuaro index` on folders that are no project (the filesystem root, the home folder) and on a tree it
// cannot read all of (deeper than the path-length limit): refused, asked about, or counted and said.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
let home = "";
const env = (extra: NodeJS.ProcessEnv = {}) => ({ IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(home, "ipuaro"), XDG_CONFIG_HOME: path.join(home, "xdg"), ...extra });
const ipuaro = (args: string[], extra: NodeJS.ProcessEnv = {}) => runIpuaro(args, { env: env(extra), timeoutMs: 60_000 });

beforeAll(() => void (home = makeTempDir("ipuaro-guards-home-")));
afterAll(() => removeDir(home));

describe("a tree deeper than the path-length limit", () => {
  let root = "";
  beforeAll(() => {
    root = makeTempDir();
    writeTree(root, { "src/a.ts": "export const a = 1;\n" });
    // 20 folders of 250 characters: well past PATH_MAX (4096), made one `cd` at a time.
    const name = "d".repeat(250);
    execFileSync("bash", ["-c", `set -e; mkdir deep; cd deep; for i in $(seq 1 20); do mkdir ${name}; cd ${name}; done; echo 'export const x = 1;' > x.ts`], { cwd: root });
  });
  // Node's recursive rm builds absolute paths, which are too long here; rm walks by descriptor.
  afterAll(() => execFileSync("rm", ["-rf", root]));

  it("counts the folder it could not read in skipped.errors, as listed in errors, and still exits 0", async () => {
    const r = await ipuaro(["index", "--json", root]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { files: number; skipped: { errors: number }; errors: { path: string; message: string }[] };
    expect(json.errors).toEqual([{ path: expect.stringMatching(/^deep\/d+(\/d+)*$/), message: "the folder could not be read; its files were skipped" }]);
    expect(json.skipped.errors).toBe(json.errors.length);
    expect(json.files).toBe(1);
  });

  it("says so in the plain summary", async () => {
    const r = await ipuaro(["index", "--force", root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/skipped: 0 binary \(metadata only\), 0 non-UTF-8, 0 ignored, 0 of types not indexed, 1 that could not be read \(listed below\)\n/);
    expect(r.stdout).toMatch(/error: deep\/d+.*: the folder could not be read; its files were skipped/);
  });
});

describe("folders that are no project", () => {
  it("refuses the filesystem root before anything is read or stored", async () => {
    const r = await ipuaro(["index", "--yes", "--json", "/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("ipuaro: / is the filesystem root, not a project: its index would hold the whole system. Give a project folder instead");
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { type: "usage" } });
    const redis = new Redis({ path: server().url.slice("unix://".length) });
    try {
      expect(await redis.keys("project:{root}:*")).toEqual([]);
    } finally {
      redis.disconnect();
    }
    // The tools, which index before they run, refuse it the same way.
    const tool = await ipuaro(["tool", "get_structure", "{}", "/"]);
    expect(tool.code).toBe(2);
    expect(tool.stderr).toContain("/ is the filesystem root, not a project");
  });

  it("indexes the home folder only when told to: off a terminal without --yes it is refused", async () => {
    const fakeHome = makeTempDir("ipuaro-fake-home-");
    writeTree(fakeHome, { "notes/a.ts": "export const a = 1;\n" });
    try {
      const refused = await ipuaro(["index", fakeHome], { HOME: fakeHome });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${fakeHome} is your home folder: indexing it reads every project, cache and dotfile under it`);
      expect(refused.stderr).toContain("pass --yes to index it anyway");
      // run and tool index before they work, with nobody to ask: refused the same way, naming the command.
      const tool = await ipuaro(["tool", "get_structure", "{}", fakeHome], { HOME: fakeHome });
      expect(tool.code).toBe(2);
      expect(tool.stderr).toContain(`index it once on purpose with \`ipuaro index --yes ${fakeHome}\``);
      const run = await ipuaro(["run", "-p", "hi", fakeHome], { HOME: fakeHome, OLLAMA_HOST: "http://127.0.0.1:9" });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("is your home folder");
      const agreed = await ipuaro(["index", "--yes", "--json", fakeHome], { HOME: fakeHome });
      expect(agreed.code, agreed.stderr).toBe(0);
      expect(JSON.parse(agreed.stdout)).toMatchObject({ files: 1 });
      // Agreed once: a warm run of it is not asked about again, nor are the tools.
      expect((await ipuaro(["index", fakeHome], { HOME: fakeHome })).code).toBe(0);
      expect((await ipuaro(["tool", "get_structure", "{}", fakeHome], { HOME: fakeHome })).code).toBe(0);
    } finally {
      removeDir(fakeHome);
    }
  });
});
