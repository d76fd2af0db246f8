// Ctrl+C during `ipuaro index` with ipuaro's own Redis: the run stops cleanly — a short message, exit
// code 130, the files parsed so far stored, the managed redis-server shut down (this was its only user)
// — and the next run parses only what is left.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateMonorepo } from "../../bench/generate/generate-monorepo.js";
import { managedRedisLayout } from "../../src/main/store/managed-redis-layout.js";
import { isPidAlive } from "../../src/main/store/process-lock.js";
import { runIpuaro } from "../helpers/cli.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

const ENTRY = path.resolve("src/main/cli/entry.ts");
let root = "";
let home = "";
const env = () => ({ ...process.env, NO_COLOR: "1", IPUARO_REDIS_URL: "", IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") });

beforeAll(async () => {
  root = makeTempDir("ipuaro-interrupt-");
  home = makeTempDir("ipuaro-interrupt-home-");
  await generateMonorepo({ files: 2500, out: root, seed: 5 });
}, 120_000);
afterAll(() => {
  const pidFile = managedRedisLayout(home).pidFile;
  const pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8") : 0);
  if (pid > 0 && isPidAlive(pid)) process.kill(pid, "SIGKILL");
  removeDir(root);
  removeDir(home);
});

async function until<T>(probe: () => Promise<T | null> | T | null, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

it("Ctrl+C mid-run: stops cleanly, keeps what was stored, shuts its own Redis down; the next run carries on", async () => {
  const layout = managedRedisLayout(home);
  const project = `${path.basename(path.dirname(root))}-${path.basename(root)}`;
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "index", root, "--yes"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

  // Once the run has stored its first files, press Ctrl+C.
  await until(() => (fs.existsSync(layout.socketPath) ? true : null));
  const serverPid = Number(await until(() => (fs.existsSync(layout.pidFile) ? fs.readFileSync(layout.pidFile, "utf8") || null : null)));
  const peek = new Redis({ path: layout.socketPath, maxRetriesPerRequest: 0 });
  peek.on("error", () => {});
  await until(async () => ((await peek.hlen(`project:{${project}}:files`).catch(() => 0)) > 0 ? true : null));
  peek.disconnect();
  child.kill("SIGINT");

  expect(await exited, stderr).toBe(130);
  expect(stderr).toContain("stopping… (Ctrl+C again to quit at once)");
  expect(stderr).toContain("ipuaro: cancelled (Ctrl+C); the next run carries on from what was stored");
  expect(stderr).not.toMatch(/\n\s+at |terminate called|Unhandled/);
  // Its only user is gone: the managed server was shut down (AOF flushed), not left running.
  await until(() => (isPidAlive(serverPid) ? null : true), 10_000);

  const next = await runIpuaro(["index", root, "--yes", "--json"], { env: env(), timeoutMs: 120_000 });
  expect(next.code, next.stderr).toBe(0);
  const stats = JSON.parse(next.stdout) as { parsed: number; unchanged: number };
  expect(stats.unchanged).toBeGreaterThan(0);
  expect(stats.parsed).toBeGreaterThan(0);
}, 180_000);

it("SIGTERM mid-run (a supervisor, `timeout`): stops as Ctrl+C does, says which signal, exits 143", async () => {
  const fresh = makeTempDir("ipuaro-sigterm-");
  try {
    await generateMonorepo({ files: 2500, out: fresh, seed: 6 });
    const layout = managedRedisLayout(home);
    const project = `${path.basename(path.dirname(fresh))}-${path.basename(fresh)}`;
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "index", fresh, "--yes"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await until(() => (fs.existsSync(layout.socketPath) ? true : null));
    const peek = new Redis({ path: layout.socketPath, maxRetriesPerRequest: 0 });
    peek.on("error", () => {});
    await until(async () => ((await peek.hlen(`project:{${project}}:files`).catch(() => 0)) > 0 ? true : null));
    peek.disconnect();
    child.kill("SIGTERM");

    expect(await exited, stderr).toBe(143);
    expect(stderr).toContain("stopping… (SIGTERM; a second one quits at once)");
    expect(stderr).toContain("ipuaro: stopped (SIGTERM); the next run carries on from what was stored");
    expect(stderr).not.toContain("Ctrl+C");
  } finally {
    removeDir(fresh);
  }
}, 180_000);

it("Ctrl+C while its own redis-server is still starting: says so, and stops the server that would serve nobody", async () => {
  const startingHome = makeTempDir("ipuaro-interrupt-start-");
  try {
    // A redis-server that takes its time to come up (as one loading a large AOF does).
    const slow = path.join(startingHome, "slow-redis-server");
    fs.writeFileSync(slow, `#!/bin/sh\nsleep 3\nexec redis-server "$@"\n`, { mode: 0o755 });
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "index", root, "--yes"], {
      env: { ...env(), IPUARO_HOME: startingHome, IPUARO_REDIS_SERVER: slow },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const layout = managedRedisLayout(startingHome);
    // The server was spawned (its config written) and has not answered yet.
    await until(() => (fs.existsSync(layout.confFile) ? true : null), 20_000);
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("cancelled");
    await new Promise((r) => setTimeout(r, 3500));
    expect(fs.existsSync(layout.socketPath)).toBe(false);
    const pid = Number(fs.existsSync(layout.pidFile) ? fs.readFileSync(layout.pidFile, "utf8") : 0);
    expect(pid > 0 && isPidAlive(pid)).toBe(false);
  } finally {
    removeDir(startingHome);
  }
}, 60_000);
