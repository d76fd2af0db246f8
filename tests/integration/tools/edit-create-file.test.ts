import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createFile } from "../../../src/main/tools/create-file.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();

let h: EditHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function open(answers: PortAnswers = {}): Promise<EditHarness> {
  h = await openEditHarness(server().url, answers);
  return h;
}

const NEW = "packages/core/src/dates/format-date.ts";
const CODE = "export function formatDate(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}";

describe("create_file", () => {
  it("creates the file and its folders, adds the final newline, records, registers and indexes it", async () => {
    const h = await open();
    const r = await createFile.run("t", { path: NEW, content: CODE, description: "date helper" }, h.ctx);
    expect(r).toMatchObject({ success: true, data: `created ${NEW} (3 lines)` });
    expect(h.read(NEW)).toBe(`${CODE}\n`);

    expect(h.calls.map((c) => [c.call, c.disk])).toEqual([
      ["recordEdit", null],
      ["registerOwnWrite", null],
      ["refreshIndex", `${CODE}\n`],
    ]);
    expect(h.ctx.services.edits[0]).toEqual({ filePath: NEW, previousContent: null, newContent: [...CODE.split("\n"), ""], description: "date helper", tool: "create_file", createdFolder: "packages/core/src/dates" });
    const hash = await hashContent(Buffer.from(`${CODE}\n`));
    expect(h.ctx.services.ownWrites).toEqual([{ path: NEW, hash }]);
    expect(h.ctx.ports.editProposals[0]).toMatchObject({ tool: "create_file", path: NEW, newContent: `${CODE}\n` });
    expect(h.ctx.ports.editProposals[0]!.diff).toMatch(new RegExp(`^--- /dev/null\n\\+\\+\\+ b/${NEW}\n@@ -0,0 \\+1,3 @@`));

    expect(await h.project.store.getFile(NEW)).toMatchObject({ kind: "text", hash });
    expect((await h.project.store.getAst(NEW))?.functions.map((f) => f.name)).toEqual(["formatDate"]);
    expect(JSON.parse((await h.project.redis.hget(h.project.store.keys.indexes, "sym:formatDate"))!)).toEqual([expect.objectContaining({ path: NEW, line: 1 })]);

    // The model wrote it, so it may edit it at once.
    expect(h.ctx.session.readLedger.get(NEW)).toBe(hash);
    const edit = await editLines.run("t", { path: NEW, start: 2, end: 2, content: "  return d.toISOString().slice(0, 10); // YYYY-MM-DD" }, h.ctx);
    expect(edit.success).toBe(true);
  });

  it("keeps CRLF content and an empty file", async () => {
    const h = await open();
    expect((await createFile.run("t", { path: "win.ts", content: "export const a = 1;\r\nexport const b = 2;" }, h.ctx)).success).toBe(true);
    expect(fs.readFileSync(h.abs("win.ts"), "utf8")).toBe("export const a = 1;\r\nexport const b = 2;\r\n");
    const empty = await createFile.run("t", { path: "packages/core/src/empty.ts", content: "" }, h.ctx);
    expect(empty).toMatchObject({ success: true, data: "created packages/core/src/empty.ts (0 lines)" });
    expect(h.read("packages/core/src/empty.ts")).toBe("");
  });

  it("refuses an existing file (pointing to edit_lines) and a folder", async () => {
    const h = await open();
    const before = h.read("packages/core/src/money.ts");
    const r = await createFile.run("t", { path: "packages/core/src/money.ts", content: "x" }, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/already exists; .*get_lines.*edit_lines/);
    expect(h.read("packages/core/src/money.ts")).toBe(before);
    const dir = await createFile.run("t", { path: "packages/core/src", content: "x" }, h.ctx);
    expect(dir).toMatchObject({ success: false, code: "CONFLICT" });
    expect(dir.error).toMatch(/is a folder/);
    expect(h.calls).toEqual([]);
  });

  it("refuses symlinks, symlinked folders, forbidden and hostile paths without creating anything", async () => {
    const h = await open();
    fs.symlinkSync("nowhere.ts", h.abs("dangling.ts"));
    const cases: Array<[string, string, RegExp]> = [
      ["dangling.ts", "NOT_TEXT", /symlink to nowhere\.ts/],
      ["money-link.ts", "NOT_TEXT", /symlink/],
      ["packages/loop/core/src/new.ts", "PATH_INVALID", /symlinked folder; use the real path packages\/core\/src\/new\.ts/],
      [".git/hooks/pre-commit", "PATH_FORBIDDEN", /git or to ipuaro/],
      ["apps/api/.git/config", "PATH_FORBIDDEN", /git or to ipuaro/],
      [".ipuaro/state.json", "PATH_FORBIDDEN", /git or to ipuaro/],
      [".ipuaro.json", "PATH_FORBIDDEN", /git or to ipuaro/],
      ["../escape.ts", "PATH_OUTSIDE_ROOT", /climbs out/],
      ["/tmp/escape.ts", "PATH_OUTSIDE_ROOT", /outside/],
      ["new\0.ts", "PATH_INVALID", /NUL/],
      ["packages/core/src/money.ts/inner.ts", "PATH_INVALID", /^packages\/core\/src\/money\.ts is a file, so packages\/core\/src\/money\.ts\/inner\.ts cannot be created under it/],
    ];
    for (const [p, code, message] of cases) {
      const r = await createFile.run("t", { path: p, content: "export {};" }, h.ctx);
      expect([r.code, r.error], p).toEqual([code, expect.stringMatching(message)]);
    }
    expect(fs.existsSync(h.abs("nowhere.ts"))).toBe(false);
    expect(fs.existsSync(h.abs(".git"))).toBe(false);
    expect(fs.existsSync(h.abs(".ipuaro"))).toBe(false);
    expect(fs.existsSync(h.abs("packages/core/src/new.ts"))).toBe(false);
    expect(h.calls).toEqual([]);
  });

  it("rejected: nothing created, not even the folders", async () => {
    const h = await open({ edit: { action: "reject" } });
    const r = await createFile.run("t", { path: NEW, content: CODE }, h.ctx);
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(fs.existsSync(h.abs("packages/core/src/dates"))).toBe(false);
    expect(h.calls).toEqual([]);
  });

  it("apply-edited: the user's content is created and shown to the model", async () => {
    const h = await open({ edit: { action: "apply-edited", content: "export const formatDate = (d: Date) => d.toDateString();\n" } });
    const r = await createFile.run("t", { path: NEW, content: CODE }, h.ctx);
    expect(r.success).toBe(true);
    expect(r.data).toMatch(/user edited the content.*\n1│ export const formatDate = \(d: Date\) => d\.toDateString\(\);/);
    expect(h.read(NEW)).toBe("export const formatDate = (d: Date) => d.toDateString();\n");
    expect(h.ctx.services.edits[0]!.newContent).toEqual(["export const formatDate = (d: Date) => d.toDateString();", ""]);
  });

  it("a file that appears while the confirmation is open is not overwritten", async () => {
    const h = await open({
      edit: () => {
        fs.mkdirSync(h!.abs("packages/core/src/dates"), { recursive: true });
        fs.writeFileSync(h!.abs(NEW), "// someone else's\n");
        return { action: "apply" };
      },
    });
    const r = await createFile.run("t", { path: NEW, content: CODE }, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(h.read(NEW)).toBe("// someone else's\n");
    expect(h.calls).toEqual([]);
  });

  it("a folder of the path swapped for a symlink out of the project while the confirmation is open: nothing is written there", async () => {
    const outside = makeTempDir("ipuaro-swap-target-");
    try {
      const h = await open({
        edit: () => {
          fs.symlinkSync(outside, h!.abs("packages/core/src/dates"));
          return { action: "apply" };
        },
      });
      const r = await createFile.run("t", { path: NEW, content: CODE }, h.ctx);
      expect(r).toMatchObject({ success: false, code: "PATH_OUTSIDE_ROOT" });
      expect(r.error).toMatch(/changed while the change waited\); nothing was written$/);
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(h.calls).toEqual([]);
    } finally {
      removeDir(outside);
    }
  });

  it("creating a tool config taints the session", async () => {
    const h = await open();
    await createFile.run("t", { path: "vitest.config.ts", content: "export default {};" }, h.ctx);
    expect([...h.ctx.session.taintedFiles]).toEqual(["vitest.config.ts"]);
  });
});
