// A connection that fails on the server's first answer says what the answer meant: a password is needed
// (NOAUTH), the password is wrong (WRONGPASS), or the address is not Redis at all (an HTTP server).
// These came as raw server or parser texts with "Start Redis at … (e.g. redis-server)".
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const PASSWORD = "s3cret";
let dir = "";
let socket = "";
let port = 0;
let redisServer: ChildProcess | null = null;
let http: net.Server | null = null;
let httpPort = 0;

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port: free } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/** Up once the socket answers an authenticated PING. */
async function answersPing(): Promise<boolean> {
  if (!fs.existsSync(socket)) return false;
  return new Promise((resolve) => {
    const s = net.createConnection({ path: socket }, () => s.write(`AUTH ${PASSWORD}\r\nPING\r\n`));
    let reply = "";
    s.on("data", (d) => {
      reply += d.toString();
      if (reply.includes("+PONG")) {
        s.destroy();
        resolve(true);
      }
    });
    s.on("error", () => resolve(false));
    setTimeout(() => (s.destroy(), resolve(false)), 500).unref();
  });
}

beforeAll(async () => {
  dir = makeTempDir("ipuaro-auth-");
  socket = path.join(dir, "redis.sock");
  port = await freePort();
  redisServer = spawn(
    process.env.IPUARO_REDIS_SERVER || "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--unixsocket", socket, "--requirepass", PASSWORD, "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 10_000;
  while (!(await answersPing())) {
    if (Date.now() > deadline) throw new Error("redis-server with requirepass did not come up");
    await sleep(20);
  }
  // Not Redis: a plain server that answers everything as HTTP does.
  http = net.createServer((c) => {
    c.on("error", () => {});
    c.once("data", () => c.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  httpPort = (http.address() as net.AddressInfo).port;
});
afterAll(async () => {
  if (redisServer && redisServer.exitCode === null) {
    redisServer.kill("SIGTERM");
    await once(redisServer, "exit");
  }
  await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)));
  removeDir(dir);
});

async function refusal(url: string): Promise<IpuaroError> {
  try {
    const redis = await connectRedis({ url });
    await closeRedis(redis);
  } catch (err) {
    expect(err).toBeInstanceOf(IpuaroError);
    return err as IpuaroError;
  }
  throw new Error(`connecting to ${url} should have failed`);
}

describe("a Redis that wants a password", () => {
  it("without one: says so, and how to give it in the URL", async () => {
    const err = await refusal(`redis://127.0.0.1:${port}`);
    expect(err.message).toBe(`Redis at redis://127.0.0.1:${port} requires a password, and none was given`);
    expect(err.suggestion).toBe(
      `Give ipuaro the server's password (its requirepass). It goes in the URL: IPUARO_REDIS_URL=redis://:PASSWORD@127.0.0.1:${port} (or redis.url; with an ACL user, redis://USER:PASSWORD@127.0.0.1:${port}).`,
    );
    expect(err.suggestion).not.toMatch(/Start Redis|redis-server`/);
  });

  it("over its unix socket: says a socket URL cannot carry one", async () => {
    const err = await refusal(`unix://${socket}`);
    expect(err.message).toBe(`Redis at ${socket} requires a password, and none was given`);
    expect(err.suggestion).toMatch(/A unix socket URL cannot carry a password: connect over TCP with redis:\/\/:PASSWORD@host:port/);
  });

  it("with the wrong one: says the password was refused, and to check it", async () => {
    const err = await refusal(`redis://:wrong@127.0.0.1:${port}`);
    expect(err.message).toBe(`Redis at redis://:***@127.0.0.1:${port} refused the password: wrong user name or password, or the user is disabled (WRONGPASS)`);
    expect(err.suggestion).toMatch(/^Check the password \(and user\) ipuaro was given\. It goes in the URL: IPUARO_REDIS_URL=redis:\/\/:PASSWORD@127\.0\.0\.1:/);
    expect(err.message + err.suggestion).not.toContain("wrong@");
  });

  it("with the right one: connects", async () => {
    const redis = await connectRedis({ url: `redis://:${PASSWORD}@127.0.0.1:${port}` });
    expect(await redis.ping()).toBe("PONG");
    await closeRedis(redis);
  });
});

describe("an address that is not Redis", () => {
  it("an HTTP server: does not speak the Redis protocol (no 'Please report this')", async () => {
    const err = await refusal(`redis://127.0.0.1:${httpPort}`);
    expect(err.message).toBe(`The server at redis://127.0.0.1:${httpPort} does not speak the Redis protocol (its answer starts with "H", as an HTTP server's does)`);
    expect(err.suggestion).toBe(
      "That address is some other service: point IPUARO_REDIS_URL / redis.url at a Redis server (port 6379 unless it was changed), or unset them so ipuaro starts its own redis-server.",
    );
  });
});
