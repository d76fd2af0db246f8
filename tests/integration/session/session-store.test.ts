import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/main/config/loader.js";
import type { IpuaroConfig } from "../../../src/main/config/schema.js";
import { findSession, openSession } from "../../../src/main/session/open-session.js";
import { SessionStore, sessionTitle } from "../../../src/main/session/session-store.js";
import { activePath, CANCELLED_RESULT_ERROR, modelView, toLlmMessages } from "../../../src/main/session/session-tree.js";
import { sessionDataKey } from "../../../src/main/store/keys.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const server = useRedisServer();
let redis: Redis;
let root: string;
let config: IpuaroConfig;

beforeAll(() => {
  redis = new Redis({ path: server().socket });
  root = makeTempDir("ipuaro-session-");
  config = loadConfig({ projectRoot: root, env: { XDG_CONFIG_HOME: `${root}/.no-user-config` } }).config;
});
afterAll(async () => {
  redis.disconnect();
  removeDir(root);
});
beforeEach(async () => {
  await redis.flushdb();
});

const open = (choice: Parameters<typeof openSession>[0]["choice"], projectName = "work-app") =>
  openSession({ redis, projectName, root, config, choice });

describe("session titles", () => {
  it("are the first line of the first user message, whitespace collapsed, cut at 80 characters", () => {
    const user = (content: string) => ({ id: "u", parentId: null, kind: "message" as const, message: { role: "user" as const, content, timestamp: 1 } });
    expect(sessionTitle([])).toBe("");
    expect(sessionTitle([user("\n  Почему   падает\tтест?\nвторая строка")])).toBe("Почему падает тест?");
    const long = sessionTitle([user(`${"ж".repeat(100)}`)]);
    expect(Array.from(long)).toHaveLength(80);
    expect(long.endsWith("…")).toBe(true);
    expect(sessionTitle([user("😀".repeat(90))])).toBe(`${"😀".repeat(79)}…`);
  });
});

