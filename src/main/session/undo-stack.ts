// The session's undo stack in Redis (`session:{id}:undo`, a list, newest first, capped at
// `undo.stackSize`). An entry is pushed BEFORE its file is written, so a crash never loses the way back.
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { IpuaroError } from "../errors.js";
import { redisOp } from "../store/connection.js";
import { sessionUndoKey } from "../store/keys.js";
import type { EditRecord } from "../tools/tool-types.js";
import { SESSION_TTL_SECONDS } from "./session-store.js";
import type { UndoEntry } from "./session-types.js";

export class UndoStack {
  readonly key: string;

  constructor(
    private readonly redis: Redis,
    readonly sessionId: string,
    readonly stackSize: number,
    private readonly opts: { persistIndefinitely?: boolean } = {},
  ) {
    if (!Number.isInteger(stackSize) || stackSize < 1) throw new Error(`undo.stackSize must be a positive integer, got ${stackSize}`);
    this.key = sessionUndoKey(sessionId);
  }

  /** Stores the record as the newest entry; the oldest beyond stackSize fall off. */
  async push(record: EditRecord, now = Date.now()): Promise<UndoEntry> {
    const entry: UndoEntry = {
      id: `u-${now.toString(36)}-${randomBytes(3).toString("hex")}`,
      timestamp: now,
      filePath: record.filePath,
      previousContent: record.previousContent,
      newContent: record.newContent,
      description: record.description,
      tool: record.tool,
      ...(record.previousMode !== undefined ? { previousMode: record.previousMode } : {}),
      ...(record.createdFolder !== undefined ? { createdFolder: record.createdFolder } : {}),
    };
    await redisOp(this.redis, `saving the undo entry for ${record.filePath}`, async () => {
      const tx = this.redis.multi().lpush(this.key, JSON.stringify(entry)).ltrim(this.key, 0, this.stackSize - 1);
      if (this.opts.persistIndefinitely === false) tx.expire(this.key, SESSION_TTL_SECONDS);
      for (const [err] of (await tx.exec()) ?? []) if (err) throw err;
    });
    return entry;
  }

  /** Newest first. */
  async list(): Promise<UndoEntry[]> {
    const raw = await redisOp(this.redis, "reading the undo stack", () => this.redis.lrange(this.key, 0, -1));
    return raw.map((r) => this.parse(r));
  }

  async peek(): Promise<UndoEntry | null> {
    const raw = await redisOp(this.redis, "reading the undo stack", () => this.redis.lindex(this.key, 0));
    return raw === null ? null : this.parse(raw);
  }

  /** Removes the newest entry if it still is `id` (another process may have undone it meanwhile). */
  async drop(id: string): Promise<boolean> {
    return redisOp(this.redis, "updating the undo stack", async () => {
      const top = await this.redis.lindex(this.key, 0);
      if (top === null || this.parse(top).id !== id) return false;
      return (await this.redis.lrem(this.key, 1, top)) === 1;
    });
  }

  /**
   * Takes out the entries a code rewind made moot: edits of `paths` made at or after `since` (the
   * checkpoint's time), whose files are back as they were before them. Left in, the newest blocked
   * every undo ("changed after that edit") with no way past it.
   */
  async dropRewound(paths: ReadonlySet<string>, since: number): Promise<number> {
    if (!paths.size) return 0;
    return redisOp(this.redis, "updating the undo stack", async () => {
      let dropped = 0;
      for (const raw of await this.redis.lrange(this.key, 0, -1)) {
        const e = this.parse(raw);
        if (e.timestamp >= since && paths.has(e.filePath)) dropped += await this.redis.lrem(this.key, 1, raw);
      }
      return dropped;
    });
  }

  private parse(raw: string): UndoEntry {
    try {
      const e = JSON.parse(raw) as UndoEntry;
      if (typeof e.id === "string" && typeof e.filePath === "string") return e;
    } catch {
      // fall through
    }
    throw new IpuaroError("redis", `the undo stack of session ${this.sessionId} holds an unreadable entry`, {
      recoverable: false,
      suggestion: `Delete the list with \`redis-cli DEL ${this.key}\` (the edits themselves stay on disk).`,
    });
  }
}
