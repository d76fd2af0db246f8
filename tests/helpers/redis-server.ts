// A real redis-server per test file, on a private unix socket (no TCP port, no persistence).
//
//   const server = useRedisServer();            // registers beforeAll/afterAll
//   it("…", async () => { const redis = await connectRedis({ url: server().url }); … });
//
// or by hand: `const s = await startRedisServer(); … await s.stop();`
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll } from "vitest";
import { probeRedisSocket } from "../../src/main/store/socket-probe.js";

export interface TestRedisServer {
  /** `unix://` URL for connectRedis / acquireRedis. */
  url: string;
  socket: string;
  dir: string;
  pid: number;
  /** Kills the server abruptly (default SIGKILL) to simulate a crash; waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, wait for exit, remove the temp dir. Safe to call twice or after kill(). */
  stop(): Promise<void>;
}

export interface StartRedisServerOptions {
  /** Turn AOF on (default off: tests rarely need durability). */
  appendonly?: boolean;
  startTimeoutMs?: number;
}

export async function startRedisServer(opts: StartRedisServerOptions = {}): Promise<TestRedisServer> {
  // /tmp keeps the socket path far below the sun_path limit.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-redis-")));
  const socket = path.join(dir, "redis.sock");
  const log = path.join(dir, "redis.log");
  const child = spawn(
    process.env.IPUARO_REDIS_SERVER || "redis-server",
    [
      "--port", "0",
      "--unixsocket", socket,
      "--unixsocketperm", "700",
      "--dir", dir,
      "--save", "",
      "--appendonly", opts.appendonly ? "yes" : "no",
      "--daemonize", "no",
      "--logfile", log,
    ],
    { stdio: "ignore" },
  );
  let exited = false;
  const exit = once(child, "exit").then(() => void (exited = true));
  const spawnError = await new Promise<Error | null>((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", resolve);
  });
  if (spawnError) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`cannot start redis-server for tests: ${spawnError.message}`);
  }
  child.on("error", () => {});

  const deadline = Date.now() + (opts.startTimeoutMs ?? 10_000);
  while ((await probeRedisSocket(socket, 500)) !== "ready") {
    if (exited || Date.now() > deadline) {
      child.kill("SIGKILL");
      const tail = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").slice(-10).join("\n") : "(no log)";
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`test redis-server did not come up on ${socket}:\n${tail}`);
    }
    await sleep(20);
  }

  const waitExit = async (signal: NodeJS.Signals): Promise<void> => {
    if (exited) return;
    child.kill(signal);
    const timeout = sleep(10_000).then(() => "timeout" as const);
    if ((await Promise.race([exit, timeout])) === "timeout") {
      child.kill("SIGKILL");
      await exit;
    }
  };

  let stopped = false;
  return {
    url: `unix://${socket}`,
    socket,
    dir,
    pid: child.pid!,
    kill: (signal = "SIGKILL") => waitExit(signal),
    async stop() {
      if (stopped) return;
      stopped = true;
      await waitExit("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts one server for the calling test file; the returned getter is valid inside tests. */
export function useRedisServer(opts: StartRedisServerOptions = {}): () => TestRedisServer {
  let server: TestRedisServer | null = null;
  beforeAll(async () => {
    server = await startRedisServer(opts);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("useRedisServer(): the server is only available inside tests (after beforeAll)");
    return server;
  };
}
