// The `project:{name}:files` value of a text file, FileData as JSON: {"lines":[…],"hash","size",
// "lastModified"}. Written straight from the file's UTF-8 bytes (validated by the caller): splitting
// the decoded text into line strings, JSON.stringify and encoding back to UTF-8 cost a worker ≈ 2.5×
// as much on a 12K-file index and left ~1M short-lived strings for its GC.
// The text parses to what `splitLines` gives: lines split on LF, CRLF or a lone CR (old Mac files, as
// editors and the TypeScript compiler read them), no extra empty line after a trailing newline, a
// leading BOM dropped (the parser never sees it either).

import type { FileData } from "./ast-types.js";

/** The lines a file's text is stored as. The byte writer below must agree with it (tests check). */
export function splitLines(text: string): string[] {
  // A plain split is about twice as fast as the regex one, and most files have no CR at all.
  const lines = text.includes("\r") ? text.split(/\r\n?|\n/) : text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** FileData's fields after `lines`. */
export type FileDataTail = Omit<FileData, "lines">;

const encoder = new TextEncoder();
const HEAD = encoder.encode('{"lines":["');
/** `{"lines":["`, `"]` and the tail (a 16-digit hash, two numbers) fit in this. */
const FIXED_ROOM = 128;
/** What `"]` and the tail may take. */
const TAIL_ROOM = FIXED_ROOM - HEAD.length;
const [QUOTE, COMMA, BACKSLASH, LF, CR, U] = [0x22, 0x2c, 0x5c, 0x0a, 0x0d, 0x75];
/** Per byte: 0 = copied as is; else the letter after the backslash of its escape (\u00XX: "u"). LF ends a line. */
const ESCAPE = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) ESCAPE[c] = U;
for (const [c, letter] of [[0x08, "b"], [0x09, "t"], [0x0a, "n"], [0x0c, "f"], [CR, "r"], [QUOTE, '"'], [BACKSLASH, "\\"]] as const) ESCAPE[c] = letter.charCodeAt(0);
const HEX = encoder.encode("0123456789abcdef");

/**
 * Room that always suffices unless the file holds control characters other than \b \t \n \f \r (those
 * take six bytes each); writeFileDataJson then returns -1 and needs sixfold room.
 */
export function fileDataJsonRoom(sourceBytes: number, worstCase = false): number {
  return sourceBytes * (worstCase ? 6 : 3) + FIXED_ROOM;
}

/** Writes the JSON into `out` from `at`; returns where it ends, or -1 when `out` turned out too small. */
export function writeFileDataJson(src: Uint8Array, tail: FileDataTail, out: Uint8Array, at: number): number {
  out.set(HEAD, at);
  const o = writeLines(src, out, at + HEAD.length);
  if (o === -1) return -1;
  const rest = `"],"hash":${JSON.stringify(tail.hash)},"size":${tail.size},"lastModified":${tail.lastModified}}`;
  return o + encoder.encodeInto(rest, out.subarray(o)).written;
}

/**
 * The lines, escaped, joined by `","`. Only the loop, with no calls after it: V8 optimises a long first
 * run of it on the stack, and code after the loop that had never run would throw that away at every call.
 */
function writeLines(src: Uint8Array, out: Uint8Array, from: number): number {
  const n = src.length;
  let i = n >= 3 && src[0] === 0xef && src[1] === 0xbb && src[2] === 0xbf ? 3 : 0;
  let o = from;
  for (; i < n; i++) {
    const c = src[i] as number;
    const escape = ESCAPE[c] as number;
    if (escape === 0) {
      out[o++] = c;
      continue;
    }
    if (c === LF) {
      if (i + 1 === n) break; // a trailing newline adds no empty line
      out[o++] = QUOTE;
      out[o++] = COMMA;
      out[o++] = QUOTE;
      continue;
    }
    if (c === CR) {
      if (src[i + 1] === LF) continue; // CRLF ends a line like LF
      if (i + 1 === n) break; // so does a lone CR, without an empty line after a trailing one
      out[o++] = QUOTE;
      out[o++] = COMMA;
      out[o++] = QUOTE;
      continue;
    }
    out[o++] = BACKSLASH;
    if (escape !== U) {
      out[o++] = escape;
      continue;
    }
    // \u00XX: the only escape longer than three bytes, so the only place the room can run out. The
    // bytes after it take three at most each, unless they are such escapes too (checked then).
    if (o + 5 + (n - i - 1) * 3 + TAIL_ROOM > out.length) return -1;
    out[o++] = U;
    out[o++] = 0x30;
    out[o++] = 0x30;
    out[o++] = HEX[c >> 4] as number;
    out[o++] = HEX[c & 15] as number;
  }
  return o;
}

/** The JSON as its own bytes (values that are not framed into a task's arena). */
export function fileDataJson(src: Uint8Array, tail: FileDataTail): Uint8Array {
  let out = new Uint8Array(fileDataJsonRoom(src.length));
  let end = writeFileDataJson(src, tail, out, 0);
  if (end === -1) {
    out = new Uint8Array(fileDataJsonRoom(src.length, true));
    end = writeFileDataJson(src, tail, out, 0);
    if (end === -1) throw new Error("file JSON outgrew its worst-case room"); // cannot happen: see writeFileDataJson
  }
  return out.slice(0, end);
}
