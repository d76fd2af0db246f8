// An Ollama that accepts the connection and never answers (a hung server, or something else listening on
// its port): `run` and `doctor` give the model check up after MODEL_PROBE_TIMEOUT_MS and say so, Ctrl+C
// stops `run` at once whatever it waits for, and SIGTERM ends it the same way under its own name.
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MODEL_PROBE_TIMEOUT_MS } from "../../src/main/llm/ollama-fetch.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { signalPid } from "../helpers/signal-pid.js";
import { removeDir } from "../helpers/temp-dir.js";
import { spawnCli, type RunningCli } from "../integration/session/session-cli.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama | undefined;
let hole: BlackHole | undefined;

beforeAll(() => {
  root = buildAcmeShop();
});
afterAll(() => removeDir(root));
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await hole?.close();
  hole = undefined;
});

const env = (ollama: string): NodeJS.ProcessEnv => ({
  IPUARO_REDIS_URL: server().url,
  OLLAMA_HOST: ollama,
  XDG_CONFIG_HOME: path.join(root, ".xdg"),
  IPUARO_HOME: path.join(root, ".home"),
});

const probeSeconds = `${MODEL_PROBE_TIMEOUT_MS / 1000} s`;

interface BlackHole {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Accepts TCP connections and never writes a byte. */
async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  let accepted = 0;
  srv.on("connection", () => accepted++);
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}

async function waitFor(what: string, cond: () => boolean, running?: RunningCli, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (running && running.child.exitCode !== null) throw new Error(`exited before ${what}: ${running.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The child's exit, or a failure when it is still running after `ms` (then it is killed). */
async function exitWithin(running: RunningCli, ms: number) {
  const timer = setTimeout(() => running.child.kill("SIGKILL"), ms);
  try {
    const r = await running.done;
    if (r.signal === "SIGKILL") throw new Error(`still running after ${ms} ms\nstderr: ${r.stderr}`);
    return r;
  } finally {
    clearTimeout(timer);
  }
}

describe("an Ollama that accepts the connection and never answers", () => {
  it("run gives the model check up after the probe timeout and says the server did not answer", async () => {
    hole = await blackHole();
    const running = spawnCli(["run", "-p", "hi", root], env(hole.url));
    const r = await exitWithin(running, MODEL_PROBE_TIMEOUT_MS + 20_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`gave no answer after ${probeSeconds} while listing models`);
    expect(r.stderr).toContain(hole.url);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("Ctrl+C during the model check stops run at once (exit 130), not when the check gives up", async () => {
    hole = await blackHole();
    const h = hole;
    const running = spawnCli(["run", "-p", "hi", root], env(h.url));
    await waitFor("the model check to connect", () => h.connections() > 0, running);
    await sleep(200);
    signalPid(running.child.pid!, "SIGINT");
    const r = await exitWithin(running, 10_000);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain("stopping… (Ctrl+C again to quit at once)");
    expect(r.stderr).toContain("ipuaro: cancelled (Ctrl+C)");
    expect(r.stderr).not.toContain("no answer");
  }, 30_000);

  it("doctor prints each check as it completes and reports the silent server as 'no answer after N s'", async () => {
    hole = await blackHole();
    const running = spawnCli(["doctor", root], env(hole.url));
    // The checks that passed are on screen while the model check still waits.
    await waitFor("the redis check", () => /✓ redis/.test(running.stdout()), running);
    expect(running.stdout()).toMatch(/^✓ config +valid\n✓ redis /);
    expect(running.stdout()).not.toContain("ollama");
    const r = await exitWithin(running, MODEL_PROBE_TIMEOUT_MS + 20_000);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ ollama +.*no answer after ${probeSeconds}`));
    expect(r.stdout).toMatch(/✗ model +not checked: Ollama did not answer/);
    expect(r.stdout).toMatch(/[✓!] index /);
    expect(r.stdout).toMatch(/✓ file-history /);
  }, 60_000);
});

describe("a model that has not started its reply (still loading, or stuck)", () => {
  /** `run -p hi` against a model that never starts its reply, sent `signal` once the request is out. */
  async function signalWhileModelHangs(signal: NodeJS.Signals) {
    fake = await new FakeOllama().start();
    const f = fake;
    f.reply().hang();
    const running = spawnCli(["run", "-p", "hi", root], env(f.url));
    await waitFor("the chat request", () => f.chatRequests.length > 0, running);
    await sleep(200);
    signalPid(running.child.pid!, signal);
    return { r: await exitWithin(running, 10_000), f };
  }

  it("the first Ctrl+C drops the request at once and run exits 130 with its cancelled message", async () => {
    const { r, f } = await signalWhileModelHangs("SIGINT");
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain("ipuaro: cancelled (Ctrl+C)");
    expect(f.requests.find((q) => q.path === "/api/chat")!.aborted).toBe(true);
  }, 30_000);

  it("SIGTERM ends it the same way, as 143, without talking about Ctrl+C", async () => {
    const { r } = await signalWhileModelHangs("SIGTERM");
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain("stopping… (SIGTERM");
    expect(r.stderr).toContain("ipuaro: stopped (SIGTERM)");
    expect(r.stderr).not.toContain("Ctrl+C");
  }, 30_000);

  it("SIGTERM during the model check likewise", async () => {
    hole = await blackHole();
    const h = hole;
    const running = spawnCli(["run", "-p", "hi", root, "--json"], env(h.url));
    await waitFor("the model check to connect", () => h.connections() > 0, running);
    await sleep(200);
    signalPid(running.child.pid!, "SIGTERM");
    const r = await exitWithin(running, 10_000);
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).not.toContain("Ctrl+C");
    // A script reading stdout still gets one object.
    expect(JSON.parse(r.stdout)).toEqual({ error: { type: "interrupted", message: "stopped (SIGTERM)" } });
  }, 30_000);
});
