// Rewind through the real agent: a fake Ollama scripts the model, the tools edit an indexed project in
// a real Redis, the runtime makes a checkpoint per turn, and the rewind service takes code and
// conversation back.
import { readEvents } from "../../../src/main/shadow/events-store.js";
import { shadowScope } from "../../../src/main/shadow/shadow-scope.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeOllama, xmlToolCall as call } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { MONEY, STRINGS, closeAgentProject, scriptTwoEdits, useHomeAndFakeModel } from "./checkpoint-harness.js";
import { writeTree } from "../../helpers/temp-dir.js";
import { isSummaryRequest, startAgent, type AgentUnderTest } from "../session/agent-harness.js";

const server = useRedisServer();
let fake: FakeOllama;
let project: IndexedProject;
let agent: AgentUnderTest;

const abs = (rel: string) => path.join(project.root, rel);
const read = (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), "utf8") : null);
const nonSystem = (i: number) => fake.chatRequests[i]!.messages.filter((m) => m.role !== "system").map((m) => m.content);

useHomeAndFakeModel((f) => {
  fake = f;
});
beforeEach(async () => {
  const root = buildAcmeShop();
  writeTree(root, {
    "notes.md": "# Notes\n",
    "scripts/change.mjs": [
      'import fs from "node:fs";',
      `fs.appendFileSync("${MONEY}", "export const CHANGED_BY_SCRIPT = true;\\n");`,
      `fs.rmSync("${STRINGS}");`,
      'fs.writeFileSync("packages/core/src/generated.ts", "export const generated = 1;\\n");',
      'fs.appendFileSync("notes.md", "written by the script\\n");',
    ].join("\n"),
  });
  project = await openIndexedProject(root, server().url);
  await project.reindex();
  agent = await startAgent(project, fake, project.config);
});
afterEach(() => closeAgentProject(agent, project, fake));

