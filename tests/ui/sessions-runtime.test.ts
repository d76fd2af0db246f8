// /sessions over the real runtime: a session another live ipuaro holds (a real lease in Redis, held
// by a real other process) is marked in the list with who has it, and loading it is refused at once.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { SessionStore } from "../../src/main/session/session-store.js";
import { UndoStack } from "../../src/main/session/undo-stack.js";
import { projectNameFor, sessionLeaseKey } from "../../src/main/store/keys.js";
import { runTui } from "../../src/ui/run-tui.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { createHeadlessTerminal, KEYS, type HeadlessTerminal } from "../helpers/headless-terminal.js";
import { buildAcmeShop } from "../helpers/indexed-project.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { removeDir } from "../helpers/temp-dir.js";
import { stubTuiEnv } from "./tui-test-env.js";

// A stand-in holder cannot renew its lease as a live one does: it holds it for longer than any test
// here takes, however loaded the machine (the tests delete it when done).
const HELD_MS = 600_000;

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
let redis: Redis;
let other: ChildProcess;
let t: HeadlessTerminal | null = null;

beforeAll(async () => {
  root = buildAcmeShop();
  fake = await new FakeOllama().start();
  redis = new Redis({ path: server().socket });
  other = spawn("sleep", ["600"], { stdio: "ignore" });
});
afterAll(async () => {
  other.kill();
  redis.disconnect();
  await fake?.close();
  removeDir(root);
});
afterEach(() => {
  vi.unstubAllEnvs();
  t?.dispose();
  t = null;
});

it("marks a session open in another ipuaro and refuses to load it at once", async () => {
  stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root });
  const elsewhere = await new SessionStore(redis, projectNameFor(root)).create(root);
  const id = elsewhere.meta.id;
  await redis.set(sessionLeaseKey(id), JSON.stringify({ pid: other.pid, host: os.hostname(), since: Date.now(), what: "ipuaro run", token: "theirs" }), "PX", HELD_MS);
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  const exited = runTui(root, { streams: t.streams, new: true });
  await t.waitForText("[watching]", 30_000);
  t.type("/sessions", KEYS.enter);
  await t.waitForText(`◌ ${id}`);
  await t.waitForText(`(open in ipuaro run (pid ${other.pid}`);
  const row = t.find(`◌ ${id}`)!;
  const current = t.find("● ")!;
  t.type(row.y > current.y ? KEYS.down : KEYS.up, KEYS.enter);
  await t.waitForText(`${id} is open in ipuaro run (pid ${other.pid}`);
  t.type(KEYS.escape);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
}, 90_000);

it("a session opened and left with no message is not kept: it would pass for the project's last one; one holding an edit stays", async () => {
  stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root });
  const store = new SessionStore(redis, projectNameFor(root));
  const before = (await store.list()).map((s) => s.id);
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  let exited = runTui(root, { streams: t.streams, new: true });
  await t.waitForText("[watching]", 30_000);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
  expect((await store.list()).map((s) => s.id)).toEqual(before);

  // A session with only an edit in its undo stack (what `ipuaro tool edit_lines` leaves) is kept when continued and left.
  const withEdit = await store.create(root);
  await new UndoStack(redis, withEdit.meta.id, 10).push({ filePath: "package.json", previousContent: ["{}"], newContent: ["{ }"], description: "d", tool: "edit_lines" });
  t.dispose();
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  exited = runTui(root, { streams: t.streams, session: withEdit.meta.id });
  await t.waitForText("[watching]", 30_000);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
  expect((await store.list()).map((s) => s.id)).toContain(withEdit.meta.id);
}, 90_000);

it("opening a session and leaving it (quit, or another one loaded) keeps its last-activity time: the list stays in order of use", async () => {
  stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root });
  const store = new SessionStore(redis, projectNameFor(root));
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  let exited = runTui(root, { streams: t.streams, new: true });
  await t.waitForText("[watching]", 30_000);
  fake.reply().text("Cents.");
  t.type("What unit is money in?", KEYS.enter);
  await t.waitForText("Cents.", 20_000);
  await t.waitFor(() => t!.lines()[0]!.includes("✓"), "the ready mark", 20_000);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
  const used = (await store.list()).find((s) => s.title === "What unit is money in?")!;
  expect(used).toBeDefined();

  // Opened again and quit without a word.
  await new Promise((r) => setTimeout(r, 20));
  t.dispose();
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  exited = runTui(root, { streams: t.streams, session: used.id });
  await t.waitForText("Cents.", 30_000);
  await t.waitForText("[watching]", 30_000);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
  expect((await store.list()).find((s) => s.id === used.id)!.lastActivityAt).toBe(used.lastActivityAt);

  // Opened again, then another session loaded from /sessions.
  const other = await store.create(root);
  t.dispose();
  t = createHeadlessTerminal({ cols: 130, rows: 30 });
  exited = runTui(root, { streams: t.streams, session: used.id });
  await t.waitForText("[watching]", 30_000);
  t.type("/sessions", KEYS.enter);
  const target = other.meta.id;
  await t.waitForText(target);
  const row = t.find(target)!;
  const current = t.find("● ")!;
  const moves = Array.from({ length: Math.abs(row.y - current.y) }, () => (row.y > current.y ? KEYS.down : KEYS.up));
  t.type(...moves, KEYS.enter);
  await t.waitForNoText("Cents.", 10_000);
  t.type(KEYS.ctrlD);
  expect(await exited).toBe(0);
  expect((await store.list()).find((s) => s.id === used.id)!.lastActivityAt).toBe(used.lastActivityAt);
}, 120_000);
