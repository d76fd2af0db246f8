// `ipuaro index --drop` from another process while a live index (the TUI's watcher, `index --watch`)
// runs on the project: the live index says the index was dropped, has the project indexed again
// through its indexer, and goes on watching from the rebuilt index.
import { afterEach, beforeEach, expect, it } from "vitest";
import { dropProjectIndex } from "../../../src/main/store/index-drop.js";
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

const MONEY = "packages/core/src/money.ts";
const of = (type: string, from = 0) => w.events.slice(from).filter((e) => e.type === type);

it("a drop under the watcher is said, the index is built again, and watching goes on", async () => {
  const files = await project.store.fileCount();
  const graph = await storedGraph(project);
  expect(await w.json("indexes", "sym:Money")).toEqual([expect.objectContaining({ path: MONEY })]);

  // What the CLI does (index-drop-action.ts), from its own connection's view: every key of the index goes.
  const dropped = await dropProjectIndex(project.store, "ipuaro index --drop");
  expect(dropped.files).toBe(files);

  const said = await waitFor("the dropped event", () => of("dropped")[0]);
  // The files the live index knew (the stat entries the drop counted too).
  expect(said).toEqual({ type: "dropped", files: dropped.files });
  const reloaded = await waitFor("the reload", () => of("reloaded")[0]);
  expect(reloaded).toMatchObject({ rebuilt: true, files: dropped.files });
  await w.watcher.idle();

  // The index is whole again: records, symbols and the graph as a full pass builds them.
  expect(await project.store.fileCount()).toBe(files);
  expect(await w.json("indexes", "sym:Money")).toEqual([expect.objectContaining({ path: MONEY })]);
  expect((await project.store.getAst(MONEY))?.classes.map((c) => c.name)).toContain("Money");
  expect(await storedGraph(project)).toEqual(graph);
  expect(await project.store.lastIndexRun()).not.toBeNull();
  expect(of("dropped")).toHaveLength(1);
  expect(of("error")).toEqual([]);

  // Still watching, from the rebuilt index: a new file lands with its symbols and edges.
  const rel = "packages/core/src/after-drop.ts";
  w.write(rel, 'import { Money } from "./money";\nexport function afterDrop(m: Money): Money {\n  return m;\n}\n');
  await w.waitIndexed(rel);
  expect(await w.json("indexes", "sym:afterDrop")).toEqual([expect.objectContaining({ path: rel, kind: "function" })]);
  expect(await w.json("indexes", `deps:${rel}`)).toEqual([MONEY]);
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  // Settled: no second rebuild follows.
  await new Promise((r) => setTimeout(r, 300));
  expect(of("dropped")).toHaveLength(1);
});

it("an edit made right after the drop is in the rebuilt index", async () => {
  const rel = "packages/core/src/utils/strings.ts";
  await dropProjectIndex(project.store, "ipuaro index --drop");
  w.write(rel, "export function formatLabel(s: string): string {\n  return s.trim();\n}\nexport function dropEdit(): void {}\n");
  await waitFor("the rebuild", () => of("reloaded").find((e) => e.type === "reloaded" && e.rebuilt));
  await w.waitIndexed(rel);
  expect(await w.json("indexes", "sym:dropEdit")).toEqual([expect.objectContaining({ path: rel })]);
  expect(await w.json("indexes", "sym:Money")).toEqual([expect.objectContaining({ path: MONEY })]);
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
});

it("an index run of another process is not taken for a drop", async () => {
  // A forced run resets nothing but rewrites everything and its mark: a reload, never a rebuild.
  await project.indexer.index(await project.indexer.scan(), undefined, undefined, { force: true });
  await waitFor("the reload", () => of("reloaded")[0]);
  await new Promise((r) => setTimeout(r, 300));
  expect(of("dropped")).toEqual([]);
  expect(of("reloaded")[0]).not.toHaveProperty("rebuilt");
});
