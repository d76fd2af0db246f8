import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LiveSession } from "../../../src/main/session/live-session.js";
import { openSession } from "../../../src/main/session/open-session.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { createFile } from "../../../src/main/tools/create-file.js";
import { deleteFile } from "../../../src/main/tools/delete-file.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { getLines } from "../../../src/main/tools/get-lines.js";
import type { ToolContext } from "../../../src/main/tools/tool-types.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { recordingPorts } from "../../helpers/tool-context.js";

const server = useRedisServer();
let project: IndexedProject;
let session: LiveSession;
let ctx: ToolContext;
const refreshed: string[][] = [];
const ownWrites: Array<{ path: string; hash: string | null }> = [];
/** What the file looked like at the moment each undo entry had been stored. */
const diskWhenRecorded: Array<string | null> = [];

const MONEY = "packages/core/src/money.ts";
const abs = (rel: string) => path.join(project.root, rel);
const read = (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), "utf8") : null);
const index = {
  refreshIndex: async (paths: string[]) => {
    refreshed.push(paths);
    await project.reindex();
  },
  registerOwnWrite: (p: string, hash: string | null) => void ownWrites.push({ path: p, hash }),
};

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));
beforeEach(async () => {
  ({ session } = await openSession({ redis: project.redis, projectName: project.store.projectName, root: project.root, config: project.config, choice: { kind: "new" } }));
  const services = session.toolServices(index);
  const recordEdit = services.recordEdit;
  services.recordEdit = async (record) => {
    await recordEdit(record);
    diskWhenRecorded.push(read(record.filePath));
  };
  ctx = { root: project.root, config: project.config, store: project.store, ports: recordingPorts(), session: session.toolState, services };
  refreshed.length = 0;
  ownWrites.length = 0;
  diskWhenRecorded.length = 0;
});

async function run(tool: typeof getLines, args: Record<string, unknown>) {
  const r = await tool.run("t", args, ctx);
  expect(r.error).toBeUndefined();
  return r;
}

