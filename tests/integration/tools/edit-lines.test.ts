import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEMP_MARKER } from "../../../src/main/fs/atomic-write.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { getLines } from "../../../src/main/tools/get-lines.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { externalWrite, openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";

let h: EditHarness | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = null;
});

async function open(answers: PortAnswers = {}): Promise<EditHarness> {
  h = await openEditHarness(server().url, answers);
  return h;
}

function run(harness: EditHarness, args: Record<string, unknown>) {
  return editLines.run("t", args, harness.ctx);
}

describe("edit_lines: only lines the model has been shown", () => {
  it("refuses lines no read showed, and a range read in the same reply; edits what an earlier reply read", async () => {
    const h = await open();
    const early = { ...h.ctx, reply: "reply-1" };
    const later = { ...h.ctx, reply: "reply-2" };
    expect((await getLines.run("r1", { path: STRINGS, start: 1, end: 4 }, early)).success).toBe(true);
    // Lines 9-11 were never shown: the numbers came from the outline or a guess.
    const unseen = await editLines.run("e1", { path: STRINGS, start: 9, end: 11, content: "export const x = 1;" }, later);
    expect(unseen).toMatchObject({ success: false, code: "CONFLICT" });
    expect(unseen.error).toContain(`line 9 of ${STRINGS} has not been shown to you; read lines 7-11 first (get_lines path=${STRINGS} start=7 end=11)`);
    // Read and edit in one reply: the edit was written before the read's result came.
    const same = { ...h.ctx, reply: "reply-3" };
    expect((await getLines.run("r2", { path: STRINGS, start: 8, end: 12 }, same)).success).toBe(true);
    const blind = await editLines.run("e2", { path: STRINGS, start: 9, end: 9, content: "export const y = 2;" }, same);
    expect(blind.error).toContain("you read those lines in this same reply");
    expect(h.read(STRINGS)).not.toContain("export const y = 2;");
    // The next reply may: the read's result has been seen by then.
    const next = { ...h.ctx, reply: "reply-4" };
    const ok = await editLines.run("e3", { path: STRINGS, start: 2, end: 2, content: "export function slugify(input: string): string { // seen" }, next);
    expect(ok.success, ok.error).toBe(true);
    // What the same-reply read showed counts from the next reply on.
    const below = await editLines.run("e4", { path: STRINGS, start: 10, end: 10, content: "export function truncate(input: string, max: number): string { // seen too" }, { ...h.ctx, reply: "reply-5" });
    expect(below.success, below.error).toBe(true);
  });
});

describe("edit_lines: the same edit sent again", () => {
  it("is refused while the file still has it (an insertion went in twice), and applies again once the file changed", async () => {
    const h = await open();
    await h.markRead(STRINGS);
    const args = { path: STRINGS, start: 2, end: 1, content: 'import { join } from "node:path";' };
    expect((await editLines.run("a", args, { ...h.ctx, reply: "r1" })).success).toBe(true);
    const again = await editLines.run("b", args, { ...h.ctx, reply: "r2" });
    expect(again).toMatchObject({ success: false, code: "INVALID_ARGS" });
    expect(again.error).toContain("this exact edit of packages/core/src/utils/strings.ts was just applied and the file still has it");
    expect(h.read(STRINGS).split('import { join } from "node:path";')).toHaveLength(2);
  });
});

