// A transaction whose commands go to the socket one by one: ioredis's pipelines join every command's
// bytes into one new buffer first, which for a whole graph (≈ 18 MB) held the event loop ≈ 80 ms.
// Checked against a real Redis: the frames reach the socket as they are, the transaction is still
// one (a command sent just after stays outside it, a refused command aborts it all), errors come back.
import { Command, type Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeRedis, connectRedis } from "../../../src/main/store/connection.js";
import { FramedCommand, frameHset } from "../../../src/main/store/redis-commands.js";
import { execUnjoinedTransaction } from "../../../src/main/store/unjoined-transaction.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const server = useRedisServer();
let redis: Redis;

beforeAll(async () => void (redis = await connectRedis({ url: server().url })));
afterAll(() => closeRedis(redis));
beforeEach(async () => void (await redis.flushdb()));

/** `count` framed HSETs of 100 fields each into `key`, ≈ 100 KB apiece. */
function frames(key: string, count: number): Buffer[] {
  return Array.from({ length: count }, (_, f) => frameHset(key, Array.from({ length: 100 }, (_, i) => [`поле-${f}-${i}`, "ж".repeat(500)] as const)));
}

describe("a transaction sent command by command", () => {
  it("hands each frame to the socket as it is (never one joined buffer) and applies them all", async () => {
    const framed = frames("graph", 40);
    const stream = redis.stream as unknown as { write: (chunk: unknown, ...rest: unknown[]) => boolean };
    const write = stream.write;
    const written: unknown[] = [];
    stream.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      written.push(chunk);
      return write.call(this, chunk, ...rest);
    };
    try {
      await execUnjoinedTransaction(redis, framed.map((bytes) => new FramedCommand(bytes)));
    } finally {
      stream.write = write;
    }
    for (const bytes of framed) expect(written.some((chunk) => Buffer.isBuffer(chunk) && chunk.buffer === bytes.buffer && chunk.byteOffset === bytes.byteOffset)).toBe(true);
    const largest = Math.max(...written.map((chunk) => (typeof chunk === "string" ? Buffer.byteLength(chunk) : (chunk as Buffer).length)));
    expect(largest).toBe(Math.max(...framed.map((b) => b.length)));
    expect(await redis.hlen("graph")).toBe(4000);
    expect(await redis.hget("graph", "поле-39-99")).toBe("ж".repeat(500));
  });

  it("keeps a command sent right after it outside the transaction", async () => {
    await redis.set("other", "value");
    const done = execUnjoinedTransaction(redis, [new Command("set", ["inside", "1"]), ...frames("graph", 3).map((b) => new FramedCommand(b))]);
    // Issued while the transaction's replies are still on their way: answered on its own, not QUEUED.
    const other = redis.get("other");
    await done;
    expect(await other).toBe("value");
    expect(await redis.get("inside")).toBe("1");
  });

  it("applies nothing when Redis refuses to queue a command, and throws that command's error", async () => {
    const err = await execUnjoinedTransaction(redis, [new Command("hset", ["a", "f", "v"]), new Command("hset", ["b"])]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/wrong number of arguments/i);
    expect(await redis.exists("a")).toBe(0);
    // The connection is left as it was: the next command is answered normally.
    expect(await redis.ping()).toBe("PONG");
  });

  it("throws the error of a command that failed inside EXEC", async () => {
    await redis.set("text", "not a hash");
    const err = await execUnjoinedTransaction(redis, [new Command("hset", ["h", "f", "v"]), new Command("hset", ["text", "f", "v"])]).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/WRONGTYPE/);
    // Redis runs a transaction's other commands regardless (no rollback): said here so no caller assumes one.
    expect(await redis.hget("h", "f")).toBe("v");
  });
});
