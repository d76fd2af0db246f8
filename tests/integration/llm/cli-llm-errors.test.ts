// `ipuaro run` as a user runs it, with OLLAMA_HOST set to something wrong: a config error for a value that
// is not a URL, a readable llm error for a server that is not Ollama or a port fetch refuses, and a clean
// stdout (nothing but ipuaro's own JSON) with --json.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_EXIT_CODE } from "../../../src/main/config/loader.js";
import { runIpuaro } from "../../helpers/cli.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let root: string;
let web: Server;
let webUrl: string;

beforeAll(async () => {
  root = makeTempDir("ipuaro-llm-cli-");
  writeTree(root, { "src/greet.ts": "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n" });
  // Some other web server where Ollama was expected: 404 pages in HTML for every path.
  web = createServer((_req, res) =>
    res.writeHead(404, { "Content-Type": "text/html" }).end(`<html><head><title>404 Not Found</title></head><body>${"<p>nothing here</p>".repeat(300)}</body></html>`),
  );
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  web.closeAllConnections();
  await new Promise<void>((resolve) => web.close(() => resolve()));
  removeDir(root);
});

const env = (ollamaHost: string): NodeJS.ProcessEnv => ({
  IPUARO_REDIS_URL: server().url,
  OLLAMA_HOST: ollamaHost,
  XDG_CONFIG_HOME: path.join(root, ".xdg"),
  IPUARO_HOME: path.join(root, ".home"),
});

describe("ipuaro run with a bad OLLAMA_HOST", () => {
  it("a value that is not a URL is a config error naming OLLAMA_HOST and the value, not a TypeError stack", async () => {
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env("notaurl::") });
    expect(r.code).toBe(CONFIG_EXIT_CODE);
    expect(r.stderr).toContain("invalid configuration in environment variable OLLAMA_HOST");
    expect(r.stderr).toContain('"notaurl::"');
    expect(r.stderr).not.toMatch(/TypeError|Invalid URL|\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("a server that is not Ollama: one short readable error, no `ollama pull`, and --json stdout stays clean", async () => {
    const r = await runIpuaro(["run", "--json", "-p", "hi", root], { env: env(webUrl) });
    expect(r.code).not.toBe(0);
    // Nothing but ipuaro's own output may reach stdout: at most one JSON document (an {"error": …} object).
    expect(r.stdout).not.toContain("Getting text");
    const out = r.stdout.trim();
    const parsed = out ? (JSON.parse(out) as { error?: { message?: string } }) : {};
    if (parsed.error) expect(parsed.error.message).toContain("does not look like an Ollama server");
    expect(r.stderr).toContain(`${webUrl} does not look like an Ollama server: it answered HTTP 404 (404 Not Found)`);
    expect(r.stderr).toContain("OLLAMA_HOST");
    expect(r.stderr).not.toMatch(/ollama pull|nothing here|<html|Getting text/);
  });

  it("a port fetch refuses (http://127.0.0.1:1) is 'cannot reach Ollama at <url>'", async () => {
    const r = await runIpuaro(["run", "-p", "hi", root], { env: env("http://127.0.0.1:1") });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Cannot reach Ollama at http://127.0.0.1:1 (bad port");
    expect(r.stderr).not.toContain("fetch failed");
  });
});
