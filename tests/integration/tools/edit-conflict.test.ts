// The file changed on disk after the model read it: the user sees seen → disk and picks apply, skip or
// regenerate; a change landing while the confirmation is open is caught before the write.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { deleteFile } from "../../../src/main/tools/delete-file.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { externalWrite, openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";
const TRUNCATE = ["export function truncate(input: string, max: number): string {", "  return input.length <= max ? input : `${input.slice(0, max - 1)}…`;", "}"];

let h: EditHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function open(answers: PortAnswers = {}): Promise<EditHarness> {
  h = await openEditHarness(server().url, answers);
  return h;
}

/** The model reads strings.ts; then someone adds a header of two lines (the watcher re-indexes it). */
async function readThenHeaderAdded(h: EditHarness): Promise<string> {
  await h.markRead(STRINGS);
  const changed = `// (c) acme\n// header\n${h.read(STRINGS)}`;
  await externalWrite(h, STRINGS, changed);
  return changed;
}

const replaceTruncate = { path: STRINGS, start: 9, end: 11, content: "export const truncate = (s: string, n: number): string => s.slice(0, n);" };

describe("edit_lines after the file changed on disk", () => {
  it("apply: shows seen → disk, then places the edit on the moved lines of the current content", async () => {
    const h = await open({ conflict: "apply" });
    await readThenHeaderAdded(h);
    const r = await editLines.run("t", replaceTruncate, h.ctx);

    expect(h.ctx.ports.conflictProposals).toHaveLength(1);
    const { path, diff } = h.ctx.ports.conflictProposals[0]!;
    expect(path).toBe(STRINGS);
    expect(diff).toContain("as the model read it");
    expect(diff).toMatch(/^\+\/\/ \(c\) acme$/m);
    expect(diff).toMatch(/^\+\/\/ header$/m);

    expect(r.success).toBe(true);
    expect(r.data).toMatch(/lines 11-13 → 11-11 \(-2\)/);
    const lines = h.read(STRINGS).split("\n");
    expect(lines.slice(0, 2)).toEqual(["// (c) acme", "// header"]);
    expect(lines[10]).toBe(replaceTruncate.content);
    expect(lines).not.toContain(TRUNCATE[1]);
    expect(h.ctx.ports.editProposals[0]!.range).toEqual({ start: 11, end: 13 });
    expect((await h.project.store.getFile(STRINGS))).toMatchObject({ lines: expect.arrayContaining([replaceTruncate.content, "// header"]) });
  });

  it("apply: the lines to replace were changed too → CONFLICT with the current lines, nothing written", async () => {
    const h = await open({ conflict: "apply" });
    await h.markRead(STRINGS);
    const changed = h.read(STRINGS).replace("max - 1", "max - 3");
    await externalWrite(h, STRINGS, changed);
    const r = await editLines.run("t", replaceTruncate, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/lines you meant to replace were changed too/);
    expect(r.error).toContain("max - 3");
    expect(r.error).toMatch(/^10│ {3}return/m);
    expect(h.read(STRINGS)).toBe(changed);
    expect(h.ctx.ports.editProposals).toEqual([]);
  });

  it("skip: REJECTED telling the model the file changed; the other writer's content stays", async () => {
    const h = await open({ conflict: "skip" });
    const changed = await readThenHeaderAdded(h);
    const r = await editLines.run("t", replaceTruncate, h.ctx);
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(r.error).toMatch(/changed on disk since you read it.*not applied over that; nothing was written/);
    expect(h.read(STRINGS)).toBe(changed);
    expect(h.calls).toEqual([]);
  });

  it("regenerate: CONFLICT with the current lines around the moved range; the redone edit then applies", async () => {
    const h = await open({ conflict: "regenerate" });
    const changed = await readThenHeaderAdded(h);
    const r = await editLines.run("t", replaceTruncate, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/Current lines 6-13 of packages\/core\/src\/utils\/strings\.ts \(13 lines\)/);
    expect(r.error).toContain(`11│ ${TRUNCATE[0]}`);
    expect(r.error).toMatch(/Redo your edit/);
    expect(h.read(STRINGS)).toBe(changed);
    // It has now seen the current version: the redone edit goes through without another conflict.
    expect(h.ctx.session.readLedger.get(STRINGS)).toBe(await hashContent(Buffer.from(changed)));
    const redo = await editLines.run("t", { ...replaceTruncate, start: 11, end: 13 }, h.ctx);
    expect(redo.success).toBe(true);
    expect(h.ctx.ports.conflictProposals).toHaveLength(1);
    expect(h.read(STRINGS).split("\n")[10]).toBe(replaceTruncate.content);
  });

  it("when ipuaro no longer has what the model saw, says so and applies at the same line numbers", async () => {
    const h = await open({ conflict: "apply" });
    h.ctx.session.readLedger.set(STRINGS, "0123456789abcdef");
    const r = await editLines.run("t", { path: STRINGS, start: 1, end: 1, content: "// transliteration: later" }, h.ctx);
    expect(h.ctx.ports.conflictProposals[0]!.diff).toMatch(/no longer kept/);
    expect(r.success).toBe(true);
    expect(h.read(STRINGS).split("\n")[0]).toBe("// transliteration: later");
  });

  it("uses the Redis copy as what the model saw when the watcher has not caught up", async () => {
    const h = await open({ conflict: "skip" });
    const stored = await h.project.store.getFile(STRINGS);
    if (stored?.kind !== "text") throw new Error("fixture");
    h.ctx.session.readLedger.set(STRINGS, stored.hash); // a read tool that set only the hash
    await externalWrite(h, STRINGS, `${h.read(STRINGS)}// appended\n`, false);
    await editLines.run("t", replaceTruncate, h.ctx);
    expect(h.ctx.ports.conflictProposals[0]!.diff).toMatch(/^\+\/\/ appended$/m);
  });

  it("a change while the confirmation is open: CONFLICT, nothing recorded or written", async () => {
    let theirs = "";
    const h = await open({
      edit: () => {
        theirs = `${fs.readFileSync(h!.abs(STRINGS), "utf8")}// typed while the dialog was open\n`;
        fs.writeFileSync(h!.abs(STRINGS), theirs);
        return { action: "apply" };
      },
    });
    await h.markRead(STRINGS);
    const r = await editLines.run("t", replaceTruncate, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/while the change waited for confirmation/);
    expect(h.read(STRINGS)).toBe(theirs);
    expect(h.calls).toEqual([]);
  });

  it("the same with nobody asked (auto-apply, --yes): the conflict says no one waited", async () => {
    let theirs = "";
    const h = await open({
      edit: () => {
        theirs = `${fs.readFileSync(h!.abs(STRINGS), "utf8")}// written by a formatter meanwhile\n`;
        fs.writeFileSync(h!.abs(STRINGS), theirs);
        return { action: "apply", auto: true };
      },
    });
    await h.markRead(STRINGS);
    const r = await editLines.run("t", replaceTruncate, h.ctx);
    expect(r).toMatchObject({ success: false, code: "CONFLICT" });
    expect(r.error).toMatch(/changed on disk while the change was being made; nothing was written/);
    expect(h.read(STRINGS)).toBe(theirs);
  });
});

describe("delete_file after the file changed on disk", () => {
  it.each([
    ["skip", "REJECTED"],
    ["regenerate", "CONFLICT"],
  ] as const)("%s → %s, the file stays", async (decision, code) => {
    const h = await open({ conflict: decision });
    const changed = await readThenHeaderAdded(h);
    const r = await deleteFile.run("t", { path: STRINGS }, h.ctx);
    expect(r).toMatchObject({ success: false, code });
    expect(h.read(STRINGS)).toBe(changed);
    expect(h.ctx.ports.editProposals).toEqual([]);
  });

  it("apply → the current content is what the user confirms deleting", async () => {
    const h = await open({ conflict: "apply" });
    await readThenHeaderAdded(h);
    const r = await deleteFile.run("t", { path: STRINGS }, h.ctx);
    expect(r.success).toBe(true);
    expect(h.ctx.ports.editProposals[0]!.diff).toMatch(/^-\/\/ header$/m);
    expect(fs.existsSync(h.abs(STRINGS))).toBe(false);
  });
});