describe("undo stack", () => {
  it("undoes edit_lines: the entry is stored before the write, the file and Redis get the old lines back", async () => {
    const before = read(MONEY)!;
    await run(getLines, { path: MONEY, start: 1, end: 12 });
    await run(editLines, { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // edited", description: "mark the class" });
    expect(read(MONEY)).not.toBe(before);
    expect(diskWhenRecorded).toEqual([before]); // persisted while the file was still untouched

    const [entry] = await session.undoStack.list();
    expect(entry).toMatchObject({ filePath: MONEY, description: "mark the class", tool: "edit_lines" });
    expect(entry!.previousContent!.join("\n")).toBe(before);

    const outcome = await session.undo(index);
    expect(outcome).toMatchObject({ status: "undone", action: "restored" });
    // Today's edits by the time of day; the tool named once.
    expect(outcome.message).toMatch(/^Undid mark the class \(edit_lines, \d\d:\d\d:\d\d\): /);
    expect(read(MONEY)).toBe(before);
    expect(refreshed.at(-1)).toEqual([MONEY]);
    const stored = await project.store.getFile(MONEY);
    expect(stored?.kind === "text" && stored.lines[7]).toBe("export class Money implements MoneyLike {");
    expect(await session.undoStack.list()).toEqual([]);
    expect(ownWrites.at(-1)?.path).toBe(MONEY);

    const persisted = (await new SessionStore(project.redis, project.store.projectName).load(session.id))!;
    expect(persisted.stats).toMatchObject({ editsApplied: 1, undos: 1 });
  });

  it("undoes create_file by deleting the file, and delete_file by recreating it", async () => {
    await run(createFile, { path: "packages/core/src/new-thing.ts", content: "export const thing = 1;\n" });
    expect(read("packages/core/src/new-thing.ts")).toBe("export const thing = 1;\n");
    expect(await session.undo(index)).toMatchObject({ status: "undone", action: "deleted" });
    expect(read("packages/core/src/new-thing.ts")).toBeNull();
    expect(await project.store.getFile("packages/core/src/new-thing.ts")).toBeNull();
    // The folders a created file made go with it; the ones that were there stay.
    await run(createFile, { path: "packages/core/src/features/billing/plan.ts", content: "export const plan = 1;\n" });
    expect(await session.undo(index)).toMatchObject({ status: "undone", action: "deleted" });
    expect(fs.existsSync(path.join(project.root, "packages/core/src/features"))).toBe(false);
    expect(fs.existsSync(path.join(project.root, "packages/core/src"))).toBe(true);

    const strings = "packages/core/src/utils/strings.ts";
    const content = read(strings)!;
    // An executable file comes back executable.
    fs.chmodSync(path.join(project.root, strings), 0o750);
    await run(getLines, { path: strings });
    await run(deleteFile, { path: strings, description: "remove helpers" });
    expect(read(strings)).toBeNull();
    expect(await session.undo(index)).toMatchObject({ status: "undone", action: "recreated" });
    expect(read(strings)).toBe(content);
    expect(fs.statSync(path.join(project.root, strings)).mode & 0o777).toBe(0o750);
    expect((await project.store.getFile(strings))?.kind).toBe("text");
  });

  it("refuses to undo when the file changed after the edit, showing the diff and touching nothing", async () => {
    const logger = "packages/core/src/logger.ts";
    const original = read(logger)!;
    await run(getLines, { path: logger, start: 1, end: 3 });
    await run(editLines, { path: logger, start: 1, end: 1, content: "// ipuaro's edit" });
    const edited = read(logger)!;
    const byHand = edited.replace("// ipuaro's edit", "// someone else's edit");
    fs.writeFileSync(abs(logger), byHand);

    const outcome = await session.undo(index);
    expect(outcome.status).toBe("refused");
    if (outcome.status !== "refused") return;
    expect(outcome.message).toContain(`${logger} was changed after that edit`);
    expect(outcome.diff).toContain("-// ipuaro's edit");
    expect(outcome.diff).toContain("+// someone else's edit");
    expect(read(logger)).toBe(byHand);
    expect(await session.undoStack.list()).toHaveLength(1);

    // Put back what ipuaro wrote: now the undo goes through.
    fs.writeFileSync(abs(logger), edited);
    expect((await session.undo(index)).status).toBe("undone");
    expect(read(logger)).toBe(original);
  });

  it("drops an entry whose write never happened (the process died between the two)", async () => {
    await session.undoStack.push({ filePath: MONEY, previousContent: read(MONEY)!.split("\n"), newContent: ["never written"], description: "x", tool: "edit_lines" });
    const outcome = await session.undo(index);
    expect(outcome.status).toBe("already-undone");
    expect(await session.undoStack.list()).toEqual([]);
    expect((await session.undo(index)).status).toBe("empty");
  });

  it("undo requests made at once (Ctrl+Z pressed quickly) run one after another, each taking back its own edit", async () => {
    const first = "packages/core/src/first.ts";
    const second = "packages/core/src/second.ts";
    await run(createFile, { path: first, content: "export const first = 1;\n" });
    await run(createFile, { path: second, content: "export const second = 2;\n" });
    const outcomes = await Promise.all([session.undo(index), session.undo(index), session.undo(index)]);
    // Side by side, the later two took the entry the first was taking back and refused it: the file was gone.
    expect(outcomes.map((o) => o.status)).toEqual(["undone", "undone", "empty"]);
    expect(outcomes.map((o) => ("entry" in o ? o.entry.filePath : null))).toEqual([second, first, null]);
    expect([read(first), read(second)]).toEqual([null, null]);
    expect(refreshed.slice(-2)).toEqual([[second], [first]]);
    expect(session.state.stats.undos).toBe(2);
  });

  it("keeps at most undo.stackSize entries, newest first", async () => {
    const small = await openSession({
      redis: project.redis,
      projectName: project.store.projectName,
      root: project.root,
      config: { ...project.config, undo: { stackSize: 2 } },
      choice: { kind: "new" },
    });
    for (const n of [1, 2, 3]) await small.session.undoStack.push({ filePath: `f${n}.ts`, previousContent: null, newContent: [`${n}`], description: `create f${n}`, tool: "create_file" });
    expect((await small.session.undoStack.list()).map((e) => e.filePath)).toEqual(["f3.ts", "f2.ts"]);
  });
});
