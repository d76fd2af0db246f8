// A text file's `files` value is written from its bytes instead of through JSON.stringify; readers parse
// it back, so it must be valid JSON giving exactly the lines splitLines gives, for any text a worker
// accepts (valid UTF-8 without NUL bytes).
import { describe, expect, it } from "vitest";
import { fileDataJson, fileDataJsonRoom, splitLines, writeFileDataJson } from "../../../src/workers/file-json.js";

const tail = { hash: "00ff00ff00ff00ff", size: 1234, lastModified: 1_732_900_000_123 };
const utf8 = new TextEncoder();
const decode = (b: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(b);

/** What JSON.stringify gives for the same file: the reference the bytes must agree with. */
function reference(text: string): unknown {
  return { lines: splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), ...tail };
}

describe("FileData JSON from a file's bytes", () => {
  it.each([
    ["an empty file", ""],
    ["a lone newline", "\n"],
    ["a lone CRLF", "\r\n"],
    ["no trailing newline", "const a = 1;\nconst b = 2;"],
    ["a trailing newline", "const a = 1;\n"],
    ["two trailing newlines", "a\n\n"],
    ["CRLF line ends", "a\r\nb\r\n"],
    ["a lone CR inside and at the end", "a\rb\nc\r"],
    ["mixed CRLF and LF", "a\r\nb\nc\r\n\r\n"],
    ["quotes and backslashes", 'const s = "a\\"b"; const re = /\\d+\\\\/;\n'],
    ["tabs, form feed, backspace, escape and DEL", "\tx\f\b\u001b[31mred\u001b[0m\u007f\n"],
    ["Cyrillic and emoji", "// Привет, мир 👩‍💻🎉\nconst name = 'Ёжик';\n"],
    ["a BOM", "\uFEFFexport {};\n"],
    ["U+2028 and U+2029", "a\u2028b\u2029c\n"],
  ])("parses to the reference for %s", (_label, text) => {
    const json = decode(fileDataJson(utf8.encode(text), tail));
    expect(JSON.parse(json)).toEqual(reference(text));
  });

  it("keeps the field order JSON.stringify gives", () => {
    expect(decode(fileDataJson(utf8.encode("a\nb"), tail))).toBe(JSON.stringify({ lines: ["a", "b"], ...tail }));
  });

  it("agrees with the reference on generated text full of line breaks, escapes and multibyte characters", () => {
    const alphabet = ["a", "z", " ", "\n", "\r", "\r\n", '"', "\\", "\t", "\u0001", "\u001f", "é", "я", "€", "😀", "\u2028", "}", "/"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const length = next() % 60;
      const text = Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
      expect(JSON.parse(decode(fileDataJson(utf8.encode(text), tail))), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it("reports a buffer too small for six-byte escapes instead of writing past it", () => {
    const src = utf8.encode("\u0001".repeat(100));
    const small = new Uint8Array(fileDataJsonRoom(src.length));
    expect(writeFileDataJson(src, tail, small, 0)).toBe(-1);
    const big = new Uint8Array(fileDataJsonRoom(src.length, true));
    const end = writeFileDataJson(src, tail, big, 0);
    expect(JSON.parse(decode(big.subarray(0, end)))).toEqual(reference("\u0001".repeat(100)));
    // fileDataJson retries with the larger room by itself.
    expect(JSON.parse(decode(fileDataJson(src, tail)))).toEqual(reference("\u0001".repeat(100)));
  });

  it("writes from an offset and stays inside the room it was promised", () => {
    const src = utf8.encode('x"\n'.repeat(1000));
    const at = 17;
    const out = new Uint8Array(at + fileDataJsonRoom(src.length));
    const end = writeFileDataJson(src, tail, out, at);
    expect(end).toBeLessThanOrEqual(out.length);
    expect(JSON.parse(decode(out.subarray(at, end)))).toEqual(reference('x"\n'.repeat(1000)));
  });
});
