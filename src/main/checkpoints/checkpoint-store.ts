// Checkpoint records in Redis, inside the session's own hash (`session:{id}:data`), so they share its
// lifetime: deleting the session deletes them, its TTL covers them, and SessionStore ignores fields
// that are not `e:` entries. Fields:
//   cp:<userEntryId>  CheckpointData JSON (hashes only, never file contents)
//   cf:<path>         the file's first record ever: the fallback when a checkpoint lacks the file
//   cw:<path>         sha256 of what ipuaro last wrote there ("-" = it deleted the file)
//   cp-seq            counter ordering the checkpoints
// Every update is a single HSET/HDEL, so a kill never leaves half a checkpoint.
import { redisOp, scanKeys, sessionDataKey, type Redis } from "./store-access.js";
import type { CheckpointData, FileRecord } from "./checkpoint-types.js";

const CHECKPOINT = "cp:";
const FIRST = "cf:";
const WRITTEN = "cw:";
const SEQ = "cp-seq";
const DELETED = "-";

export interface StoredCheckpoints {
  /** Oldest first (by seq). */
  checkpoints: CheckpointData[];
  first: Map<string, FileRecord>;
  /** null = ipuaro's last action on the file was deleting it. */
  written: Map<string, string | null>;
}

function parse<T>(raw: string): T | null {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function isCheckpoint(v: unknown): v is CheckpointData {
  const c = v as Partial<CheckpointData> | null;
  return !!c && c.v === 1 && typeof c.userEntryId === "string" && typeof c.seq === "number" && typeof c.files === "object" && c.files !== null;
}

function isRecord(v: unknown): v is FileRecord {
  const r = v as Partial<FileRecord> | null;
  if (!r) return false;
  if (r.state === "symlink") return typeof r.target === "string";
  return r.state === "file" || r.state === "absent" || r.state === "skipped";
}

export class CheckpointStore {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    readonly sessionId: string,
  ) {
    this.key = sessionDataKey(sessionId);
  }

  private op<T>(action: string, fn: () => Promise<T>): Promise<T> {
    return redisOp(this.redis, `${action} (session ${this.sessionId})`, fn);
  }

  /** Everything stored; records that do not parse are ignored (a rewind then lacks them, nothing worse). */
  async load(): Promise<StoredCheckpoints> {
    const out: StoredCheckpoints = { checkpoints: [], first: new Map(), written: new Map() };
    await this.op("loading checkpoints", async () => {
      let cursor = "0";
      do {
        const [next, flat] = await this.redis.hscan(this.key, cursor, "MATCH", "c[pfw]:*", "COUNT", 500);
        cursor = next;
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const field = flat[i]!;
          const value = flat[i + 1]!;
          if (field.startsWith(CHECKPOINT)) {
            const c = parse<unknown>(value);
            if (isCheckpoint(c)) out.checkpoints.push(c);
          } else if (field.startsWith(FIRST)) {
            const r = parse<unknown>(value);
            if (isRecord(r)) out.first.set(field.slice(FIRST.length), r);
          } else if (field.startsWith(WRITTEN)) {
            out.written.set(field.slice(WRITTEN.length), value === DELETED ? null : value);
          }
        }
      } while (cursor !== "0");
    });
    // HSCAN may return a field twice; the last copy wins.
    const byId = new Map(out.checkpoints.map((c) => [c.userEntryId, c]));
    out.checkpoints = [...byId.values()].sort((a, b) => a.seq - b.seq);
    return out;
  }

  nextSeq(): Promise<number> {
    return this.op("numbering a checkpoint", () => this.redis.hincrby(this.key, SEQ, 1));
  }

  /** Stores (or rewrites) a checkpoint together with first records of files new to the session. */
  async save(checkpoint: CheckpointData, firstRecords: Iterable<[string, FileRecord]> = []): Promise<void> {
    const fields: Record<string, string> = { [CHECKPOINT + checkpoint.userEntryId]: JSON.stringify(checkpoint) };
    for (const [path, record] of firstRecords) fields[FIRST + path] = JSON.stringify(record);
    await this.op("saving a checkpoint", () => this.redis.hset(this.key, fields));
  }

  async setWritten(entries: Iterable<[string, string | null]>): Promise<void> {
    const fields: Record<string, string> = {};
    for (const [path, hash] of entries) fields[WRITTEN + path] = hash ?? DELETED;
    if (Object.keys(fields).length === 0) return;
    await this.op("recording ipuaro's writes", () => this.redis.hset(this.key, fields));
  }

  async drop(userEntryIds: readonly string[]): Promise<void> {
    if (userEntryIds.length === 0) return;
    await this.op("dropping old checkpoints", () => this.redis.hdel(this.key, ...userEntryIds.map((id) => CHECKPOINT + id)));
  }
}

/** Blob hashes a record refers to. */
export function blobsOf(record: FileRecord): string[] {
  return record.state === "file" ? [record.blob] : [];
}

/**
 * Every blob any session in this Redis refers to (GC's mark phase): all `session:{…}:data` hashes are
 * scanned, whatever their project.
 */
export async function referencedBlobs(redis: Redis): Promise<Set<string>> {
  const refs = new Set<string>();
  await redisOp(redis, "listing the blobs checkpoints refer to", async () => {
    for await (const key of scanKeys(redis, "session:{*}:data")) {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key, cursor, "MATCH", "c[pf]:*", "COUNT", 500);
        cursor = next;
        for (let i = 1; i < flat.length; i += 2) {
          const value = parse<unknown>(flat[i]!);
          if (isCheckpoint(value)) {
            for (const r of Object.values(value.files)) if (isRecord(r)) for (const b of blobsOf(r)) refs.add(b);
          } else if (isRecord(value)) for (const b of blobsOf(value)) refs.add(b);
        }
      } while (cursor !== "0");
    }
  });
  return refs;
}
