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

/** Bytes of a RESP bulk string of `payload` bytes: `$<len>\r\n<payload>\r\n`. */
const bulkBytes = (payload: number) => String(payload).length + payload + 5;

/**
 * One HSET as RESP bytes, for a pipeline that sends many string fields at once (the graph's). Given as
 * strings, ioredis leaves them strings, and when the socket is busy Node queues them and later encodes
 * every queued one in a single synchronous write: a 38K-file index stalled its event loop ≈ 0.2 s there.
 * Framed here, the encoding happens chunk by chunk as the fields are produced.
 */
export function frameHset(key: string, entries: ReadonlyArray<readonly [string, string]>): Buffer {
  const argc = 2 + entries.length * 2;
  const lengths = new Array<number>(entries.length * 2);
  let size = String(argc).length + 3 + bulkBytes(4) + bulkBytes(Buffer.byteLength(key));
  entries.forEach(([field, value], i) => {
    size += bulkBytes((lengths[i * 2] = Buffer.byteLength(field))) + bulkBytes((lengths[i * 2 + 1] = Buffer.byteLength(value)));
  });
  const out = Buffer.allocUnsafe(size);
  let at = out.write(`*${argc}\r\n$4\r\nHSET\r\n`, 0, "latin1");
  const bulk = (text: string, bytes: number) => {
    at += out.write(`$${bytes}\r\n`, at, "latin1");
    at += out.write(text, at, "utf8");
    at += out.write("\r\n", at, "latin1");
  };
  bulk(key, Buffer.byteLength(key));
  entries.forEach(([field, value], i) => {
    bulk(field, lengths[i * 2]!);
    bulk(value, lengths[i * 2 + 1]!);
  });
  return out;
}

export function addHdel(pipeline: Pipeline, key: string, fields: readonly string[]): void {
  for (let i = 0; i < fields.length; i += FIELDS_PER_COMMAND) pipeline.hdel(key, ...fields.slice(i, i + FIELDS_PER_COMMAND));
}