describe("edit_lines: several edits of one file in one reply", () => {
  it("counts every range in the lines read before the reply, and refuses one that overlaps an earlier edit of it", async () => {
    const h = await open();
    const before = h.read(STRINGS).split("\n");
    await h.markRead(STRINGS);
    const reply = { ...h.ctx, reply: "reply-a" };
    // Line 2 becomes three lines; truncate's signature is still line 9 as the model read it.
    const first = await editLines.run("t1", { path: STRINGS, start: 2, end: 2, content: "/** Lower-case, dashed. */\nexport function slugify(input: string): string {\n  // ascii only" }, reply);
    expect(first.success).toBe(true);
    const second = await editLines.run("t2", { path: STRINGS, start: 9, end: 9, content: "export function truncate(input: string, max = 80): string {" }, reply);
    expect(second.success).toBe(true);
    expect(second.data).toMatch(/^edited \S+ lines 11-11 → 11-11/);
    const after = h.read(STRINGS).split("\n");
    expect(after).toEqual([
      before[0],
      "/** Lower-case, dashed. */",
      "export function slugify(input: string): string {",
      "  // ascii only",
      ...before.slice(2, 8),
      "export function truncate(input: string, max = 80): string {",
      ...before.slice(9),
    ]);
    // Line 3 as read is now inside what the first edit wrote: nothing is written, the current lines are shown.
    const overlap = await editLines.run("t3", { path: STRINGS, start: 2, end: 3, content: "export const slugify = (s: string) => s" }, reply);
    expect(overlap.success).toBe(false);
    expect(overlap.code).toBe("CONFLICT");
    expect(overlap.error).toContain("overlap what an earlier edit in this reply changed");
    expect(h.read(STRINGS).split("\n")).toEqual(after);

    // The next reply has seen the results: its numbers are the file's new ones.
    const next = await editLines.run("t4", { path: STRINGS, start: 11, end: 11, content: "export function truncate(input: string, max = 40): string {" }, { ...h.ctx, reply: "reply-b" });
    expect(next.success).toBe(true);
    expect(h.read(STRINGS).split("\n")[10]).toBe("export function truncate(input: string, max = 40): string {");
  });
});

