// `ipuaro run` keeping sessions, `ipuaro sessions`, `ipuaro undo` and `run --eval`, as separate
// processes against a fake Ollama and a real Redis.
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import os from "node:os";
import { projectNameFor, sessionLeaseKey } from "../../src/main/store/keys.js";
import { UndoStack } from "../../src/main/session/undo-stack.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";
import { runCli } from "../integration/session/session-cli.js";

// A stand-in holder cannot renew its lease as a live one does: it holds it for longer than any test
// here takes, however loaded the machine (the tests delete it when done).
const HELD_MS = 600_000;

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
let redis: Redis;

beforeAll(async () => {
  root = buildAcmeShop();
  redis = new Redis({ path: server().socket });
  fake = await new FakeOllama().start();
});
afterAll(async () => {
  redis.disconnect();
  await fake.close();
  removeDir(root);
});
afterEach(() => {
  fake.assertAllConsumed();
  fake.reset();
});

const env = () => ({ IPUARO_REDIS_URL: server().url, OLLAMA_HOST: fake.url, XDG_CONFIG_HOME: path.join(root, ".xdg"), IPUARO_HOME: path.join(root, ".home") });
const cli = (...args: string[]) => runCli(args, env());
const json = async (...args: string[]) => {
  const r = await cli(...args, "--json");
  if (r.code !== 0) throw new Error(`ipuaro ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const nonSystem = (i: number) => fake.chatRequests[i]!.messages.filter((m) => m.role !== "system").map((m) => m.content);

// Every step spawns a CLI from its sources (tsx, ~2 s each); one test runs seven in a row, which on two
// cores shared with the rest of the suite took 37 s, so it gets more than the suite-wide 60 s.
describe("sessions from the command line", { timeout: 90_000 }, () => {
  let first = "";
  let second = "";

  it("starts a new session per run, lists them newest first and continues one with --continue or --session", async () => {
    fake.reply().text("Money lives in packages/core/src/money.ts.");
    const a = await cli("run", "-p", "Where is Money?", root);
    expect(a.code).toBe(0);
    first = /session (\S+) \(new\)/.exec(a.stderr)![1]!;

    fake.reply().text("The logger is in packages/core/src/logger.ts.");
    const b = await json("run", "-p", "Where is the logger?", root);
    second = b.session;
    expect(second).not.toBe(first);

    const list = await json("sessions", "list", root);
    expect(Object.keys(list)).toEqual(["sessions"]);
    expect(list.sessions.map((s: { id: string }) => s.id)).toEqual([second, first]);
    for (const s of list.sessions) {
      expect(Object.keys(s).sort()).toEqual(["createdAt", "id", "lastActivityAt", "messages", "title"]);
      expect(s.messages).toBe(2);
    }
    expect(list.sessions.map((s: { title: string }) => s.title)).toEqual(["Where is the logger?", "Where is Money?"]);
    const table = (await cli("sessions", root)).stdout.split("\n");
    expect(table[0]).toMatch(/^ID +CREATED +LAST ACTIVITY +MESSAGES +FIRST MESSAGE$/);
    expect(table[1]).toMatch(new RegExp(`^${second} .* 2 +Where is the logger\\?$`));

    fake.reply().text("It has info().");
    const c = await json("run", "--continue", "-p", "What does it have?", root);
    expect(c.session).toBe(second);
    expect(nonSystem(2)).toEqual(["Where is the logger?", "The logger is in packages/core/src/logger.ts.", "What does it have?"]);

    fake.reply().text("Cents.");
    const d = await json("run", "--session", first, "-p", "In what unit?", root);
    expect(d.session).toBe(first);
    expect(nonSystem(3)).toEqual(["Where is Money?", "Money lives in packages/core/src/money.ts.", "In what unit?"]);
    // Most recent activity first: the first session was just used.
    const again = await json("sessions", root);
    expect(again.sessions.map((s: { id: string; messages: number }) => [s.id, s.messages])).toEqual([
      [first, 4],
      [second, 4],
    ]);
  });

  it("shows a session's conversation, stats and input history", async () => {
    const shown = await json("sessions", "show", first, root);
    expect(shown.history.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ["user", "Where is Money?"],
      ["assistant", "Money lives in packages/core/src/money.ts."],
      ["user", "In what unit?"],
      ["assistant", "Cents."],
    ]);
    expect(shown.history[1].parentId).toBe(shown.history[0].id);
    expect(shown.stats).toMatchObject({ turns: 2, toolCalls: 0 });
    expect(shown.stats.totalTokens).toBeGreaterThan(0);
    expect(shown.inputHistory).toEqual(["Where is Money?", "In what unit?"]);
    expect(shown.context.tokensLimit).toBe(32768);

    const text = await cli("sessions", "show", first, root);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`session ${first}`);
    // Each user message heads its turn with the turn's stats line, as the chat shows it under the answer.
    expect(text.stdout).toMatch(/── user · [\d-]+ [\d:]+ · ⏱ \d+\.\ds │ [\d,]+ tokens │ 0 tool calls\nWhere is Money\?/);
    expect(shown.history[0].turnStats).toMatchObject({ toolCalls: 0 });
    expect(shown.history[0].turnStats.tokens).toBeGreaterThan(0);
    expect(text.stdout).toMatch(/2 turns │ [\d,]+ tokens/);
  });

  it("--eval makes the model re-check its last answer with the read tools and prints its report", async () => {
    fake.reply().text('<tool_call name="get_lines"><path>packages/core/src/money.ts</path><start>8</start><end>9</end></tool_call>');
    fake.reply().text("## Confirmed\n- Money is in packages/core/src/money.ts:8\n## Not confirmed\n- none\n## Verdict\nThe answer holds.");
    const r = await cli("run", "--eval", "--session", first, root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("## Confirmed\n- Money is in packages/core/src/money.ts:8");
    expect(r.stderr).toContain("[get_lines packages/core/src/money.ts 8-9]");
    const asked = fake.chatRequests[0]!.messages.at(-1)!.content;
    expect(asked).toContain("<previous_answer>\nCents.\n</previous_answer>");
    expect(asked).toContain("## Not confirmed");
    const shown = await json("sessions", "show", first, root);
    expect(shown.history.at(-4)).toMatchObject({ role: "user", command: "eval" });
    // An eval prompt is not something the user typed: not in the ↑/↓ history.
    expect(shown.inputHistory).toEqual(["Where is Money?", "In what unit?"]);
  });

  it("rejects contradictory options and unknown sessions with a clear message", async () => {
    const both = await cli("run", "-p", "x", "--eval", root);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("-p and --eval exclude each other");
    const neither = await cli("run", root);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("give the message with -p/--prompt (or pipe it in), or --eval");
    const blank = await cli("run", "-p", "  ", root);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("the message given with -p/--prompt is empty");
    const contra = await cli("run", "-p", "x", "--continue", "--session", first, root);
    expect(contra.code).toBe(2);
    // The UI takes --continue too (what it does anyway), and says when it contradicts --new.
    const tui = await cli("--continue", "--new", root);
    expect(tui.code).toBe(2);
    expect(tui.stderr).toContain("--continue cannot be combined with --new or --session");
    expect((await cli("tui", "--help")).stdout).toContain("-c, --continue");
    const missing = await cli("sessions", "show", "20990101-000000-beef", root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`ipuaro: no session 20990101-000000-beef in project ${projectNameFor(root)}`);
    expect(missing.stderr).not.toContain("config error");
    expect(missing.stderr).toContain("ipuaro sessions list");
  });

  it("undoes the last edit headless, and refuses with the diff when the file changed since", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    const file = path.join(root, rel);
    const original = fs.readFileSync(file, "utf8");
    const edited = original.replace("slugify", "slugifyText");
    const stack = new UndoStack(redis, second, 10);
    // What an edit tool does: the entry first, then the write.
    await stack.push({ filePath: rel, previousContent: original.split("\n"), newContent: edited.split("\n"), description: "rename slugify", tool: "edit_lines" });
    fs.writeFileSync(file, edited);

    fs.writeFileSync(file, `${edited}// a later hand edit\n`);
    const refused = await cli("undo", root, "--session", second);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Cannot undo rename slugify`);
    expect(refused.stderr).toContain(`${rel} was changed after that edit`);
    expect(refused.stderr).toContain("+// a later hand edit");
    expect(fs.readFileSync(file, "utf8")).toBe(`${edited}// a later hand edit\n`);

    fs.writeFileSync(file, edited);
    const undone = await json("undo", root, "--session", second);
    expect(undone).toMatchObject({ status: "undone", action: "restored", session: second, entry: { filePath: rel, description: "rename slugify" } });
    expect(fs.readFileSync(file, "utf8")).toBe(original);
    const shown = await json("sessions", "show", second, root);
    expect(shown.stats.undos).toBe(1);
    expect(shown.undoStack).toEqual([]);
    const nothing = await cli("undo", root, "--session", second);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("Nothing to undo");
    // Where the older edits went: the stack's size and the way further back.
    expect(nothing.stderr).toContain("(it keeps the newest 10, undo.stackSize). Earlier edits can be taken back with rewind.");
  });

  it("a file read in an earlier run can be edited after --continue while the model still sees it, never over a change made since", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    const file = path.join(root, rel);
    const before = fs.readFileSync(file, "utf8");
    fake.reply().toolCall("get_lines", { path: rel, start: 1, end: 5 });
    fake.reply().text("Read it.");
    const read = await json("run", "-p", "Read strings.ts", root);

    // Two edits in one reply: the second still counts lines as read (line 9), though the first added one.
    fake
      .reply()
      .toolCall("edit_lines", { path: rel, start: 1, end: 1, content: "// strings helpers\n// (ASCII)" })
      .toolCall("edit_lines", { path: rel, start: 9, end: 9, content: "export function truncate(input: string, max = 80): string {" });
    fake.reply().text("Edited.");
    const edited = await json("run", "--continue", "--auto-apply", "-p", "Put a comment on line 1 and a default max", root);
    expect(edited.session).toBe(read.session);
    expect(edited.toolCalls).toEqual([expect.objectContaining({ name: "edit_lines", success: true }), expect.objectContaining({ name: "edit_lines", success: true })]);
    const lines = before.split("\n");
    expect(fs.readFileSync(file, "utf8")).toBe(["// strings helpers", "// (ASCII)", ...lines.slice(1, 8), "export function truncate(input: string, max = 80): string {", ...lines.slice(9)].join("\n"));

    // Changed by hand between runs: the edit is not applied over it.
    const byHand = `// by hand\n${fs.readFileSync(file, "utf8")}`;
    fs.writeFileSync(file, byHand);
    fake.reply().toolCall("edit_lines", { path: rel, start: 1, end: 1, content: "// again" });
    fake.reply().text("Skipped.");
    const stale = await json("run", "--continue", "--auto-apply", "-p", "Change line 1 again", root);
    expect(stale.toolCalls).toEqual([expect.objectContaining({ name: "edit_lines", success: false, error: expect.stringContaining("changed on disk since you read it") })]);
    expect(fs.readFileSync(file, "utf8")).toBe(byHand);

    // A session that never read the file still has to read it first.
    fake.reply().toolCall("edit_lines", { path: rel, start: 1, end: 1, content: "// new session" });
    fake.reply().text("Must read.");
    const fresh = await json("run", "--auto-apply", "-p", "Change line 1", root);
    expect(fresh.toolCalls).toEqual([expect.objectContaining({ name: "edit_lines", success: false, error: expect.stringContaining("you have not read") })]);
    fs.writeFileSync(file, before);
  });

  it("a session open in another ipuaro is neither continued, rewound, undone nor deleted from here", async () => {
    const ui = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      const last = (await json("sessions", "list", root)).sessions[0].id as string;
      await redis.set(sessionLeaseKey(last), JSON.stringify({ pid: ui.pid, host: os.hostname(), since: Date.now(), what: "the UI", token: "ui" }), "PX", HELD_MS);
      for (const args of [["run", "-c", "-p", "more"], ["rewind", "1"], ["undo"], ["sessions", "delete", last]]) {
        const r = await cli(...args, root);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.stderr).toContain(`session ${last} is open in another ipuaro: the UI (pid ${ui.pid}`);
      }
      // Reading it is fine, and the list says who has it.
      expect((await cli("rewind", "--list", root)).code).toBe(0);
      expect((await json("sessions", "list", root)).sessions[0]).toMatchObject({ id: last, openIn: expect.stringContaining(`the UI (pid ${ui.pid}`) });
      expect((await cli("sessions", "list", root)).stdout).toContain(`[open in the UI (pid ${ui.pid}`);
    } finally {
      ui.kill();
      await redis.del(sessionLeaseKey((await json("sessions", "list", root)).sessions[0].id));
    }
  });

  it("a session held elsewhere is refused with a fix run accepts (no --new, which run does not have)", async () => {
    const ui = spawn("sleep", ["600"], { stdio: "ignore" });
    const last = (await json("sessions", "list", root)).sessions[0].id as string;
    try {
      await redis.set(sessionLeaseKey(last), JSON.stringify({ pid: ui.pid, host: os.hostname(), since: Date.now(), what: "ipuaro run", token: "run" }), "PX", HELD_MS);
      const byId = await cli("run", "--session", last, "-p", "more", root);
      expect(byId.code).toBe(1);
      expect(byId.stderr).toContain(`session ${last} is open in another ipuaro`);
      expect(byId.stderr).toContain("leave out --session to start a new session");
      expect(byId.stderr).not.toContain("--new");
      const evalLast = await cli("run", "--eval", root);
      expect(evalLast.code).toBe(1);
      expect(evalLast.stderr).not.toMatch(/--new|leave out --continue/);
      expect(evalLast.stderr).toContain("--eval --session");
    } finally {
      ui.kill();
      await redis.del(sessionLeaseKey(last));
    }
  });

  it("--eval where there is nothing to check is an input error, and creates no session", async () => {
    const empty = makeTempDir("ipuaro-eval-empty-");
    try {
      writeTree(empty, { "src/a.ts": "export const a = 1;\n" });
      const none = await cli("run", "--eval", empty);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain("has no session with an answer to check");
      expect(none.stderr).not.toContain("config error");
      expect(none.stderr).not.toContain("(new");
      expect((await json("sessions", "list", empty)).sessions).toEqual([]);
      // A session whose only turn got no answer (the model failed) has nothing to check either.
      fake.reply().httpError(400, "bad request");
      expect((await cli("run", "-p", "hi", empty)).code).toBe(1);
      const [only] = (await json("sessions", "list", empty)).sessions as Array<{ id: string }>;
      const unanswered = await cli("run", "--eval", empty);
      expect(unanswered.code).toBe(1);
      expect(unanswered.stderr).toContain(`session ${only!.id} has no answer to check yet`);
      expect(unanswered.stderr).not.toContain("config error");
      expect((await json("sessions", "list", empty)).sessions).toHaveLength(1);
    } finally {
      removeDir(empty);
    }
  });

  it("deletes a session", async () => {
    expect(await json("sessions", "delete", second, root)).toEqual({ deleted: second });
    const ids = (await json("sessions", "list", root)).sessions.map((s: { id: string }) => s.id);
    expect(ids).not.toContain(second);
    expect(ids).toContain(first);
    const again = await cli("sessions", "delete", second, root);
    expect(again.code).toBe(1);
    // An id no session can have is just not there: no stack trace from the lock's key check.
    for (const id of ["x y", "*", ""]) {
      const odd = await cli("sessions", "delete", id, root);
      expect(odd.code, id).toBe(1);
      expect(odd.stderr).toContain(`no session ${id} in project`);
      expect(odd.stderr).not.toContain("    at ");
    }
  });
});
