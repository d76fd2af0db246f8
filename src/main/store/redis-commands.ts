// The Redis commands the store builds: batched HSET/HDEL, a transaction that fails on any error, and
// commands the index workers already framed.
import { Command, type Redis } from "ioredis";

/** `[field, serialised value]` pairs. Values are JSON text, or its UTF-8 bytes (packed by the index workers). */
export type FieldEntries = ReadonlyArray<readonly [string, string | Uint8Array]>;

/** Fields per HSET/HDEL command: keeps single commands (and argument spreads) bounded. */
const FIELDS_PER_COMMAND = 1000;

export type Pipeline = ReturnType<Redis["pipeline"]>;

export function addHset(pipeline: Pipeline, key: string, entries: FieldEntries | undefined): void {
  if (!entries?.length) return;
  for (let i = 0; i < entries.length; i += FIELDS_PER_COMMAND) {
    const args: (string | Buffer)[] = [];
    const end = Math.min(entries.length, i + FIELDS_PER_COMMAND);
    for (let j = i; j < end; j++) {
      const [field, value] = entries[j]!;
      // ioredis writes Buffers as they are; a bare Uint8Array would be stringified. Same memory, no copy.
      args.push(field, typeof value === "string" || Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
    pipeline.hset(key, ...args);
  }
}

export async function execTransaction(multi: Pipeline): Promise<void> {
  const results = await multi.exec();
  if (results === null) throw new Error("transaction aborted");
  for (const [err] of results) if (err) throw err;
}

/**
 * A command the index workers already framed: ioredis writes its bytes as they are and reads its reply
 * like any other (one command, one reply), so it can go out between ordinary ones.
 */
export class FramedCommand extends Command {
  private readonly framed: Buffer;

  constructor(bytes: Uint8Array) {
    super("hset", []);
    this.framed = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  override toWritable(): Buffer {
    return this.framed;
  }
}

/**
 * One HSET as RESP bytes, for a pipeline that sends many string fields at once (the graph's). Given as
 * strings, ioredis leaves them strings, and when the socket is busy Node queues them and later encodes
 * every queued one in a single synchronous write: a 38K-file index stalled its event loop ≈ 0.2 s there.
 * Framed here, the encoding happens chunk by chunk as the fields are produced: the command is built as
 * one string and encoded once (a third faster than writing each part into a buffer).
 */
export function frameHset(key: string, entries: ReadonlyArray<readonly [string, string]>): Buffer {
  let text = `*${2 + entries.length * 2}\r\n$4\r\nHSET\r\n$${Buffer.byteLength(key)}\r\n${key}\r\n`;
  for (let i = 0; i < entries.length; i++) {
    const [field, value] = entries[i]!;
    text += `$${Buffer.byteLength(field)}\r\n${field}\r\n$${Buffer.byteLength(value)}\r\n${value}\r\n`;
  }
  return Buffer.from(text, "utf8");
}

export function addHdel(pipeline: Pipeline, key: string, fields: readonly string[]): void {
  for (const chunk of fieldChunks(fields)) pipeline.hdel(key, ...chunk);
}

/** The HDELs of `fields`, as commands to send on their own (execUnjoinedTransaction). */
export function hdelCommands(key: string, fields: readonly string[]): Command[] {
  return fieldChunks(fields).map((chunk) => new Command("hdel", [key, ...chunk]));
}

function fieldChunks(fields: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < fields.length; i += FIELDS_PER_COMMAND) out.push(fields.slice(i, i + FIELDS_PER_COMMAND));
  return out;
}
