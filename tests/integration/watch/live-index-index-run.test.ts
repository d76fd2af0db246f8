// Another process's index run writes the index while a live index runs (`ipuaro index` in a second
// terminal beside the TUI). Either side may land a file's older content last; the run's mark makes the
// live index reload what the run stored and re-read the files it updated itself while the run went on.
import { afterEach, beforeEach, expect, it } from "vitest";
import { encodeIndexRunMark, INDEX_RUN_FIELD } from "../../../src/pipeline/index-run-mark.js";
import type { FileUpdateEvent } from "../../../src/pipeline/watch/live-index.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { openIndexedAcmeShop } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { closeWatched, startWatching, TEST_DEBOUNCE_MS, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeEach(async () => {
  project = await openIndexedAcmeShop(server().url);
  w = await startWatching(project, TEST_DEBOUNCE_MS, 50);
});
afterEach(() => closeWatched(project, w));

const INDEX_PARTS = ["files", "ast", "facts", "stat", "meta", "indexes"] as const;
const REL = "packages/core/src/money.ts";
const CHANGED = 'import { formatLabel } from "./utils/strings";\nexport type Currency = "EUR" | "USD";\nexport function label(c: Currency): string {\n  return formatLabel(c);\n}\n';

/** The index as it is now: what a run that read every file by now writes, kept to land later. */
async function snapshotIndex(): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const part of INDEX_PARTS) {
    const dumped = await project.redis.dumpBuffer(w.key(part));
    if (dumped) out.set(w.key(part), dumped);
  }
  return out;
}

/** Lands another run's writes (the snapshot) and its mark, at once, as its commit would. */
async function landOtherRun(snapshot: Map<string, Buffer>, startedAt: number): Promise<void> {
  const multi = project.redis.multi();
  for (const [key, dumped] of snapshot) multi.restore(key, 0, dumped, "REPLACE");
  multi.hset(w.key("config"), INDEX_RUN_FIELD, encodeIndexRunMark({ id: `other-${startedAt}`, startedAt }));
  await multi.exec();
}

const reloads = () => w.events.filter((e) => e.type === "reloaded");
const updatesOf = (rel: string, from: number) => w.events.slice(from).filter((e): e is FileUpdateEvent & { type: "updated" } => e.type === "updated" && e.path === rel);

it("a file it updated while another run went on is read again when that run lands an older copy", async () => {
  const runStarted = Date.now();
  const olderCopy = await snapshotIndex();
  w.write(REL, CHANGED);
  const hash = await w.waitIndexed(REL);
  const before = w.events.length;

  await landOtherRun(olderCopy, runStarted);
  expect(await w.indexedHash(REL)).not.toBe(hash); // the race's outcome: the older content won

  await waitFor("the reload", () => reloads().length === 1);
  expect(reloads()[0]).toMatchObject({ type: "reloaded", rechecked: 1 });
  await waitFor("the file read again", async () => (await w.indexedHash(REL)) === hash);
  await w.watcher.idle();
  expect(updatesOf(REL, before)).toHaveLength(1);
  // Records, symbols and edges all follow the content on disk again.
  expect((await project.store.getFile(REL))?.kind === "text" && (await project.store.getAst(REL))?.functions.map((f) => f.name)).toEqual(["label"]);
  expect(await w.json<string[]>("indexes", `deps:${REL}`)).toEqual(["packages/core/src/utils/strings.ts"]);
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
});

it("rewrites the graph from what the run stored when its own updates overlapped that run", async () => {
  const runStarted = Date.now();
  w.write(REL, CHANGED);
  await w.waitIndexed(REL);
  const snapshot = await snapshotIndex();
  await landOtherRun(snapshot, runStarted);
  // A delta worked out before that run's commit and landed after it: a neighbour's meta as the old
  // graph had it (here: a dependents list the stored facts do not give).
  const neighbour = "packages/core/src/utils/strings.ts";
  const meta = (await w.json<{ dependents: string[] }>("meta", neighbour)) as { dependents: string[] };
  await project.redis.hset(w.key("meta"), neighbour, JSON.stringify({ ...meta, dependents: ["apps/api/src/main.ts"] }));

  await waitFor("the reload", () => reloads().length === 1);
  expect(reloads()[0]).toMatchObject({ rechecked: 1 });
  await w.watcher.idle();
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  expect((await w.json<{ dependents: string[] }>("meta", neighbour))?.dependents).toContain(REL);
});

it("a run that began after its last update is reloaded without reading anything again", async () => {
  w.write(REL, CHANGED);
  await w.waitIndexed(REL);
  const before = w.events.length;
  // The other run read the new content: what it stores is current, so there is nothing to re-check.
  await landOtherRun(await snapshotIndex(), Date.now() + 60_000);
  await waitFor("the reload", () => reloads().length === 1);
  await w.watcher.idle();
  expect(reloads()[0]).toMatchObject({ rechecked: 0 });
  expect(w.events.slice(before).filter((e) => e.type !== "reloaded")).toEqual([]);

  // Later updates are worked out from the reloaded index.
  w.write("packages/core/src/utils/strings.ts", "export function formatLabel(s: string): string {\n  return s.trim();\n}\n");
  await w.waitIndexed("packages/core/src/utils/strings.ts");
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
});

it("a run that wrote nothing leaves it alone", async () => {
  expect((await project.reindex()).parsed).toBe(0);
  // Several checks go by (every 50 ms here) without a reload.
  await new Promise((r) => setTimeout(r, 300));
  expect(reloads()).toEqual([]);
});
