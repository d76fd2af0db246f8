// A Redis that accepts the connection and then says nothing — a black-hole port, a redis-server stopped
// with SIGSTOP — gives a typed `redis` error within a bound, never a hang.
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { closeRedis, connectRedis, reconnectRedis } from "../../../src/main/store/connection.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { ANSWER_TIMEOUT_MS, CONNECT_ANSWER_TIMEOUT_MS } from "../../../src/main/store/silent-server.js";
import { startBlackHole, type BlackHole } from "../../helpers/black-hole-server.js";
import { startRedisServer, type TestRedisServer } from "../../helpers/redis-server.js";
import { signalPid } from "../../helpers/signal-pid.js";

/** Timers fire late on a loaded machine; a hang is what these tests are about, not a few hundred ms. */
const SLACK_MS = 3000;

const elapsedSince = (t0: number) => Date.now() - t0;

describe("a server that accepts the connection but never answers", () => {
  let hole: BlackHole | null = null;
  afterEach(async () => {
    await hole?.close();
    hole = null;
  });

  it("makes connecting give up with a redis error naming the URL and the bound", async () => {
    hole = await startBlackHole();
    const t0 = Date.now();
    const err = await connectRedis({ url: hole.url }).catch((e: unknown) => e);
    const took = elapsedSince(t0);

    expect(err).toBeInstanceOf(IpuaroError);
    expect(err).toMatchObject({ type: "redis", recoverable: true });
    expect((err as IpuaroError).message).toBe(`Redis at ${hole.url} accepted the connection but did not answer within ${CONNECT_ANSWER_TIMEOUT_MS / 1000} s`);
    expect((err as IpuaroError).suggestion).toContain("IPUARO_REDIS_URL");
    expect((err as IpuaroError).suggestion).toContain("must be a running Redis server");
    expect(took).toBeGreaterThanOrEqual(CONNECT_ANSWER_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(CONNECT_ANSWER_TIMEOUT_MS + SLACK_MS);
    expect(hole.received()).toBeGreaterThan(0); // it did talk to the peer (HELLO), which kept quiet

    // Given up for good: no reconnect loop left knocking on the port.
    await new Promise((r) => setTimeout(r, 500));
    expect(hole.connections()).toBe(1);
  });
});

describe("a redis-server stopped (SIGSTOP) while in use", () => {
  let own: TestRedisServer | null = null;
  let redis: Redis | null = null;
  afterEach(async () => {
    // Resumed first, or neither QUIT nor the server's own stop could complete.
    if (own) signalPid(own.pid, "SIGCONT");
    if (redis) await closeRedis(redis);
    await own?.stop();
    own = null;
    redis = null;
  });

  it(
    "turns the commands waiting on it into typed errors, and Retry works once it runs again",
    async () => {
      own = await startRedisServer();
      redis = await connectRedis({ url: own.url });
      const store = new ProjectStore({ redis, project: "work-main" });
      await store.writeBatch({ files: [["a.ts", JSON.stringify({ lines: ["x"], hash: "h", size: 1, lastModified: 1 })]] });

      signalPid(own.pid, "SIGSTOP");
      const t0 = Date.now();
      // A read and a pipelined write, both waiting on the stopped server.
      const [read, write] = await Promise.all([
        store.getFile("a.ts").catch((e: unknown) => e),
        store.writeBatch({ files: [["b.ts", "{}"]], stat: [["b.ts", "1:1:h"]] }).catch((e: unknown) => e),
      ]);
      const took = elapsedSince(t0);

      for (const err of [read, write]) {
        expect(err).toBeInstanceOf(IpuaroError);
        expect(err).toMatchObject({ type: "redis", recoverable: true });
        expect((err as IpuaroError).message).toContain(`Redis at ${own.socket} stopped answering while`);
        expect((err as IpuaroError).message).toContain(`no reply within ${ANSWER_TIMEOUT_MS / 1000} s`);
        expect((err as IpuaroError).suggestion).toContain("SIGSTOP");
      }
      expect(took).toBeLessThan(ANSWER_TIMEOUT_MS + SLACK_MS);

      // Still stopped: a Retry gives up within the connect bound instead of hanging in the handshake.
      const t1 = Date.now();
      const retry = await reconnectRedis(redis).catch((e: unknown) => e);
      expect(retry).toMatchObject({ type: "redis", message: expect.stringContaining(`did not answer within ${CONNECT_ANSWER_TIMEOUT_MS / 1000} s`) });
      expect(elapsedSince(t1)).toBeLessThan(CONNECT_ANSWER_TIMEOUT_MS + SLACK_MS);

      signalPid(own.pid, "SIGCONT");
      await reconnectRedis(redis);
      expect(await store.getFile("a.ts")).not.toBeNull();
    },
    ANSWER_TIMEOUT_MS + CONNECT_ANSWER_TIMEOUT_MS + 20_000,
  );
});
