// Rebuilding a file's exact bytes from the index's lines: every shape the index flattens (CRLF, BOM,
// final newline or not) comes back byte for byte, checked against the stored size and hash; what cannot
// be rebuilt exactly (mixed line endings, another version) comes back as nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesFromLines, indexedBytes } from "../../../src/main/checkpoints/index-copy.js";
import { diffWalks, walkProject } from "../../../src/main/checkpoints/project-walk.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { splitLines } from "../../../src/workers/file-json.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

async function roundTrip(text: string): Promise<Buffer | null> {
  const bytes = Buffer.from(text, "utf8");
  const lines = splitLines(text.replace(/^\uFEFF/, ""));
  return bytesFromLines(lines, { size: bytes.length, hash: await hashContent(bytes) });
}

describe("the index's copy of a file", () => {
  it.each([
    ["LF with a final newline", "a\nb\n"],
    ["LF without a final newline", "a\nb"],
    ["CRLF", "a\r\nb\r\n"],
    ["CRLF without a final newline", "a\r\nb"],
    ["CR only (old Mac)", "a\rb\r"],
    ["a BOM", "\uFEFFexport const x = 1;\n"],
    ["an empty file", ""],
    ["a lone newline", "\n"],
  ])("rebuilds %s byte for byte", async (_name, text) => {
    const rebuilt = await roundTrip(text);
    expect(rebuilt?.toString("utf8")).toBe(text);
  });

  it("gives nothing for mixed line endings or a hash of another version", async () => {
    expect(await roundTrip("a\r\nb\nc\n")).toBeNull();
    const bytes = Buffer.from("a\nb\n");
    expect(await bytesFromLines(["a", "b"], { size: bytes.length, hash: "0000000000000000" })).toBeNull();
    const store = { getFile: async () => ({ kind: "text" as const, lines: ["a", "b"], hash: await hashContent(bytes), size: 4, lastModified: 0 }) };
    expect(await indexedBytes(store, "x.ts", { size: 4, hash: "ffffffffffffffff" })).toBeNull();
    expect((await indexedBytes(store, "x.ts", { size: 4, hash: await hashContent(bytes) }))?.toString()).toBe("a\nb\n");
    expect(await indexedBytes({ getFile: async () => null }, "x.ts", { size: 4, hash: "x" })).toBeNull();
  });
});

describe("project walks around a command", () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir("ipuaro-walk-");
    writeTree(root, { "a.ts": "1", "b.md": "2", "ignored/x.ts": "3", ".gitignore": "ignored/\n", "home/blob": "4", "c.ts": "5" });
  });
  afterAll(() => removeDir(root));

  it("sees created, changed and deleted files of every type, minus ignored folders and ipuaro's home", async () => {
    const opts = { ignorePatterns: [], limit: 100, exclude: [path.join(root, "home")] };
    const before = (await walkProject(root, opts))!.files;
    expect([...before.keys()].sort()).toEqual([".gitignore", "a.ts", "b.md", "c.ts"]);
    fs.appendFileSync(path.join(root, "b.md"), "more");
    fs.rmSync(path.join(root, "c.ts"));
    fs.writeFileSync(path.join(root, "d.txt"), "new");
    fs.writeFileSync(path.join(root, "ignored", "y.ts"), "ignored");
    const after = (await walkProject(root, opts))!.files;
    expect(diffWalks(before, after)).toEqual({ created: ["d.txt"], changed: ["b.md"], deleted: ["c.ts"] });
    expect(await walkProject(root, { ...opts, limit: 2 })).toBeNull();
  });
});
