import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { deleteFile } from "../../../src/main/tools/delete-file.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import type { PortAnswers } from "../../helpers/tool-context.js";
import { openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";

let h: EditHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function open(answers: PortAnswers = {}): Promise<EditHarness> {
  h = await openEditHarness(server().url, answers);
  return h;
}

describe("delete_file", () => {
  it("deletes after confirmation: undo entry first, own delete registered, Redis entries gone at once", async () => {
    const h = await open();
    const before = h.read(STRINGS);
    const mode = fs.statSync(h.abs(STRINGS)).mode & 0o7777;
    await h.markRead(STRINGS);
    const r = await deleteFile.run("t", { path: STRINGS, description: "unused" }, h.ctx);
    expect(r).toMatchObject({ success: true, data: `deleted ${STRINGS} (11 lines)` });
    expect(fs.existsSync(h.abs(STRINGS))).toBe(false);

    expect(h.calls.map((c) => [c.call, c.disk === before ? "old" : c.disk])).toEqual([
      ["recordEdit", "old"],
      ["registerOwnWrite", "old"],
      ["refreshIndex", null],
    ]);
    expect(h.ctx.services.edits[0]).toEqual({ filePath: STRINGS, previousContent: before.split("\n"), newContent: null, description: "unused", tool: "delete_file", previousMode: mode });
    expect(h.ctx.services.ownWrites).toEqual([{ path: STRINGS, hash: null }]);
    const proposal = h.ctx.ports.editProposals[0]!;
    expect(proposal).toMatchObject({ tool: "delete_file", path: STRINGS, newContent: null });
    expect(proposal.diff).toMatch(new RegExp(`^--- a/${STRINGS}\n\\+\\+\\+ /dev/null\n@@ -1,11 \\+0,0 @@`));

    expect(await h.project.store.getFile(STRINGS)).toBeNull();
    expect(await h.project.store.getAst(STRINGS)).toBeNull();
    expect(await h.project.store.getMeta(STRINGS)).toBeNull();
    expect(await h.project.redis.hget(h.project.store.keys.indexes, "sym:slugify")).toBeNull();
    expect(h.ctx.session.readLedger.has(STRINGS)).toBe(false);
  });

  it("does not need a prior read (the user sees the whole content in the diff)", async () => {
    const h = await open();
    const r = await deleteFile.run("t", { path: "scripts/release.cjs" }, h.ctx);
    expect(r.success).toBe(true);
    expect(fs.existsSync(h.abs("scripts/release.cjs"))).toBe(false);
    expect(h.ctx.ports.conflictProposals).toEqual([]);
  });

  it("rejected: the file stays and nothing is recorded", async () => {
    const h = await open({ edit: { action: "reject", reason: "still used by the release" } });
    const r = await deleteFile.run("t", { path: "scripts/release.cjs" }, h.ctx);
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(r.error).toContain("still used by the release");
    expect(fs.existsSync(h.abs("scripts/release.cjs"))).toBe(true);
    expect(h.calls).toEqual([]);
  });

  it("apply-edited: the user keeps the file with new content instead", async () => {
    const h = await open({ edit: { action: "apply-edited", content: "// kept on purpose\n" } });
    const r = await deleteFile.run("t", { path: "scripts/release.cjs" }, h.ctx);
    expect(r.success).toBe(true);
    expect(r.data).toMatch(/user kept scripts\/release\.cjs/);
    expect(h.read("scripts/release.cjs")).toBe("// kept on purpose\n");
    expect(h.ctx.services.ownWrites[0]!.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await h.project.store.getFile("scripts/release.cjs")).toMatchObject({ lines: ["// kept on purpose"] });
  });

  it("deleting package.json taints the session", async () => {
    const h = await open();
    await deleteFile.run("t", { path: "apps/api/package.json" }, h.ctx);
    expect([...h.ctx.session.taintedFiles]).toEqual(["apps/api/package.json"]);
  });

  it("refuses binary, non-UTF-8, symlinks, folders, missing, forbidden and hostile paths", async () => {
    const h = await open();
    fs.mkdirSync(h.abs(".git"));
    fs.writeFileSync(h.abs(".git/config"), "[core]\n");
    const cases: Array<[string, string, RegExp]> = [
      ["packages/core/src/blob.ts", "NOT_TEXT", /binary/],
      ["assets/logo.png", "NOT_TEXT", /binary/],
      ["packages/core/src/legacy-cp1251.ts", "NOT_TEXT", /not UTF-8/],
      ["money-link.ts", "NOT_TEXT", /symlink/],
      ["packages/loop", "NOT_TEXT", /symlink/],
      ["packages/core", "PATH_INVALID", /folder/],
      ["packages/core/src/gone.ts", "FILE_NOT_FOUND", /does not exist/],
      [".git/config", "PATH_FORBIDDEN", /git or to ipuaro/],
      ["../x.ts", "PATH_OUTSIDE_ROOT", /climbs out/],
      ["/etc/hostname", "PATH_OUTSIDE_ROOT", /outside/],
    ];
    for (const [p, code, message] of cases) {
      const r = await deleteFile.run("t", { path: p }, h.ctx);
      expect([r.code, r.error], p).toEqual([code, expect.stringMatching(message)]);
    }
    expect(fs.existsSync(h.abs("packages/core/src/blob.ts"))).toBe(true);
    expect(fs.lstatSync(h.abs("money-link.ts")).isSymbolicLink()).toBe(true);
    expect(h.read("packages/core/src/money.ts")).toContain("class Money");
    expect(h.calls).toEqual([]);
  });
});
