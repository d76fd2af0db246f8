// An edit of a file larger than checkpoints.maxFileBytes: it cannot be backed up, so the user hears it
// before confirming the edit (not after it is written), and `rewind --list` counts the file as a change
// it cannot restore instead of "no code changes" — while the preview names it as not restored.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CheckpointTracker } from "../../../src/main/checkpoints/checkpoint-tracker.js";
import { attachCheckpointHooks } from "../../../src/main/checkpoints/tool-hooks.js";
import { pointStatsText } from "../../../src/main/cli/commands/rewind-command.js";
import { SessionStore } from "../../../src/main/session/session-store.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { FakeOllama, xmlToolCall as call } from "../../helpers/fake-ollama.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { startAgent, type AgentUnderTest } from "../session/agent-harness.js";
import { openEditHarness, type EditHarness } from "../tools/edit-test-kit.js";
import { MONEY, closeAgentProject, useHomeAndFakeModel } from "./checkpoint-harness.js";

const server = useRedisServer();
/** money.ts is about 1 KB: over this, it is "too large" to back up. */
const MAX = 500;
let fake: FakeOllama;
let home: string;

useHomeAndFakeModel((f, h) => {
  fake = f;
  home = h;
});

describe("rewind points of a turn that edited a file too large to back up", () => {
  let project: IndexedProject;
  let agent: AgentUnderTest;
  afterEach(() => closeAgentProject(agent, project, fake));

  it("the point counts it as a file it cannot restore; a later point where it did not change says no code changes", async () => {
    project = await openIndexedProject(buildAcmeShop(), server().url);
    await project.reindex();
    agent = await startAgent(project, fake, { ...project.config, checkpoints: { ...project.config.checkpoints, maxFileBytes: MAX } });
    expect(fs.statSync(`${project.root}/${MONEY}`).size).toBeGreaterThan(MAX);
    fake.reply().text(call("get_lines", { path: MONEY, start: 1, end: 12 }));
    fake.reply().text(call("edit_lines", { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" }));
    fake.reply().text("Edited.");
    await agent.turn("Rename Money");
    fake.reply().text("You're welcome.");
    await agent.turn("Thanks");

    const rewind = agent.runtime.checkpoints.rewind;
    const points = await rewind.pointsWithStats();
    expect(points.map((p) => [p.n, p.files, p.unrestorable])).toEqual([
      [1, 1, 1],
      [2, 0, 0],
    ]);
    expect(points.map(pointStatsText)).toEqual(["1 file it cannot restore", "no code changes"]);
    // The list and the preview agree.
    expect((await rewind.preview(1)).code!.skipped).toEqual([{ path: MONEY, reason: "too_large" }]);
    expect((await rewind.preview(2)).code!.skipped).toEqual([]);
  });
});

describe("the warning that a file cannot be backed up", () => {
  let h: EditHarness;
  afterEach(() => h.close());

  async function withTracker(decide: "apply" | "reject"): Promise<{ events: string[]; tracker: CheckpointTracker }> {
    const events: string[] = [];
    h = await openEditHarness(server().url, {
      edit: (p) => {
        events.push(`confirm${p.backupWarning ? ` (warned: ${p.backupWarning})` : ""}`);
        return { action: decide };
      },
    });
    const sessionId = (await new SessionStore(h.project.redis, h.project.store.projectName).create(h.project.root)).meta.id;
    const tracker = new CheckpointTracker({
      root: h.project.root,
      sessionId,
      redis: h.project.redis,
      settings: { maxFileBytes: MAX },
      ignorePatterns: [],
      home,
      readHead: async () => null,
      onNotice: (m) => events.push(`notice: ${m}`),
    });
    attachCheckpointHooks(h.ctx.session, {
      beforeConfirm: (rel) => tracker.warnBeforeConfirm(rel),
      beforeWrite: (rel) => tracker.beforeWrite(rel),
      afterWrite: (rel, bytes) => tracker.afterWrite(rel, bytes),
      beforeCommand: (command) => tracker.beforeCommand(command),
    });
    await tracker.beginTurn("u1");
    await h.markRead(MONEY);
    return { events, tracker };
  }

  const edit = { path: MONEY, start: 8, end: 8, content: "export class Money implements MoneyLike { // renamed" };

  it("comes before the confirmation, in the notices and in the question itself, once a turn, and is not said again after the write", async () => {
    const { events, tracker } = await withTracker("apply");
    const r = await editLines.run("t1", edit, h.ctx);
    expect(r.success).toBe(true);
    const warning = `${MONEY} is larger than checkpoints\\.maxFileBytes \\(\\d+ > ${MAX} bytes\\): it is not backed up, so once this change is applied a rewind to this message cannot restore it`;
    const notice = new RegExp(`^notice: ${warning}$`);
    const confirm = new RegExp(`^confirm \\(warned: ${warning}\\)$`);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatch(notice);
    expect(events[1]).toMatch(confirm);
    // A second edit of the file in the same turn: it is in the checkpoint already, nothing new to say.
    await h.markRead(MONEY);
    await editLines.run("t2", { ...edit, content: "export class Money implements MoneyLike { // twice" }, h.ctx);
    expect(events.slice(2)).toEqual(["confirm"]);
    // The next message's checkpoint cannot back it up either: said again, before its first edit.
    await tracker.beginTurn("u2");
    await h.markRead(MONEY);
    await editLines.run("t3", { ...edit, content: "export class Money implements MoneyLike { // thrice" }, h.ctx);
    expect(events.slice(3)).toEqual([expect.stringMatching(notice), expect.stringMatching(confirm)]);
  });

  it("a rejected edit writes nothing, and the warning said so only as a possibility", async () => {
    const { events } = await withTracker("reject");
    const before = h.read(MONEY);
    const r = await editLines.run("t1", edit, h.ctx);
    expect(r).toMatchObject({ success: false, code: "REJECTED" });
    expect(h.read(MONEY)).toBe(before);
    expect(events[0]).toContain("once this change is applied a rewind to this message cannot restore it");
    expect(events[1]).toMatch(/^confirm \(warned: /);
  });
});