describe("edit_lines", () => {
  it("replaces a range: undo entry first, own-write registered, atomic write, Redis current at once", async () => {
    const h = await open();
    const before = h.read(STRINGS);
    await h.markRead(STRINGS);
    const content = [
      "export function truncate(input: string, max: number): string {",
      "  if (max < 1) return \"\";",
      "  return input.length <= max ? input : `${input.slice(0, max - 1)}…`;",
      "}",
      "",
      "export const ellipsis = \"…\";",
    ].join("\n");
    const r = await run(h, { path: STRINGS, start: 9, end: 11, content, description: "guard max < 1" });

    expect(r.success).toBe(true);
    expect(r.data).toMatch(new RegExp(`^edited ${STRINGS} lines 9-11 → 9-14 \\(\\+3\\); the file now has 14 lines:\n 6│`));
    expect(r.data).toContain("14│ export const ellipsis = \"…\";");
    // The diff's count: the three lines kept from the range are not "removed and added".
    expect(r.display.summary).toBe("+3 -0");
    const after = h.read(STRINGS);
    expect(after).toBe(`${before.split("\n").slice(0, 8).join("\n")}\n${content}\n`);

    // Order: the undo entry and the own-write registration happen while the old content is still on disk.
    expect(h.calls.map((c) => [c.call, c.disk === before ? "old" : c.disk === after ? "new" : "?"])).toEqual([
      ["recordEdit", "old"],
      ["registerOwnWrite", "old"],
      ["refreshIndex", "new"],
    ]);
    const [record] = h.ctx.services.edits;
    expect(record).toMatchObject({ filePath: STRINGS, tool: "edit_lines", description: "guard max < 1" });
    expect(record!.previousContent!.join("\n")).toBe(before);
    expect(record!.newContent!.join("\n")).toBe(after);
    const newHash = await hashContent(Buffer.from(after));
    expect(h.ctx.services.ownWrites).toEqual([{ path: STRINGS, hash: newHash }]);

    // Redis: files, ast and the symbol index reflect the edit right after the call.
    const stored = await h.project.store.getFile(STRINGS);
    expect(stored).toMatchObject({ kind: "text", hash: newHash, lines: after.split("\n").slice(0, -1) });
    const ast = await h.project.store.getAst(STRINGS);
    expect(ast?.functions.find((f) => f.name === "truncate")).toMatchObject({ lineStart: 9, lineEnd: 12 });
    const sym = await h.project.redis.hget(h.project.store.keys.indexes, "sym:ellipsis");
    expect(JSON.parse(sym!)).toEqual([expect.objectContaining({ path: STRINGS, line: 14 })]);

    // The proposal the user saw.
    const [proposal] = h.ctx.ports.editProposals;
    expect(proposal).toMatchObject({ tool: "edit_lines", path: STRINGS, description: "guard max < 1", range: { start: 9, end: 11 }, newContent: after });
    expect(proposal!.diff).toContain(`--- a/${STRINGS}\n+++ b/${STRINGS}\n@@ -7,5 +7,8 @@`);
    expect(proposal!.diff).toContain('+  if (max < 1) return "";');

    // The model knows what it wrote: the next edit needs no new read.
    expect(h.ctx.session.readLedger.get(STRINGS)).toBe(newHash);
    const again = await run(h, { path: STRINGS, start: 14, end: 14, content: 'export const ELLIPSIS = "…";' });
    expect(again.success).toBe(true);
    expect(h.read(STRINGS)).toContain('export const ELLIPSIS = "…";\n');
    expect(fs.readdirSync(path.dirname(h.abs(STRINGS))).filter((n) => n.includes(TEMP_MARKER))).toEqual([]);
  });

  it("inserts with end = start - 1, appends with start = total + 1, deletes with empty content", async () => {
    const h = await open();
    await h.markRead(STRINGS);
    const insert = await run(h, { path: STRINGS, start: 2, end: 1, content: "// inserted above slugify\n" });
    expect(insert.data).toMatch(/^edited \S+: inserted 1 line before line 2 → lines 2-2 \(\+1\)/);
    expect(h.read(STRINGS).split("\n").slice(0, 3)).toEqual(['// TODO: handle Cyrillic transliteration ("привет" → "privet")', "// inserted above slugify", "export function slugify(input: string): string {"]);

    const append = await run(h, { path: STRINGS, start: 13, end: 12, content: "// the end" });
    expect(append.data).toMatch(/inserted 1 line at the end → lines 13-13 \(\+1\)/);
    expect(h.read(STRINGS).endsWith("}\n// the end\n")).toBe(true);

    const del = await run(h, { path: STRINGS, start: 1, end: 2, content: "" });
    expect(del.data).toMatch(/^edited \S+: deleted lines 1-2 \(-2\)/);
    expect(h.read(STRINGS).startsWith("export function slugify")).toBe(true);
    expect((await h.project.store.getFile(STRINGS))).toMatchObject({ lines: expect.arrayContaining(["// the end"]) });
    expect((await h.project.store.getAst(STRINGS))?.functions[0]).toMatchObject({ name: "slugify", lineStart: 1 });
  });

  it("a generated file: the dialog and the model are told the next generation undoes the change; a hand-written one says nothing", async () => {
    const h = await open();
    const GEN = "packages/core/src/types.generated.ts";
    await externalWrite(h, GEN, "// Code generated by graphql-codegen. DO NOT EDIT.\nexport type Id = string;\nexport type Name = string;\n");
    await h.markRead(GEN);
    const r = await run(h, { path: GEN, start: 2, end: 2, content: "export type Id = number;" });
    expect(r.success, r.error).toBe(true);
    expect(h.ctx.ports.editProposals.at(-1)!.generatedWarning).toBe(`${GEN} is generated code: regenerating it will undo this change; change what it is generated from if you can.`);
    expect(r.data).toMatch(/^Warning: packages\/core\/src\/types\.generated\.ts is generated code/);
    await h.markRead(STRINGS);
    const plain = await run(h, { path: STRINGS, start: 1, end: 1, content: "// a comment" });
    expect(plain.success).toBe(true);
    expect(h.ctx.ports.editProposals.at(-1)!.generatedWarning).toBeUndefined();
    expect(plain.data).not.toMatch(/generated/);
  });

  it("keeps CRLF endings, a BOM and a missing final newline", async () => {
    const h = await open();
    const rel = "packages/core/src/crlf.ts";
    await externalWrite(h, rel, "\uFEFFexport const a = 1;\r\nexport const b = 2;\r\nexport const c = 3;");
    await h.markRead(rel);
    const r = await run(h, { path: rel, start: 2, end: 3, content: "export const b = 20;\nexport const c = 30;\nexport const d = 40;\n" });
    expect(r.success).toBe(true);
    expect(fs.readFileSync(h.abs(rel))).toEqual(Buffer.from("\uFEFFexport const a = 1;\r\nexport const b = 20;\r\nexport const c = 30;\r\nexport const d = 40;"));
    expect(h.ctx.services.ownWrites[0]!.hash).toBe(await hashContent(fs.readFileSync(h.abs(rel))));
    expect((await h.project.store.getFile(rel))).toMatchObject({ lines: ["export const a = 1;", "export const b = 20;", "export const c = 30;", "export const d = 40;"] });
  });

  it("reads CR-only line endings (old Mac files) as lines, with declarations on their own lines, and keeps them", async () => {
    const h = await open();
    const rel = "packages/core/src/classic-mac.ts";
    await externalWrite(h, rel, "export const a = 1;\rexport function twice(n: number) {\r  return n * 2;\r}\r");
    expect(await h.project.store.getFile(rel)).toMatchObject({ lines: ["export const a = 1;", "export function twice(n: number) {", "  return n * 2;", "}"] });
    const ast = await h.project.store.getAst(rel);
    expect(ast?.functions.find((f) => f.name === "twice")).toMatchObject({ lineStart: 2, lineEnd: 4 });
    await h.markRead(rel);
    const r = await run(h, { path: rel, start: 3, end: 3, content: "  return n + n;\n" });
    expect(r.success).toBe(true);
    expect(fs.readFileSync(h.abs(rel), "utf8")).toBe("export const a = 1;\rexport function twice(n: number) {\r  return n + n;\r}\r");
  });

  it("keeps the file's mode", async () => {
    const h = await open();
    const rel = "scripts/release.cjs";
    fs.chmodSync(h.abs(rel), 0o751);
    await h.markRead(rel);
    expect((await run(h, { path: rel, start: 1, end: 0, content: "#!/usr/bin/env node" })).success).toBe(true);
    expect(fs.statSync(h.abs(rel)).mode & 0o7777).toBe(0o751);
    expect(h.read(rel).startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("refuses to edit a file the model has not read", async () => {
    const h = await open();
    const before = h.read(STRINGS);
    const r = await run(h, { path: STRINGS, start: 1, end: 1, content: "// x" });
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/not read .*get_lines/);
    expect(h.read(STRINGS)).toBe(before);
    expect(h.ctx.ports.editProposals).toEqual([]);
  });

  it("returns REJECTED with the user's reason and writes nothing", async () => {
    const h = await open({ edit: { action: "reject", reason: "keep truncate as it is" } });
    const before = h.read(STRINGS);
    await h.markRead(STRINGS);
    const r = await run(h, { path: STRINGS, start: 9, end: 11, content: "" });
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(r.error).toContain("keep truncate as it is");
    expect(r.error).toMatch(/Do not repeat/);
    expect(h.read(STRINGS)).toBe(before);
    expect(h.calls).toEqual([]);
  });

  it("writes the user's version on apply-edited (in the file's line endings) and tells the model", async () => {
    const rel = "packages/core/src/crlf.ts";
    const h = await open({ edit: { action: "apply-edited", content: "export const a = 1;\nexport const userChoice = 2;\n" } });
    await externalWrite(h, rel, "export const a = 1;\r\nexport const b = 2;\r\n");
    await h.markRead(rel);
    const r = await run(h, { path: rel, start: 2, end: 2, content: "export const modelChoice = 2;" });
    expect(r.success).toBe(true);
    expect(r.data).toMatch(/user edited your change/);
    expect(r.data).toContain("2│ export const userChoice = 2;");
    expect(h.read(rel)).toBe("export const a = 1;\r\nexport const userChoice = 2;\r\n");
    expect(h.ctx.services.edits[0]!.newContent!.join("\n")).toBe(h.read(rel));
    expect((await h.project.store.getAst(rel))?.exports.map((e) => e.name)).toContain("userChoice");
  });

  it("marks the session tainted after editing package.json, not after an ordinary file", async () => {
    const h = await open();
    await h.markRead(STRINGS);
    await h.markRead("package.json");
    await run(h, { path: STRINGS, start: 1, end: 1, content: "// transliteration later" });
    expect(h.ctx.session.taintedFiles.size).toBe(0);
    const r = await run(h, { path: "package.json", start: 5, end: 5, content: '  "scripts": { "test": "vitest run --reporter dot", "build": "tsc -b" }' });
    expect(r.success).toBe(true);
    expect([...h.ctx.session.taintedFiles]).toEqual(["package.json"]);
  });

  it("leaves the original intact, no temp file and an INTERNAL error when the rename fails", async () => {
    const h = await open();
    const before = h.read(STRINGS);
    await h.markRead(STRINGS);
    vi.spyOn(fsp, "rename").mockRejectedValueOnce(Object.assign(new Error("EIO: injected"), { code: "EIO" }));
    const r = await run(h, { path: STRINGS, start: 1, end: 1, content: "// x" });
    expect(r).toMatchObject({ success: false, code: "INTERNAL" });
    expect(r.error).toMatch(/left unchanged/);
    expect(h.read(STRINGS)).toBe(before);
    expect(fs.readdirSync(path.dirname(h.abs(STRINGS))).filter((n) => n.includes(TEMP_MARKER))).toEqual([]);
    expect(h.calls.map((c) => c.call)).toEqual(["recordEdit", "registerOwnWrite"]);
  });

  it("validates the range and the content", async () => {
    const h = await open();
    await h.markRead(STRINGS);
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ path: STRINGS, start: 14, end: 13, content: "x" }, "INVALID_ARGS", /has 11 lines; start 14 is past the end \(use start=12 end=11 to append\)/],
      [{ path: STRINGS, start: 10, end: 12, content: "x" }, "INVALID_ARGS", /end 12 is past the end/],
      [{ path: STRINGS, start: 5, end: 3, content: "x" }, "INVALID_ARGS", /end \(3\) is before start \(5\); to insert before line 5 pass end=4/],
      [{ path: STRINGS, start: 5, end: 4, content: "" }, "INVALID_ARGS", /nothing to do/],
      [{ path: STRINGS, start: 1, end: 1, content: ' 1│ // TODO: handle Cyrillic transliteration ("привет" → "privet")' }, "INVALID_ARGS", /line number/],
      [{ path: STRINGS, start: 9, end: 9, content: "export function truncate(input: string, max: number): string {" }, "INVALID_ARGS", /already read exactly like content/],
      [{ path: STRINGS, start: "one", end: 2, content: "x" }, "INVALID_ARGS", /"start"/],
      [{ path: STRINGS, start: 1, end: 2 }, "INVALID_ARGS", /"content"/],
      [{ path: STRINGS, start: 0, end: 2, content: "x" }, "INVALID_ARGS", /"start"/],
      [{ path: STRINGS, start: 1, end: 1, content: "x", extra: true }, "INVALID_ARGS", /extra/],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(h, args);
      expect([r.code, r.error], JSON.stringify(args)).toEqual([code, expect.stringMatching(message)]);
    }
    expect(h.ctx.ports.editProposals).toEqual([]);
  });

  it("a cancelled turn writes nothing and asks nothing", async () => {
    const h = await open();
    const before = h.read(STRINGS);
    await h.markRead(STRINGS);
    const aborted = new AbortController();
    aborted.abort();
    const r = await editLines.run("t", { path: STRINGS, start: 1, end: 1, content: "// x" }, { ...h.ctx, signal: aborted.signal });
    expect(r).toMatchObject({ success: false, code: "CANCELLED" });
    expect(h.read(STRINGS)).toBe(before);
    expect(h.ctx.ports.editProposals).toEqual([]);
  });

  it("accepts XML-style string numbers", async () => {
    const h = await open();
    await h.markRead(STRINGS);
    const r = await run(h, { path: STRINGS, start: "1", end: "1", content: "// TODO later" });
    expect(r.success).toBe(true);
    expect(h.read(STRINGS).startsWith("// TODO later\n")).toBe(true);
  });

  it("refuses binary, non-UTF-8, symlinks, folders, missing files and hostile or forbidden paths", async () => {
    const h = await open();
    fs.mkdirSync(h.abs(".git/hooks"), { recursive: true });
    fs.writeFileSync(h.abs(".git/config"), "[core]\n");
    fs.writeFileSync(h.abs(".ipuaro.json"), "{}\n");
    const cases: Array<[string, string, RegExp]> = [
      ["packages/core/src/blob.ts", "NOT_TEXT", /binary/],
      ["assets/logo.png", "NOT_TEXT", /binary/],
      ["packages/core/src/legacy-cp1251.ts", "NOT_TEXT", /not UTF-8/],
      ["money-link.ts", "NOT_TEXT", /symlink to packages\/core\/src\/money\.ts.*edit packages\/core\/src\/money\.ts instead/],
      ["packages/loop/core/src/money.ts", "PATH_INVALID", /symlinked folder; use the real path packages\/core\/src\/money\.ts/],
      ["packages/core/src", "PATH_INVALID", /folder/],
      ["packages/core/src/missing.ts", "FILE_NOT_FOUND", /does not exist/],
      [".", "PATH_INVALID", /project root/],
      [".git/config", "PATH_FORBIDDEN", /git or to ipuaro/],
      [".GIT/config", "PATH_FORBIDDEN", /git or to ipuaro/],
      ["packages/core/.git/hooks/pre-commit", "PATH_FORBIDDEN", /git or to ipuaro/],
      [".ipuaro.json", "PATH_FORBIDDEN", /git or to ipuaro/],
      [".ipuaro/sessions.json", "PATH_FORBIDDEN", /git or to ipuaro/],
      ["../outside.ts", "PATH_OUTSIDE_ROOT", /climbs out/],
      ["packages/../../outside.ts", "PATH_OUTSIDE_ROOT", /climbs out/],
      ["/etc/passwd", "PATH_OUTSIDE_ROOT", /absolute path outside/],
      ["~/.bashrc", "PATH_INVALID", /~/],
      ["file:///etc/passwd", "PATH_INVALID", /URL/],
      ["C:\\Windows\\win.ini", "PATH_INVALID", /Windows/],
      ["packages\\core\\src\\money.ts", "PATH_INVALID", /separator/],
      ["packages/core/src/money.ts\0.png", "PATH_INVALID", /NUL/],
      ["packages/core/src/mo\u202Eney.ts", "PATH_INVALID", /invisible/],
      ["", "INVALID_ARGS", /"path"/],
    ];
    for (const [p, code, message] of cases) {
      const r = await run(h, { path: p, start: 1, end: 1, content: "x" });
      expect([r.code, r.error], p).toEqual([code, expect.stringMatching(message)]);
    }
    expect(h.read(".git/config")).toBe("[core]\n");
    expect(h.calls).toEqual([]);
    expect(h.ctx.ports.editProposals).toEqual([]);
  });
});
