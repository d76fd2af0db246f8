// `ipuaro doctor` on a setup that is wrong in ways it used to pass over or word badly: a relative
// IPUARO_HOME (it made relative/home/{redis,run} in the current folder), an IPUARO_HOME that is a file
// ("✓ file-history 0 B in 0 backups"), and an OLLAMA_HOST answering 400 with an empty body (nothing after
// "…while listing models: ").
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runIpuaro } from "../helpers/cli.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const server = useRedisServer();
let fake: FakeOllama;
let web: Server;
let webUrl = "";
let base = "";
let root = "";

beforeAll(async () => {
  fake = await new FakeOllama().start();
  web = createServer((_req, res) => res.writeHead(400).end());
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
});
beforeEach(() => {
  base = makeTempDir("ipuaro-doctor-");
  root = path.join(base, "app");
  writeTree(root, { "src/a.ts": "export const a = 1;\n" });
});
afterEach(() => removeDir(base));

interface Check {
  name: string;
  status: string;
  detail: string;
}

async function doctor(env: NodeJS.ProcessEnv): Promise<{ code: number | null; checks: Check[] }> {
  const r = await runIpuaro(["doctor", ".", "--json"], {
    cwd: root,
    env: { IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(base, ".xdg"), ...env },
  });
  return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: Check[] }).checks };
}

const check = (checks: Check[], name: string) => checks.find((c) => c.name === name);

describe("ipuaro doctor on IPUARO_HOME", () => {
  it("a relative one is a failed config check, and nothing is created in the current folder", async () => {
    const { code, checks } = await doctor({ IPUARO_HOME: "relative/home" });
    expect(code).toBe(1);
    expect(check(checks, "config")).toEqual({
      name: "config",
      status: "fail",
      detail:
        'invalid configuration in environment variable IPUARO_HOME:\n  IPUARO_HOME: "relative/home" is a relative path; give an absolute one (e.g. IPUARO_HOME="$PWD/relative/home"), so ipuaro\'s data does not depend on the folder it is started in',
    });
    expect(fs.existsSync(path.join(root, "relative"))).toBe(false);
  });

  it("a file is a failed file-history check saying the home is not a folder", async () => {
    const home = path.join(base, "home-file");
    fs.writeFileSync(home, "not a folder\n");
    const { code, checks } = await doctor({ IPUARO_HOME: home });
    expect(code).toBe(1);
    expect(check(checks, "redis")?.status).toBe("ok"); // a Redis of its own: only the file history needs the home
    expect(check(checks, "file-history")).toEqual({
      name: "file-history",
      status: "fail",
      detail: `ipuaro's data folder ${home} is a file, not a folder; point IPUARO_HOME at a folder (ipuaro keeps its Redis and file history there) or remove it`,
    });
  });
});

describe("ipuaro doctor on OLLAMA_HOST", () => {
  it("a server answering 400 with an empty body: the status, 'empty body', and to check OLLAMA_HOST", async () => {
    const { checks } = await doctor({ IPUARO_HOME: path.join(base, ".home"), OLLAMA_HOST: webUrl });
    expect(check(checks, "ollama")).toEqual({
      name: "ollama",
      status: "fail",
      detail: `Ollama at ${webUrl} answered HTTP 400 Bad Request with an empty body while listing models — Ollama's own errors carry a JSON message, so something else may be answering at ${webUrl} (another service, or a proxy that cannot reach Ollama): check that OLLAMA_HOST / llm.host points at Ollama (http://127.0.0.1:11434 by default); \`curl ${webUrl}/api/tags\` should list models.`,
    });
  });
});