describe("rewinding a session's code and conversation", () => {
  it("edit two files → rewind both → the files and the conversation are as before, and the model must read them again", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    fake.reply().text("Money is in packages/core/src/money.ts.");
    await agent.turn("Where is Money?");
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    expect(read(MONEY)).not.toBe(money);
    expect(read(STRINGS)).not.toBe(strings);
    const rewind = agent.runtime.checkpoints.rewind;

    const points = await rewind.pointsWithStats();
    expect(points.map((p) => [p.n, p.message, p.files, p.insertions, p.deletions])).toEqual([
      [1, "Where is Money?", 2, 2, 2],
      [2, "Rename both things", 2, 2, 2],
    ]);
    const preview = await rewind.preview(2);
    expect(preview.code!.changes).toEqual([
      { path: MONEY, action: "restore", insertions: 1, deletions: 1 },
      { path: STRINGS, action: "restore", insertions: 1, deletions: 1 },
    ]);
    expect(read(MONEY)).not.toBe(money); // a preview changes nothing

    const result = await rewind.rewind({ point: 2, mode: "both" });
    expect(result).toMatchObject({ draft: "Rename both things", restored: [MONEY, STRINGS], deleted: [], conflicts: [], skipped: [], notes: [] });
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(strings);
    expect(agent.runtime.session.messages().map((m) => m.content)).toEqual(["Where is Money?", "Money is in packages/core/src/money.ts."]);
    const ledger = agent.runtime.session.toolState.readLedger;
    expect(ledger.has(MONEY) || ledger.has(STRINGS)).toBe(false);
    // Project analytics record the rewound files as reverts of the agent's edits.
    const reverts = (await readEvents(shadowScope(project.store, project.root))).filter((e) => e.type === "revert");
    expect(reverts).toEqual(expect.arrayContaining([expect.objectContaining({ file: MONEY, via: "rewind" }), expect.objectContaining({ file: STRINGS, via: "rewind" })]));
    // Redis has the restored content again.
    const stored = await project.store.getFile(MONEY);
    expect(stored?.kind === "text" && stored.lines.join("\n")).toBe(money!.replace(/\n$/, ""));

    // The next request carries exactly the history before message 2, then the new message.
    const sentBefore = nonSystem(1);
    fake.reply().text("Sure.");
    await agent.turn("Something else");
    const sentAfter = nonSystem(fake.chatRequests.length - 1);
    expect(sentAfter).toEqual([...sentBefore.slice(0, -1), "Something else"]);
    // The old branch is kept in the session's tree.
    const contents = [...agent.runtime.session.state.entries.values()].map((e) => (e.kind === "message" ? e.message.content : ""));
    expect(contents).toContain("Both edited.");
  });

  it("conversation only: the files keep their changes and a note tells the model which ones differ", async () => {
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    const edited = read(MONEY);
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "conversation" });
    expect(result.draft).toBe("Rename both things");
    expect(result.restored).toEqual([]);
    expect(read(MONEY)).toBe(edited);
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain(`${MONEY}, ${STRINGS} still have the changes made after that point`);
    const messages = agent.runtime.session.messages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[2]).toMatchObject({ note: "rewind", content: result.notes[0] });
    // A note is not a rewind point.
    expect((await agent.runtime.checkpoints.rewind.points()).map((p) => p.message)).toEqual(["Hi"]);

    fake.reply().text("Understood.");
    await agent.turn("Go on");
    // The note and the new message go as one user message: two in a row read as two requests.
    expect(nonSystem(fake.chatRequests.length - 1)).toEqual(["Hi", "Hello.", `${result.notes[0]}\n\nGo on`]);
  });

  it("code only: the conversation stays and a note says which files were restored", async () => {
    const money = read(MONEY);
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    const before = agent.runtime.session.messages().length;
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "code" });
    expect(result.draft).toBeNull();
    expect(read(MONEY)).toBe(money);
    const messages = agent.runtime.session.messages();
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toMatchObject({ role: "user", note: "rewind" });
    expect(messages.at(-1)!.content).toContain(`restored files to their state before message 2 ("Rename both things"): ${MONEY}, ${STRINGS}`);
  });

  it("a file changed by hand since ipuaro's last write is a conflict: left alone and listed, restored with overwrite", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    fs.appendFileSync(abs(MONEY), "// by hand\n");
    const rewind = agent.runtime.checkpoints.rewind;
    const dry = await rewind.rewind({ point: 1, mode: "code", dryRun: true });
    expect(dry).toMatchObject({ restored: [STRINGS], conflicts: [MONEY], notes: [] });
    const first = await rewind.rewind({ point: 1, mode: "code" });
    expect(first).toMatchObject({ restored: [STRINGS], conflicts: [MONEY] });
    expect(read(MONEY)).toContain("// by hand");
    expect(read(STRINGS)).toBe(strings);
    const forced = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(forced).toMatchObject({ restored: [MONEY], conflicts: [] });
    expect(read(MONEY)).toBe(money);
  });

  it("a hand change made before the next turn is kept by a rewind past that turn: a conflict until overwrite is asked for", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    fs.appendFileSync(abs(MONEY), "// by hand\n");
    const withHandChange = read(MONEY);
    fake.reply().text("Noted.");
    await agent.turn("I changed money.ts");
    const rewind = agent.runtime.checkpoints.rewind;
    // Message 2 started from the hand-changed file: nothing to restore for it.
    expect((await rewind.preview(2)).code).toMatchObject({ changes: [], conflicts: [], skipped: [] });
    // Back before message 1, money.ts would lose the hand change made between the two messages.
    expect((await rewind.preview(1)).code!.conflicts.map((c) => c.path)).toEqual([MONEY]);
    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful).toMatchObject({ restored: [STRINGS], conflicts: [MONEY] });
    expect(read(MONEY)).toBe(withHandChange);
    expect(read(STRINGS)).toBe(strings);
    const forced = await rewind.rewind({ point: 1, mode: "both", onConflict: "overwrite" });
    expect(forced).toMatchObject({ restored: [MONEY], conflicts: [] });
    expect(read(MONEY)).toBe(money);
    expect(await rewind.points()).toEqual([]);
  });

  it("a file renamed by hand before the next turn is not brought back beside its new name", async () => {
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    fs.renameSync(abs(STRINGS), abs("packages/core/src/utils/text.ts"));
    fake.reply().text("Noted.");
    await agent.turn("I renamed strings.ts");
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.conflicts).toEqual([STRINGS]);
    expect(read(STRINGS)).toBeNull();
    expect(read("packages/core/src/utils/text.ts")).toContain("slugifyText");
  });

  it("undoes what run_command did: a deleted file comes back from the index's copy; changed and created ones are conflicts until overwrite is asked for", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    fake.reply().text(call("run_command", { command: "node scripts/change.mjs" }));
    fake.reply().text("The script ran.");
    await agent.turn("Run the change script");
    expect(read(MONEY)).toContain("CHANGED_BY_SCRIPT");
    expect(read(STRINGS)).toBeNull();
    expect(read("packages/core/src/generated.ts")).not.toBeNull();

    const rewind = agent.runtime.checkpoints.rewind;
    const preview = await rewind.preview(1);
    // What the command wrote cannot be told from what the user wrote meanwhile: overwriting or deleting
    // it waits to be asked. Bringing back what it deleted loses nothing.
    expect(preview.code!.changes.map((c) => [c.path, c.action])).toEqual([[STRINGS, "create"]]);
    expect(preview.code!.conflicts.map((c) => [c.path, c.action])).toEqual([
      ["packages/core/src/generated.ts", "delete"],
      [MONEY, "restore"],
    ]);
    expect(preview.code!.skipped).toEqual([{ path: "notes.md", reason: "not_indexed" }]);

    const careful = await rewind.rewind({ point: 1, mode: "code" });
    expect(careful.restored).toEqual([STRINGS]);
    expect(careful.conflicts.sort()).toEqual(["packages/core/src/generated.ts", MONEY]);
    expect(read(MONEY)).toContain("CHANGED_BY_SCRIPT");

    const result = await rewind.rewind({ point: 1, mode: "code", onConflict: "overwrite" });
    expect(result.restored).toEqual([MONEY]);
    expect(result.deleted).toEqual(["packages/core/src/generated.ts"]);
    expect(result.warnings.join("\n")).toContain("notes.md: changed by a command, and the index held no copy of it from before");
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(strings);
    expect(read("packages/core/src/generated.ts")).toBeNull();
    expect(read("notes.md")).toBe("# Notes\nwritten by the script\n");
  });

  it("never reverts an edit saved, or deletes a file created, by the user while a command ran", async () => {
    fake.reply().text(call("run_command", { command: "node -e \"setTimeout(() => {}, 1500)\"" }));
    fake.reply().text("Waited.");
    const turn = agent.turn("Wait a moment");
    // The user goes on working while the command runs.
    await new Promise((r) => setTimeout(r, 700));
    fs.appendFileSync(abs(MONEY), "// mine, saved during the command\n");
    fs.writeFileSync(abs("packages/core/src/user-feature.ts"), "export const mine = 1;\n");
    await turn;
    const mine = read(MONEY);
    expect(mine).toContain("mine, saved during the command");

    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.conflicts.sort()).toEqual([MONEY, "packages/core/src/user-feature.ts"]);
    expect(result.restored).toEqual([]);
    expect(result.deleted).toEqual([]);
    expect(read(MONEY)).toBe(mine);
    expect(read("packages/core/src/user-feature.ts")).toBe("export const mine = 1;\n");
  });

  it("after a code rewind, undo goes on with the edits still applied: the rewound ones leave the undo stack", async () => {
    const money = read(MONEY);
    const strings = read(STRINGS);
    scriptTwoEdits(fake);
    await agent.turn("Rename both");
    const afterFirst = read(MONEY);
    fake.reply().text(call("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // second" }));
    fake.reply().text("Edited again.");
    await agent.turn("Once more");
    expect(await agent.runtime.session.undoStack.list()).toHaveLength(3);

    await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "code" });
    expect(read(MONEY)).toBe(afterFirst);
    const index = { refreshIndex: async () => void (await project.reindex()) };
    // The first turn's two edits are still applied, and undo takes them back one by one.
    expect(await agent.runtime.session.undo(index)).toMatchObject({ status: "undone" });
    expect(await agent.runtime.session.undo(index)).toMatchObject({ status: "undone" });
    expect(read(MONEY)).toBe(money);
    expect(read(STRINGS)).toBe(strings);
    expect(await agent.runtime.session.undo(index)).toMatchObject({ status: "empty" });
  });

  it("a package.json a command wrote taints the session: what runs it is asked about, as after edit_lines", async () => {
    fs.writeFileSync(abs("scripts/scripts.mjs"), 'import fs from "node:fs";\nconst p = JSON.parse(fs.readFileSync("package.json", "utf8"));\np.scripts = { ...p.scripts, test: "echo pwned" };\nfs.writeFileSync("package.json", JSON.stringify(p));\n');
    fake.reply().text(call("run_command", { command: "node scripts/scripts.mjs" }));
    fake.reply().text("Done.");
    await agent.turn("Set up the scripts");
    expect(agent.runtime.session.toolState.taintedFiles.has("package.json")).toBe(true);
    expect(agent.runtime.session.toolState.taintedFiles.has("notes.md")).toBe(false);
  });

  it("summarize from here: back before the message, with a summary of what was rewound away as a note", async () => {
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    fake.reply().text("We tried X and it failed.");
    await agent.turn("Try X");
    fake.reply().text((seen) => {
      expect(isSummaryRequest(seen)).toBe(true);
      return "## Goal\nTry X\n## Decisions\nX failed.";
    });
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "summarize-from-here" });
    expect(result.draft).toBe("Try X");
    expect(result.notes[0]).toContain("rewound to before message 2 (\"Try X\")");
    expect(result.notes[0]).toContain("X failed.");
    expect(agent.runtime.session.messages().map((m) => m.content)).toEqual(["Hi", "Hello.", result.notes[0]]);
  });

  it("summarize up to here: what came before the message becomes a summary, the rest stays", async () => {
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    fake.reply().text("Two.");
    await agent.turn("One plus one?");
    fake.reply().text("Three.");
    await agent.turn("Plus one?");
    fake.reply().text("## Goal\nArithmetic.");
    await agent.runtime.checkpoints.rewind.rewind({ point: 2, mode: "summarize-up-to-here" });
    const view = agent.runtime.session.view();
    expect(view[0]!.content).toContain("## Goal\nArithmetic.");
    expect(view.slice(1).map((v) => v.content)).toEqual(["One plus one?", "Two.", "Plus one?", "Three."]);
    expect(agent.runtime.session.state.stats.compactions).toBe(1);
    fake.reply().text("Four.");
    await agent.turn("And again?");
    // The summary and the first kept message go as one user message.
    const sent = nonSystem(fake.chatRequests.length - 1);
    expect(sent[0]).toMatch(/## Goal\nArithmetic\.[\s\S]*\n\nOne plus one\?$/);
    expect(sent.slice(1)).toEqual(["Two.", "Plus one?", "Three.", "And again?"]);
  });

  it("Esc on a turn that produced nothing puts the message back and leaves no trace in the conversation", async () => {
    fake.reply().text("Hello.");
    await agent.turn("Hi");
    await agent.runtime.session.appendMessage({ role: "user", content: "Cancelled question", timestamp: Date.now() });
    expect(await agent.runtime.checkpoints.rewind.restoreCancelledTurn()).toBe("Cancelled question");
    expect(agent.runtime.session.messages().map((m) => m.content)).toEqual(["Hi", "Hello."]);
    expect(agent.runtime.orchestrator.history.map((m) => m.content)).toEqual(["Hi", "Hello."]);
    // The newest message is an answer now: nothing to restore.
    expect(await agent.runtime.checkpoints.rewind.restoreCancelledTurn()).toBeNull();
  });

  it("never touches git: when HEAD moved since the checkpoint it only suggests commands", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd: project.root, encoding: "utf8" }).trim();
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "base");
    const base = git("rev-parse", "HEAD");
    scriptTwoEdits(fake);
    await agent.turn("Rename both things");
    git("commit", "-qam", "the model's work");
    const moved = git("rev-parse", "HEAD");
    const result = await agent.runtime.checkpoints.rewind.rewind({ point: 1, mode: "code" });
    expect(result.git).toEqual({ recorded: base, current: moved, commands: [`git log --oneline ${base.slice(0, 12)}..HEAD`, `git reset --soft ${base.slice(0, 12)}`] });
    expect(git("rev-parse", "HEAD")).toBe(moved);
    // The files went back; the commit stays where it is.
    const status = execFileSync("git", ["status", "--porcelain"], { cwd: project.root, encoding: "utf8" });
    expect(status.split("\n").filter((l) => l.startsWith(" M")).sort()).toEqual([` M ${MONEY}`, ` M ${STRINGS}`]);
  });

  it("refuses to restore code for a message without a checkpoint, and a point that does not exist", async () => {
    await agent.runtime.session.appendMessage({ role: "user", content: "typed before checkpoints existed", timestamp: Date.now() });
    await agent.runtime.session.appendMessage({ role: "assistant", content: "ok", timestamp: Date.now() });
    const rewind = agent.runtime.checkpoints.rewind;
    expect(await rewind.points()).toMatchObject([{ n: 1, hasCheckpoint: false }]);
    await expect(rewind.rewind({ point: 1, mode: "both" })).rejects.toThrow(/message 1 has no checkpoint/);
    await expect(rewind.rewind({ point: 7, mode: "conversation" })).rejects.toThrow(/no rewind point 7 .*points: 1-1/);
    await expect(rewind.rewind({ point: 1, mode: "sideways" as never })).rejects.toThrow(/unknown rewind mode/);
    expect((await rewind.rewind({ point: 1, mode: "conversation" })).draft).toBe("typed before checkpoints existed");
  });
});
