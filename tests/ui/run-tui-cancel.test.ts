// Ctrl+C while the TUI's first index is running: the run stops (worker threads are never cut off
// mid-parse — that aborted the whole process), ipuaro leaves with exit code 1, and the next start
// carries on from what was written instead of starting over.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { generateMonorepo } from "../../bench/generate/generate-monorepo.js";
import { runTui } from "../../src/ui/run-tui.js";
import { FakeOllama } from "../helpers/fake-ollama.js";
import { createHeadlessTerminal, KEYS, type HeadlessTerminal } from "../helpers/headless-terminal.js";
import { useRedisServer } from "../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../helpers/temp-dir.js";
import { stubTuiEnv } from "./tui-test-env.js";

const server = useRedisServer();
let root: string;
let fake: FakeOllama;
let t: HeadlessTerminal | null = null;

beforeAll(async () => {
  root = makeTempDir("ipuaro-cancel-");
  await generateMonorepo({ files: 1500, out: root, seed: 3 });
  // One thread makes the first index last long enough to interrupt it.
  fs.writeFileSync(path.join(root, ".ipuaro.json"), JSON.stringify({ indexing: { workers: 1 } }));
  fake = await new FakeOllama().start();
}, 120_000);
afterAll(async () => {
  await fake?.close();
  removeDir(root);
});
afterEach(() => {
  vi.unstubAllEnvs();
  t?.dispose();
  t = null;
});

it("Ctrl+C during the first index stops it cleanly, and the next start carries on", async () => {
  stubTuiEnv({ redisUrl: server().url, ollamaUrl: fake.url, root: path.join(root, ".ipuaro-test") });
  t = createHeadlessTerminal({ cols: 100, rows: 30 });
  const first = runTui(root, { streams: t.streams, new: true });
  await t.waitFor(() => /indexing ([3-8]\d)%/.test(t!.lines()[0]!), "the first index a third done", 60_000);
  t.type(KEYS.ctrlC);
  expect(await first).toBe(1);
  t.dispose();

  t = createHeadlessTerminal({ cols: 100, rows: 30 });
  const second = runTui(root, { streams: t.streams, new: true });
  await t.waitForText("[watching]", 60_000);
  const note = /Indexed ([\d,]+) files \((\d+) parsed\)/.exec(t.text());
  expect(note).not.toBeNull();
  const [files, parsed] = [Number(note![1]!.replace(/,/g, "")), Number(note![2])];
  // Part of the work was kept: the second start parsed only what the first did not get to.
  expect(parsed).toBeGreaterThan(0);
  expect(parsed).toBeLessThan(files * 0.8);
  t.type(KEYS.ctrlD);
  expect(await second).toBe(0);
}, 180_000);
