// `ipuaro analyze QUERY FILE` run inside a project that is not a git repository: the project is the
// folder ipuaro runs in, not the file's own folder (which holds no index).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
const MONEY = "packages/core/src/money.ts";
let root = "";
const env = () => ({ IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(root, ".home"), XDG_CONFIG_HOME: path.join(root, ".xdg") });

beforeAll(() => void (root = buildAcmeShop()));
afterAll(() => removeDir(root));

it("takes a file argument relative to the project it is run in, without git", async () => {
  expect(fs.existsSync(path.join(root, ".git"))).toBe(false);
  const indexed = await runIpuaro(["index", "."], { env: env(), cwd: root, timeoutMs: 120_000 });
  expect(indexed.code, indexed.stderr).toBe(0);
  for (const query of ["dependency_graph", "predict_change"]) {
    const r = await runIpuaro(["analyze", query, MONEY, "--json"], { env: env(), cwd: root, timeoutMs: 120_000 });
    expect(r.code, `${query}: ${r.stdout}${r.stderr}`).toBe(0);
    const out = JSON.parse(r.stdout) as { target?: string; root?: string };
    expect(out.target ?? out.root).toBe(MONEY);
  }
}, 180_000);

it("file_history of a shallow clone says where its history is cut, not that the file was created there", async () => {
  const base = makeTempDir("ipuaro-shallow-");
  const full = path.join(base, "full");
  const clone = path.join(base, "clone");
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" });
  try {
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, "package.json"), '{"name":"shallow"}');
    git(full, "init", "-q");
    for (let i = 1; i <= 3; i++) {
      fs.writeFileSync(path.join(full, "money.ts"), Array.from({ length: i }, (_, k) => `export const v${k} = ${k};`).join("\n") + "\n");
      git(full, "add", "-A");
      git(full, "commit", "-qm", `change ${i}`);
    }
    execFileSync("git", ["clone", "-q", "--depth", "2", `file://${full}`, clone], { stdio: "pipe" });
    const shallowEnv = { IPUARO_REDIS_URL: server().url, IPUARO_HOME: path.join(base, ".home"), XDG_CONFIG_HOME: path.join(base, ".xdg") };
    expect((await runIpuaro(["index", clone], { env: shallowEnv, timeoutMs: 120_000 })).code).toBe(0);
    const r = await runIpuaro(["analyze", "file_history", clone, "--target", "money.ts", "--json"], { env: shallowEnv, timeoutMs: 120_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { history_cut?: string; timeline: Array<{ subject?: string; shallow_boundary?: boolean; changes: string }> };
    expect(out.history_cut).toMatch(/^this is a shallow clone: its history starts at/);
    const boundary = out.timeline.find((t) => t.subject === "change 2")!;
    expect(boundary).toMatchObject({ shallow_boundary: true });
    expect(boundary.changes).toContain("the clone's history starts here");
    expect(out.timeline.find((t) => t.subject === "change 3")!.shallow_boundary).toBeUndefined();
    const table = await runIpuaro(["analyze", "file_history", clone, "--target", "money.ts"], { env: shallowEnv, timeoutMs: 120_000 });
    expect(table.stdout).toContain("this is a shallow clone");
  } finally {
    removeDir(base);
  }
}, 180_000);
