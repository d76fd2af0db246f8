import { describe, expect, it } from "vitest";
import { changedRegion, contentLines, dominantEol, inFileEols, looksLineNumbered, mapRange, spliceText, splitWithEols, unifiedDiff } from "../../../src/main/tools/edit-text.js";

describe("splitWithEols", () => {
  it.each([
    ["", [""], [""]],
    ["a", ["a"], [""]],
    ["a\n", ["a"], ["\n"]],
    ["a\r\nb\n", ["a", "b"], ["\r\n", "\n"]],
    ["a\n\n", ["a", ""], ["\n", "\n"]],
    ["a\rb", ["a", "b"], ["\r", ""]],
    ["a\r\rb\r", ["a", "", "b"], ["\r", "\r", "\r"]],
  ])("%j", (text, lines, eols) => {
    expect(splitWithEols(text)).toEqual({ lines, eols });
  });
});

describe("contentLines", () => {
  it.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a"]],
    ["\n", [""]],
    ["a\r\nb", ["a", "b"]],
    ["a\n\n", ["a", ""]],
    ["a\rb\r", ["a", "b"]],
  ])("%j", (content, lines) => {
    expect(contentLines(content)).toEqual(lines);
  });
});

describe("spliceText", () => {
  it("replaces, keeping CRLF and the trailing newline", () => {
    expect(spliceText("a\r\nb\r\nc\r\n", 2, 2, ["B1", "B2"])).toBe("a\r\nB1\r\nB2\r\nc\r\n");
  });
  it("keeps a missing trailing newline when the last line is replaced or appended to", () => {
    expect(spliceText("a\nb", 2, 2, ["B"])).toBe("a\nB");
    expect(spliceText("a\nb", 3, 2, ["c"])).toBe("a\nb\nc");
  });
  it("inserts with end = start - 1", () => {
    expect(spliceText("a\nb\n", 1, 0, ["x"])).toBe("x\na\nb\n");
    expect(spliceText("a\nb\n", 2, 1, ["x"])).toBe("a\nx\nb\n");
    expect(spliceText("a\nb\n", 3, 2, ["x"])).toBe("a\nb\nx\n");
  });
  it("deletes lines with empty content, including the last ones", () => {
    expect(spliceText("a\nb\nc\n", 2, 2, [])).toBe("a\nc\n");
    expect(spliceText("a\nb\nc", 3, 3, [])).toBe("a\nb");
    expect(spliceText("a\n", 1, 1, [])).toBe("");
  });
  it("keeps the terminators of untouched lines in a mixed file; new lines take the majority", () => {
    expect(spliceText("a\nb\r\nc\r\nd\r\ne\n", 4, 4, ["D", "E"])).toBe("a\nb\r\nc\r\nD\r\nE\r\ne\n");
  });
  it("gives an empty file LF lines and a final newline", () => {
    expect(spliceText("", 1, 1, ["x", "y"])).toBe("x\ny\n");
    expect(spliceText("", 1, 0, ["x"])).toBe("x\n");
  });
  it("keeps a BOM-free text untouched outside the range", () => {
    const text = "  indented\t\n\ttabs  \n";
    expect(spliceText(text, 3, 2, ["end"])).toBe(`${text}end\n`);
  });
});

describe("mapRange", () => {
  const seen = ["a", "b", "c", "d", "e"];
  it("follows lines inserted above the range", () => {
    expect(mapRange(seen, ["x", "y", ...seen], 3, 4)).toEqual({ start: 5, end: 6 });
  });
  it("follows lines removed above and ignores changes below", () => {
    expect(mapRange(seen, ["b", "c", "d", "E!"], 2, 3)).toEqual({ start: 1, end: 2 });
  });
  it("is null when a line of the range changed or lines were inserted inside it", () => {
    expect(mapRange(seen, ["a", "b", "C!", "d", "e"], 2, 4)).toBeNull();
    expect(mapRange(seen, ["a", "b", "new", "c", "d", "e"], 2, 3)).toBeNull();
  });
  it("maps insertion points by their neighbours", () => {
    expect(mapRange(seen, ["x", ...seen], 3, 2)).toEqual({ start: 4, end: 3 });
    expect(mapRange(seen, ["x", ...seen], 6, 5)).toEqual({ start: 7, end: 6 });
    expect(mapRange(seen, ["x", ...seen], 1, 0)).toEqual({ start: 2, end: 1 });
    expect(mapRange(seen, ["a", "b", "new", "c", "d", "e"], 3, 2)).toBeNull();
  });
});

describe("helpers", () => {
  it("dominantEol", () => {
    expect(dominantEol(["\r\n", "\r\n", "\n"])).toBe("\r\n");
    expect(dominantEol(["\n", "\r\n"])).toBe("\n");
    expect(dominantEol([""])).toBe("\n");
    expect(dominantEol(["\r", "\r", "\n", ""])).toBe("\r");
    expect(dominantEol(["\r", "\n"])).toBe("\n");
  });
  it("inFileEols converts an editor's LF text for a CRLF or CR file only", () => {
    expect(inFileEols("a\nb\n", "\r")).toBe("a\rb\r");
    expect(inFileEols("a\nb\n", "\r\n")).toBe("a\r\nb\r\n");
    expect(inFileEols("a\r\nb\n", "\r\n")).toBe("a\r\nb\n");
    expect(inFileEols("a\nb\n", "\n")).toBe("a\nb\n");
  });
  it("looksLineNumbered spots pasted get_lines output", () => {
    expect(looksLineNumbered([" 9│ const a = 1;", "10│ const b = 2;", ""])).toBe(true);
    expect(looksLineNumbered(["const a = 1;", "10│ x"])).toBe(false);
    expect(looksLineNumbered([])).toBe(false);
  });
  it("changedRegion", () => {
    expect(changedRegion(["a", "b", "c"], ["a", "x", "y", "c"])).toEqual({ oldStart: 2, oldEnd: 2, newStart: 2, newEnd: 3 });
    expect(changedRegion(["a", "c"], ["a", "b", "c"])).toEqual({ oldStart: 2, oldEnd: 1, newStart: 2, newEnd: 2 });
  });
  it("unifiedDiff uses relative a/ b/ paths and /dev/null for new and deleted files", () => {
    const diff = unifiedDiff("src/a.ts", ["one", "two"], ["one", "2"]);
    expect(diff).toBe(["--- a/src/a.ts", "+++ b/src/a.ts", "@@ -1,2 +1,2 @@", " one", "-two", "+2"].join("\n"));
    expect(unifiedDiff("n.ts", null, ["x"])).toMatch(/^--- \/dev\/null\n\+\+\+ b\/n\.ts\n@@ -0,0 \+1,1 @@\n\+x$/);
    expect(unifiedDiff("n.ts", ["x"], null)).toMatch(/^--- a\/n\.ts\n\+\+\+ \/dev\/null/);
  });
});