describe("session store", () => {
  it("creates a session, keeps its entries with parent links and lists the project's sessions newest first", async () => {
    const { session: a, created } = await open({ kind: "new" });
    expect(created).toBe(true);
    const u1 = await a.appendMessage({ role: "user", content: "first question", timestamp: 1000 });
    const a1 = await a.appendMessage({ role: "assistant", content: "first answer", timestamp: 2000 });
    const { session: b } = await open({ kind: "new" });
    await b.appendMessage({ role: "user", content: "other", timestamp: 3000 });

    const store = new SessionStore(redis, "work-app");
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(list[1]).toMatchObject({ id: a.id, messages: 2, title: "first question" });
    expect(list[0]).toMatchObject({ id: b.id, title: "other" });
    expect(list[1]!.lastActivityAt).toBeGreaterThanOrEqual(list[1]!.createdAt);

    const loaded = (await store.load(a.id))!;
    const path = activePath(loaded);
    expect(path.map((e) => e.id)).toEqual([u1, a1]);
    expect(path[0]!.parentId).toBeNull();
    expect(path[1]!.parentId).toBe(u1);
    // Redis holds one hash field per entry, not a rewritten array.
    expect(await redis.hexists(sessionDataKey(a.id), `e:${a1}`)).toBe(1);
  });

  it("gives a session saved before titles existed its title when listed, and stores it", async () => {
    const { session: old } = await open({ kind: "new" });
    await old.appendMessage({ role: "user", content: "\nпочему падает сборка? 🧑‍💻\nподробности", timestamp: 1000 });
    const { session: empty } = await open({ kind: "new" });
    await redis.hdel(sessionDataKey(old.id), "title");
    const store = new SessionStore(redis, "work-app");
    const list = await store.list();
    expect(list.find((s) => s.id === old.id)?.title).toBe("почему падает сборка? 🧑‍💻");
    expect(list.find((s) => s.id === empty.id)?.title).toBe("");
    expect(await redis.hget(sessionDataKey(old.id), "title")).toBe("почему падает сборка? 🧑‍💻");
    // A damaged one is still listed, untitled (opening it says what is wrong).
    await redis.hdel(sessionDataKey(old.id), "title");
    await redis.hset(sessionDataKey(old.id), "stats", "{broken");
    expect((await store.list()).find((s) => s.id === old.id)).toMatchObject({ title: "", messages: 1 });
  });

  it("keeps an old branch when head moves back and the conversation goes another way", async () => {
    const { session } = await open({ kind: "new" });
    const u1 = await session.appendMessage({ role: "user", content: "q1", timestamp: 1 });
    const a1 = await session.appendMessage({ role: "assistant", content: "a1", timestamp: 2 });
    // What a rewind does: the head goes back to u1, the next message starts a second branch.
    session.state.head = u1;
    await session.saveState();
    const a2 = await session.appendMessage({ role: "assistant", content: "a1 (second try)", timestamp: 3 });

    const loaded = (await new SessionStore(redis, "work-app").load(session.id))!;
    expect(loaded.entries.size).toBe(3);
    expect(activePath(loaded).map((e) => e.id)).toEqual([u1, a2]);
    expect(loaded.entries.get(a1)).toMatchObject({ parentId: u1 });
    expect((await new SessionStore(redis, "work-app").list())[0]!.messages).toBe(2);
  });

  it("continues the project's last session with kind 'last', and starts one when the project has none", async () => {
    const first = await open({ kind: "last" });
    expect(first.created).toBe(true);
    await first.session.appendMessage({ role: "user", content: "hello", timestamp: Date.now() });
    const again = await open({ kind: "last" });
    expect(again.created).toBe(false);
    expect(again.session.id).toBe(first.session.id);
    expect(again.session.messages().map((m) => m.content)).toEqual(["hello"]);
    // Another project's sessions are not this project's.
    const other = await open({ kind: "last" }, "work-other");
    expect(other.created).toBe(true);
    await expect(open({ kind: "id", id: first.session.id }, "work-other")).rejects.toThrow(/belongs to project work-app/);
  });

  it("says clearly when a session id does not exist", async () => {
    await expect(open({ kind: "id", id: "20990101-000000-dead" })).rejects.toThrow("no session 20990101-000000-dead in project work-app");
    await expect(open({ kind: "id", id: "bad id{x}" })).rejects.toThrow("no session bad id{x} in project work-app");
    await expect(findSession({ redis, projectName: "work-app", root, config, id: null })).resolves.toBeNull();
  });

  it("keeps the input history in the session, without consecutive repeats or long pastes", async () => {
    const { session } = await open({ kind: "new" });
    for (const t of ["one", "two", "two", "three", "a long paste ".repeat(1000)]) await session.addInput(t);
    const loaded = (await new SessionStore(redis, "work-app").load(session.id))!;
    expect(loaded.inputHistory).toEqual(["one", "two", "three"]);
  });

  it("lets ↑ reach the prompts of the project's other sessions: older first, each once, gone with its session", async () => {
    // Sessions started in one millisecond have no order (their ids differ only in a random part).
    const nextMs = () => new Promise((r) => setTimeout(r, 3));
    const { session: a } = await open({ kind: "new" });
    for (const t of ["почини тест 🧪", "run the tests"]) await a.addInput(t);
    await nextMs();
    const { session: b } = await open({ kind: "new" });
    for (const t of ["run the tests", "rename Money"]) await b.addInput(t);
    const { session: elsewhere } = await open({ kind: "new" }, "other-app");
    await elsewhere.addInput("not this project");
    await nextMs();

    const { session: c } = await openSession({ redis, projectName: "work-app", root, config, choice: { kind: "new" }, earlierInputs: true });
    expect(c.inputs()).toEqual(["почини тест 🧪", "run the tests", "rename Money"]);
    await c.addInput("почини тест 🧪");
    expect(c.inputs()).toEqual(["run the tests", "rename Money", "почини тест 🧪"]);
    // Only this session's own prompts are stored with it.
    expect((await new SessionStore(redis, "work-app").load(c.id))!.inputHistory).toEqual(["почини тест 🧪"]);

    await new SessionStore(redis, "work-app").delete(b.id);
    await nextMs();
    const { session: d } = await openSession({ redis, projectName: "work-app", root, config, choice: { kind: "new" }, earlierInputs: true });
    expect(d.inputs()).toEqual(["run the tests", "почини тест 🧪"]);
    // Without the option (ipuaro run, tool): this session's prompts only.
    expect((await open({ kind: "id", id: c.id })).session.inputs()).toEqual(["почини тест 🧪"]);
  });

  it("shares no prompts when the input history is not saved", async () => {
    const { session: a } = await open({ kind: "new" });
    await a.addInput("first");
    const quiet = { ...config, session: { ...config.session, saveInputHistory: false } };
    const { session: b } = await openSession({ redis, projectName: "work-app", root, config: quiet, choice: { kind: "new" }, earlierInputs: true });
    expect(b.inputs()).toEqual([]);
    await b.addInput("second");
    expect(b.inputs()).toEqual([]);
  });

  it("deletes a session with its undo stack and removes it from the list", async () => {
    const { session } = await open({ kind: "new" });
    await session.undoStack.push({ filePath: "a.ts", previousContent: ["a"], newContent: ["b"], description: "x", tool: "edit_lines" });
    const store = new SessionStore(redis, "work-app");
    expect(await store.delete(session.id)).toBe(true);
    expect(await redis.exists(sessionDataKey(session.id), session.undoStack.key)).toBe(0);
    expect(await store.list()).toEqual([]);
    expect(await store.delete(session.id)).toBe(false);
  });

  it("refuses damaged data with a message naming the session", async () => {
    const { session } = await open({ kind: "new" });
    await redis.hset(sessionDataKey(session.id), "e:zz", "{not json");
    await expect(new SessionStore(redis, "work-app").load(session.id)).rejects.toThrow(`session ${session.id} is damaged: field e:zz is not valid JSON`);
  });

  it("gives calls a killed run left without results a 'cancelled' result when the session is opened again", async () => {
    const { session } = await open({ kind: "new" });
    await session.appendMessage({ role: "user", content: "read two files", timestamp: 1 });
    await session.appendMessage({
      role: "assistant",
      content: "<tool_call name=\"get_lines\"><path>a.ts</path></tool_call><tool_call name=\"get_lines\"><path>b.ts</path></tool_call>",
      timestamp: 2,
      toolCalls: [
        { id: "call_1", name: "get_lines", parameters: { path: "a.ts" } },
        { id: "call_2", name: "get_lines", parameters: { path: "b.ts" } },
      ],
    });
    // The first result was stored, then the process died before the second call finished.
    await session.appendMessage({
      role: "tool",
      content: '<tool_result name="get_lines" call_id="call_1" ok="true">\n1│ a\n</tool_result>',
      timestamp: 3,
      toolResults: [{ callId: "call_1", name: "get_lines", success: true }],
    });
    const reopened = await open({ kind: "id", id: session.id });
    expect(reopened.repairedCalls).toBe(1);
    const last = reopened.session.messages().at(-1)!;
    expect(last.role).toBe("tool");
    expect(last.toolResults?.map((r) => [r.callId, r.success, r.synthetic ?? false])).toEqual([
      ["call_1", true, false],
      ["call_2", false, true],
    ]);
    expect(last.content).toContain('call_id="call_2" ok="false"');
    expect(last.content).toContain(CANCELLED_RESULT_ERROR);
    // Repaired once, in Redis: opening again changes nothing, and new calls continue the numbering.
    const third = await open({ kind: "id", id: session.id });
    expect(third.repairedCalls).toBe(0);
    expect(third.session.nextCallId()).toBe("call_3");
    const history = toLlmMessages(modelView(activePath(third.session.state)));
    // The turn the dead run was in got no answer: the model is told so, after the repaired results.
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(history.at(-1)!.content).toBe("[This answer was cut off: ipuaro stopped before it was complete.]");
  });

  it("answers every call of a reply that was stored without any result", async () => {
    const { session } = await open({ kind: "new" });
    await session.appendMessage({ role: "user", content: "q", timestamp: 1 });
    await session.appendMessage({
      role: "assistant",
      content: "<tool_call name=\"get_structure\"></tool_call>",
      timestamp: 2,
      toolCalls: [{ id: "call_1", name: "get_structure", parameters: {} }],
    });
    const reopened = await open({ kind: "last" });
    expect(reopened.repairedCalls).toBe(1);
    expect(reopened.session.messages().map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });
});
