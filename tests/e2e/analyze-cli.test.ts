// `ipuaro analyze QUERY FILE` run inside a project that is not a git repository: the project is the
// folder ipuaro runs in, not the file's own folder (which holds no index).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";

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
