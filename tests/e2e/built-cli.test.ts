// The CLI as `npm ci` builds it (bin/ipuaro.js → the bundle in dist/cli/), not its sources: the other
// end-to-end tests run src/ through tsx. The bundle lives at another depth below the package root than
// the modules it was made of, so this checks what it finds from there: package.json, config/, the index
// workers' script and the parse-only baseline's child process (both run from dist/).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";

const server = useRedisServer();
const BIN = path.resolve("bin/ipuaro.js");
let root = "";
let home = "";

function built(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, IPUARO_REDIS_URL: server().url, IPUARO_HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg"), NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!fs.existsSync(path.resolve("dist/cli/entry.js"))) throw new Error("dist/cli/ is missing: run `npm run build` (npm ci does) before the tests");
  root = buildAcmeShop();
  home = makeTempDir("ipuaro-built-home-");
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

describe("the built CLI", () => {
  it("prints its version and its commands", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
    expect(built(["--version"]).stdout.trim()).toBe(pkg.version);
    const help = built(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["index", "run", "tool", "doctor", "tui"]) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
  });

  it("indexes with its worker threads and times the parse-only baseline in its child process", () => {
    const r = built(["index", root, "--json", "--yes", "--bench"]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { files: number; parsed: number; parseOnlySeconds: number; ratioToParseOnly: number };
    expect(json.parsed).toBeGreaterThan(10);
    expect(json.parseOnlySeconds).toBeGreaterThan(0);
    expect(json.ratioToParseOnly).toBeGreaterThan(0);
  }, 120_000);

  it("reads its default config and answers a tool call from the index", () => {
    const r = built(["tool", "find_definition", '{"symbol":"Money"}', root, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { success: boolean; data: string };
    expect(result.success).toBe(true);
    expect(result.data).toContain("packages/core/src/money.ts:8 class Money");
  }, 60_000);
});
