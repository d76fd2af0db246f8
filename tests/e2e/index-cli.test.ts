// `ipuaro index` as a user runs it: the plain summary, --json and --bench with the parse-only baseline,
// the progress bar on a terminal (and none off it), and the question above limits.maxFilesWarning.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatProgressBar } from "../../src/main/cli/progress-bar.js";
import { runIpuaro } from "../helpers/cli.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";
import { hasTmux, TmuxPane } from "./tmux-pane.js";

const server = useRedisServer();
let root = "";
let home = "";
const env = () => ({ IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg") });
const projectName = () => `${path.basename(path.dirname(root))}-${path.basename(root)}`;
const ENTRY = path.resolve("src/main/cli/entry.ts");

beforeAll(() => {
  root = buildAcmeShop();
  home = makeTempDir("ipuaro-index-home-");
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

async function indexJson(...extra: string[]): Promise<Record<string, any>> {
  const r = await runIpuaro(["index", root, "--json", "--yes", ...extra], { env: env(), timeoutMs: 120_000 });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe("ipuaro index", () => {
  it("prints --version and lists every subcommand in --help", async () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
    expect((await runIpuaro(["--version"])).stdout.trim()).toBe(pkg.version);
    expect((await runIpuaro(["-V"])).stdout.trim()).toBe(pkg.version);
    const help = (await runIpuaro(["--help"])).stdout;
    expect(help).toContain("`ipuaro [path] [--new | --session ID]` opens the full-screen UI");
    const badBool = await runIpuaro(["index", ".", "--bench", "--parse-only-baseline=maybe"]);
    expect(badBool.code).toBe(2);
    expect(badBool.stderr).toContain('expected true or false, got "maybe"');
    for (const cmd of ["index", "run", "analyze", "memory", "check-command"]) expect(help).toMatch(new RegExp(`^\\s+${cmd}\\b`, "m"));
  });

  it("--bench --json reports the stages, the machine's numbers and a parse-only baseline run twice", async () => {
    const cold = await indexJson("--bench");
    expect(cold.project).toBe(projectName());
    expect(cold.parsed).toBeGreaterThan(15);
    expect(cold.skipped).toMatchObject({ binary: 2, nonUtf8: 1 }); // blob.ts (NUL bytes) and the logo
    expect(cold.nonUtf8Files).toEqual(["packages/core/src/legacy-cp1251.ts"]);
    expect(cold.skipped.ignored).toBeGreaterThanOrEqual(3);
    // The same shape whether or not anything failed.
    expect(cold.errors).toEqual([]);
    expect(Array.isArray(cold.parseErrorFiles)).toBe(true);
    for (const stage of ["walk", "readHash", "parse", "write", "graph"]) expect(cold.stages[stage]).toBeGreaterThanOrEqual(0);
    expect(cold.totalSeconds).toBeGreaterThan(0);
    expect(cold.filesPerSec).toBeGreaterThan(0);
    expect(cold.peakRssMb).toBeGreaterThan(20);
    expect(cold.redisUsedMb).toBeGreaterThan(0);
    expect(cold.eventLoopDelayMs.p99).toBeGreaterThanOrEqual(cold.eventLoopDelayMs.p50);
    expect(cold.parseOnlyRuns).toHaveLength(2);
    expect(cold.parseOnlySeconds).toBe(Math.min(...cold.parseOnlyRuns));
    // Both times are printed rounded to the millisecond, the ratio to 0.01: on a fixture this small
    // (tens of ms) the rounding alone moves the recomputed ratio by a few percent.
    const rounding = cold.ratioToParseOnly * (0.0005 / cold.parseOnlySeconds + 0.0005 / cold.totalSeconds) + 0.005;
    expect(Math.abs(cold.ratioToParseOnly - cold.totalSeconds / cold.parseOnlySeconds)).toBeLessThanOrEqual(rounding + 1e-9);
    expect(cold.cpuSeconds.process).toBeGreaterThan(0);
    expect(cold.cpuSeconds.redis).toBeGreaterThanOrEqual(0); // a small fixture costs Redis next to nothing
    expect(cold.parseOnlyCpuSeconds).toBeGreaterThan(0);
    // Memory first touched: both runs fault pages in; the test's Redis runs here, so its faults are read.
    expect(cold.minorPageFaults.process).toBeGreaterThan(0);
    expect(cold.minorPageFaults.redis).toBeGreaterThanOrEqual(0);
    expect(cold.parseOnlyMinorPageFaults).toBeGreaterThan(0);
    // Split by thread from /proc (Linux): the parts add up to the process's CPU, to the clock tick.
    for (const [split, total] of [[cold.cpuSeconds.threads, cold.cpuSeconds.process], [cold.parseOnlyThreadCpuSeconds, cold.parseOnlyCpuSeconds]]) {
      expect(Object.keys(split)).toEqual(["main", "workers", "background"]);
      expect(split.workers).toBeGreaterThan(0);
      expect(Math.abs(split.main + split.workers + split.background - total)).toBeLessThan(0.2);
    }

    const warm = await indexJson("--bench", "--parse-only-baseline=false");
    expect(warm.parsed).toBe(0);
    expect(warm.parseOnlySeconds).toBeNull();
    expect(warm.parseOnlyRuns).toEqual([]);
  }, 180_000);

  it("--force re-parses every file: a damaged entry that a plain re-index skips is rebuilt", async () => {
    const redis = new Redis(server().url);
    try {
      const key = `project:{${projectName()}}:ast`;
      const good = await redis.hget(key, "packages/core/src/money.ts");
      await redis.hset(key, "packages/core/src/money.ts", "{damaged");
      expect((await indexJson()).parsed).toBe(0);
      expect(await redis.hget(key, "packages/core/src/money.ts")).toBe("{damaged");
      const forced = await indexJson("--force");
      expect(forced.parsed).toBeGreaterThan(15);
      expect(await redis.hget(key, "packages/core/src/money.ts")).toBe(good);
    } finally {
      redis.disconnect();
    }
  }, 120_000);

  it("prints a plain summary and the --bench table without a terminal, and no progress bar", async () => {
    const r = await runIpuaro(["index", root, "--bench", "--yes", "--parse-only-baseline=false"], { env: env(), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^indexed \\d+ files of ${projectName()} in [\\d.]+s`, "m"));
    expect(r.stdout).toMatch(/skipped: \d+ binary \(metadata only\), \d+ non-UTF-8, \d+ ignored, \d+ of types not indexed/);
    expect(r.stdout).toContain("not UTF-8, skipped: packages/core/src/legacy-cp1251.ts");
    for (const row of ["walk", "read+hash", "parse", "redis write", "graph", "files/s", "peak RSS", "event loop", "cpu "]) expect(r.stdout).toContain(row);
    expect(r.stderr).not.toContain("%");
  }, 120_000);

  it("draws the progress bar on a terminal", () => {
    // `script` gives the command a pty, so stderr is a TTY; its raw output keeps every redraw.
    const command = [process.execPath, "--import", "tsx", ENTRY, "index", root, "--yes"].map((a) => `'${a}'`).join(" ");
    const out = execFileSync("script", ["-qec", command, "/dev/null"], { env: { ...process.env, ...env(), NO_COLOR: "1" }, encoding: "utf8", timeout: 120_000, cwd: process.cwd() });
    // The bar counts the files found; the summary the files in the index (a non-UTF-8 file is skipped).
    const found = Number(/\(\d+\/(\d+) files\)/.exec(out)?.[1] ?? NaN);
    expect(out).toContain(`indexing ${formatProgressBar(found, found)}`);
    expect(Number(/indexed (\d+) files/.exec(out)?.[1])).toBe(found - 1);
    expect(out).toMatch(/\[=*>? *\] \d+% \(\d+\/\d+ files\)/);
  }, 120_000);

  it("formats the bar as `[=====>    ] 45% (120/267 files)`", () => {
    expect(formatProgressBar(120, 267)).toBe(`[${"=".repeat(13)}>${" ".repeat(16)}] 44% (120/267 files)`);
    expect(formatProgressBar(267, 267)).toBe(`[${"=".repeat(30)}] 100% (267/267 files)`);
    expect(formatProgressBar(0, 0)).toBe(`[${"=".repeat(30)}] 100% (0/0 files)`);
  });
});

describe("above limits.maxFilesWarning", () => {
  beforeAll(() => fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ limits: { maxFilesWarning: 5 } })));
  afterAll(() => fs.rmSync(path.join(root, ".ipuaro.json"), { force: true }));

  it("without a terminal it says so and continues", async () => {
    const r = await runIpuaro(["index", "--force", root], { env: env(), timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/files to index \(more than limits\.maxFilesWarning = 5\)\. Continuing/);
  }, 120_000);

  it("does not ask again about a project already indexed (a warm run is quick)", async () => {
    const r = await runIpuaro(["index", root], { env: env(), timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("maxFilesWarning");
    expect(r.stdout).toMatch(/0 parsed/);
  }, 120_000);

  it.runIf(hasTmux())("on a terminal it asks: cancel stops, a subdirectory becomes the project", async () => {
    const command = [process.execPath, "--import", "tsx", ENTRY, "index", "--force", root].map((a) => `'${a}'`).join(" ");
    const envs = Object.fromEntries(Object.entries(env()).map(([k, v]) => [k, String(v)]));
    const cancel = new TmuxPane(`${command}; echo "exit=$?"`, { cwd: process.cwd(), env: envs });
    try {
      await cancel.waitFor("choose a subdirectory", 60_000);
      cancel.type("x");
      cancel.send("Enter");
      await cancel.waitFor("exit=1");
      expect(cancel.screen()).toContain("cancelled");
    } finally {
      cancel.close();
    }
    // Ctrl+C at the question: the same stop as anywhere else, not a stack trace.
    const interrupt = new TmuxPane(`${command}; echo "exit=$?"`, { cwd: process.cwd(), env: envs });
    try {
      await interrupt.waitFor("choose a subdirectory", 60_000);
      interrupt.send("C-c");
      const screen = await interrupt.waitFor("exit=130");
      expect(screen).toContain("ipuaro: cancelled (Ctrl+C)");
      expect(screen).not.toMatch(/AbortError|\s+at /);
    } finally {
      interrupt.close();
    }
    const narrow = new TmuxPane(`${command}; echo "exit=$?"`, { cwd: process.cwd(), env: envs });
    try {
      await narrow.waitFor("choose a subdirectory", 60_000);
      narrow.type("s");
      narrow.send("Enter");
      await narrow.waitFor("subdirectory (relative to the project)");
      expect(narrow.screen()).toMatch(/the largest folders:\n\s+packages\/\s+\d+ files\s+\(core \d+ · ui \d+\)/);
      narrow.type("nope");
      narrow.send("Enter");
      await narrow.waitFor("not a folder inside");
      narrow.type("packages/core");
      narrow.send("Enter");
      const screen = await narrow.waitFor("exit=0", 60_000);
      expect(screen).toMatch(/indexed \d+ files of packages-core/);
    } finally {
      narrow.close();
    }
  }, 180_000);
});
