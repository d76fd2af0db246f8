// The workers frame values as HSET commands in Redis's wire format; a wrong byte count would make
// Redis read the rest of the pipeline as garbage, so the framing is checked against a RESP reader.
import { describe, expect, it } from "vitest";
import { ValueArena } from "../../../src/workers/value-arena.js";

const utf8 = new TextDecoder();

/** Reads one RESP array of bulk strings; returns its arguments and the bytes it spanned. */
function readCommand(bytes: Uint8Array, from = 0): { args: string[]; end: number } {
  let at = from;
  const line = () => {
    const cr = bytes.indexOf(13, at);
    expect(bytes[cr + 1]).toBe(10);
    const text = utf8.decode(bytes.subarray(at, cr));
    at = cr + 2;
    return text;
  };
  const head = line();
  expect(head[0]).toBe("*");
  const args: string[] = [];
  for (let i = 0; i < Number(head.slice(1)); i++) {
    const len = line();
    expect(len[0]).toBe("$");
    const n = Number(len.slice(1));
    args.push(utf8.decode(bytes.subarray(at, at + n)));
    at += n;
    expect([bytes[at], bytes[at + 1]]).toEqual([13, 10]);
    at += 2;
  }
  return { args, end: at };
}

describe("ValueArena", () => {
  it("frames HSET commands whose byte counts hold for ASCII, Cyrillic, emoji and empty values", () => {
    const arena = new ValueArena();
    // "я" × 9 and × 50: two bytes a character, so the header needs one digit more than the length suggests.
    const values = ["plain", "Привет, мир", "👩‍💻 emoji 🎉", "", "x".repeat(123_456), "я".repeat(9), "я".repeat(50)];
    arena.beginCommand(2 + values.length * 2, "HSET", "project:{a-b}:files");
    const slots = values.map((v, i) => (arena.bulk(`src/файл-${i}.ts`), arena.bulk(v)));
    arena.endCommand();
    arena.beginCommand(4, "HSET", "project:{a-b}:ast");
    arena.bulk("k");
    arena.bulk("{}");
    arena.endCommand();
    const { buffer, view, commands } = arena.finish();
    expect(commands).toHaveLength(2);
    expect(commands[0]!.buffer).toBe(buffer);
    const first = readCommand(commands[0]!);
    expect(first.end).toBe(commands[0]!.byteLength);
    expect(first.args).toEqual(["HSET", "project:{a-b}:files", ...values.flatMap((v, i) => [`src/файл-${i}.ts`, v])]);
    expect(readCommand(commands[1]!).args).toEqual(["HSET", "project:{a-b}:ast", "k", "{}"]);
    // The views are the payloads, for the graph to read the facts without a copy.
    expect(slots.map((s) => utf8.decode(view(s)))).toEqual(values);
  });

  it("grows past its first megabyte and starts clean after a reset", () => {
    const arena = new ValueArena();
    const big = "я".repeat(700_000); // 1.4 MB in UTF-8
    arena.beginCommand(4, "HSET", "h");
    arena.bulk("f");
    const slot = arena.bulk(big);
    arena.endCommand();
    expect(utf8.decode(arena.finish().view(slot))).toBe(big);
    arena.reset();
    expect(arena.isEmpty).toBe(true);
    arena.beginCommand(4, "HSET", "h");
    arena.bulk("f");
    arena.bulk("v");
    arena.endCommand();
    const { commands } = arena.finish();
    expect(readCommand(commands[0]!).args).toEqual(["HSET", "h", "f", "v"]);
  });

  it("refuses commands that are not opened and closed in turn", () => {
    const arena = new ValueArena();
    expect(() => arena.endCommand()).toThrow(/no command/);
    arena.beginCommand(2, "PING", "x");
    expect(() => arena.beginCommand(2, "PING", "y")).toThrow(/already open/);
    expect(() => arena.finish()).toThrow(/still open/);
  });
});

describe("ValueArena.bulkWritten", () => {
  it("frames what the writer wrote whatever the guess, and adds nothing when the writer runs out of room", () => {
    const arena = new ValueArena();
    const payload = new TextEncoder().encode("x".repeat(1500));
    const write = (bytes: Uint8Array, at: number) => (bytes.set(payload, at), at + payload.length);
    arena.beginCommand(8, "HSET", "h");
    arena.bulk("short guess");
    const a = arena.bulkWritten(9, payload.length, write); // header guessed one digit short
    arena.bulk("long guess");
    const b = arena.bulkWritten(123_456, payload.length, write); // and three digits long
    arena.bulk("refused");
    expect(arena.bulkWritten(10, 10, () => -1)).toBe(-1);
    const c = arena.bulkWritten(2, 2, (bytes, at) => (bytes.set([123, 125], at), at + 2));
    arena.endCommand();
    const { view, commands } = arena.finish();
    expect(readCommand(commands[0]!).args).toEqual(["HSET", "h", "short guess", "x".repeat(1500), "long guess", "x".repeat(1500), "refused", "{}"]);
    expect([a, b, c].map((s) => utf8.decode(view(s)).length)).toEqual([1500, 1500, 2]);
  });
});
