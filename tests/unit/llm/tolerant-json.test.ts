import { describe, expect, it } from "vitest";
import { parseTolerantJson, repairJson, scanJsonEnd } from "../../../src/main/llm/tolerant-json.js";

describe("parseTolerantJson", () => {
  it.each([
    ['{"a": 1}', { a: 1 }, false],
    ["{'a': 'b',}", { a: "b" }, true],
    ["[1, 2, 3,]", [1, 2, 3], true],
    ["{a: None, b: False, c: True}", { a: null, b: false, c: true }, true],
    ['{"s": "line1\nline2\ttab"}', { s: "line1\nline2\ttab" }, true],
    ["{'q': 'say \"hi\"', 'r': \"it's\"}", { q: 'say "hi"', r: "it's" }, true],
    ['{"a": 1 /* note */, // more\n "b": 2}', { a: 1, b: 2 }, true],
    ['{"url": "http://x/y"}', { url: "http://x/y" }, false],
  ])("reads %j", (text, value, repaired) => {
    expect(parseTolerantJson(text)).toEqual({ ok: true, value, repaired });
  });

  it.each(['{"a": ', '{"a": "unterminated', "{a: b c}", ""])("reports %j as an error, with JSON.parse's message", (text) => {
    const result = parseTolerantJson(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.length).toBeGreaterThan(0);
  });

  it("leaves commas and comment-like text inside strings alone", () => {
    expect(JSON.parse(repairJson('{"a": "x, ]", "b": "// not a comment"}'))).toEqual({ a: "x, ]", b: "// not a comment" });
  });
});

describe("scanJsonEnd", () => {
  it("finds the end of an object, skipping brackets in both kinds of strings", () => {
    const text = `pre {"a": "}", 'b': ']', "c": [1, {"d": "\\"}"}]} post`;
    expect(text.slice(4, scanJsonEnd(text, 4))).toBe(`{"a": "}", 'b': ']', "c": [1, {"d": "\\"}"}]}`);
  });

  it("returns -1 when the text ends first", () => {
    expect(scanJsonEnd('{"a": [1, 2', 0)).toBe(-1);
  });
});
