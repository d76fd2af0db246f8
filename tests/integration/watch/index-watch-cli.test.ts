// `ipuaro index --watch` as a user runs it: a separate process, real Redis, Ctrl+C (SIGINT) to stop.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildAcmeShop } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { waitFor } from "./watch-harness.js";

const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src/main/cli/entry.ts");
const server = useRedisServer();
const root = buildAcmeShop();
const home = makeTempDir("ipuaro-watch-cli-home-");
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

const ipuaro = (...args: string[]) =>
  spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], {
    env: { ...process.env, NO_COLOR: "1", IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") },
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("ipuaro index --watch", () => {
  it("indexes, logs each update, and exits cleanly on SIGINT", async () => {
    const child = ipuaro("index", "--watch", "--yes", root);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await waitFor("the watcher to start", () => stderr.includes("watching"), 30_000);
      expect(stdout).toMatch(/indexed \d+ files/);
      fs.appendFileSync(path.join(root, "packages/core/src/money.ts"), "\nexport const live = 1;\n");
      await waitFor("the update line", () => /^updated packages\/core\/src\/money\.ts \(\d+ ms\)$/m.test(stdout), 15_000);
      fs.writeFileSync(path.join(root, "packages/core/src/fresh.ts"), "export const fresh = 1;\n");
      await waitFor("the create line", () => /^created packages\/core\/src\/fresh\.ts/m.test(stdout), 15_000);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(stderr).toContain("stopping");
      expect(stderr).not.toMatch(/error/i);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("stops cleanly when its terminal goes away (SIGHUP) or its output pipe closes", async () => {
    const hungUp = ipuaro("index", "--watch", "--yes", root);
    let stderr = "";
    hungUp.stderr.on("data", (d) => (stderr += d));
    const hungUpExit = new Promise<number | null>((resolve) => hungUp.on("close", resolve));
    try {
      await waitFor("the watcher to start", () => stderr.includes("watching"), 30_000);
      hungUp.kill("SIGHUP");
      expect(await hungUpExit).toBe(0);
      expect(stderr).toContain("stopping");
      expect(stderr).not.toMatch(/error/i);
    } finally {
      if (hungUp.exitCode === null) hungUp.kill("SIGKILL");
    }

    // `ipuaro index --watch | head -3`: once head has gone, the next update line meets a closed pipe.
    const piped = ipuaro("index", "--watch", "--yes", root);
    let pipedErr = "";
    piped.stderr.on("data", (d) => (pipedErr += d));
    const pipedExit = new Promise<number | null>((resolve) => piped.on("close", resolve));
    try {
      await waitFor("the watcher to start", () => pipedErr.includes("watching"), 30_000);
      piped.stdout.destroy();
      fs.appendFileSync(path.join(root, "packages/core/src/money.ts"), "\nexport const afterPipe = 1;\n");
      expect(await pipedExit).toBe(0);
      expect(pipedErr).not.toMatch(/error|EPIPE/i);
    } finally {
      if (piped.exitCode === null) piped.kill("SIGKILL");
    }
  });

  it("reloads the index when `ipuaro index` in another terminal rewrites it", async () => {
    const child = ipuaro("index", "--watch", "--yes", root);
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await waitFor("the watcher to start", () => stderr.includes("watching"), 30_000);
      const other = ipuaro("index", "--force", "--yes", root);
      expect(await new Promise((resolve) => other.on("close", resolve))).toBe(0);
      await waitFor("the reload line", () => /^another index run rewrote the index: reloaded \d+ files in \d+ ms$/m.test(stderr), 15_000);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
