// `ipuaro … | head`: when the reader stops early the command ends quietly with its own exit code,
// not with an unhandled EPIPE and a stack trace.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
const ENTRY = path.resolve("src/main/cli/entry.ts");
let root = "";
let home = "";
const env = () => ({ ...process.env, NO_COLOR: "1", IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") });

beforeAll(() => {
  root = makeTempDir("ipuaro-pipe-");
  home = makeTempDir("ipuaro-pipe-home-");
  // One minified line of ~2 MB: far more than a pipe holds.
  writeTree(root, { "package.json": '{"name":"pipe"}', "dist-min.js": Array.from({ length: 60_000 }, (_, i) => `function f${i}(a,b){return a+b*${i}}`).join(";") });
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

it("a reader that stops after the first bytes ends the command quietly with exit code 0", async () => {
  const indexed = await runIpuaro(["index", root], { env: env(), timeoutMs: 120_000 });
  expect(indexed.code, indexed.stderr).toBe(0);
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "tool", "get_lines", '{"path":"dist-min.js"}', root], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const first = await new Promise<string>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString("utf8"))));
  child.stdout.destroy(); // what `head -c` does once it has enough
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  expect(first).toContain("dist-min.js");
  expect(code, stderr).toBe(0);
  expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
}, 120_000);

it("a slow reader gets the whole output: the command waits for the pipe to drain before it exits", async () => {
  const indexed = await runIpuaro(["index", root], { env: env(), timeoutMs: 120_000 });
  expect(indexed.code, indexed.stderr).toBe(0);
  const args = ["tool", "get_lines", '{"path":"dist-min.js"}', root, "--json"];
  const fast = await runIpuaro(args, { env: env(), timeoutMs: 120_000 });
  expect(fast.stdout.length).toBeGreaterThan(256 * 1024);
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
  // Nothing is read for a while, as from `| (sleep 1; jq)`: the pipe fills and the writes queue up.
  child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 2500));
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  expect(code).toBe(0);
  // The same result (its timing aside, which varies by a digit).
  const data = (out: string) => (JSON.parse(out) as { data: string }).data;
  expect(data(stdout)).toBe(data(fast.stdout));
}, 120_000);
