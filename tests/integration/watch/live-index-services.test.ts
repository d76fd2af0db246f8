// The TUI's index services against a real watcher: a write of a path the index tracks waits for the
// watcher's report (a warm re-index only when it stays silent); any other path answers at once.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { IndexServices } from "../../../src/main/session/live-session.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { liveIndexServices, WATCHER_REPORT_TIMEOUT_MS } from "../../../src/ui/runtime/live-index-services.js";
import { closeWatched, openWatchedAcmeShop, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;
let services: IndexServices;
/** Warm re-indexes the services ran (the real indexer still runs each one). */
let warmRuns = 0;

/** Well under the timeout: what "at once" means here (a loaded machine included). */
const AT_ONCE_MS = WATCHER_REPORT_TIMEOUT_MS / 5;

beforeAll(async () => {
  ({ project, w } = await openWatchedAcmeShop(server().url));
  const scanAndIndex = project.indexer.scanAndIndex.bind(project.indexer);
  project.indexer.scanAndIndex = (hooks) => {
    warmRuns++;
    return scanAndIndex(hooks);
  };
  services = liveIndexServices(project.indexer, () => w.watcher);
});
afterAll(() => closeWatched(project, w));
beforeEach(async () => {
  await w.watcher.idle();
  warmRuns = 0;
});

/** As the edit tools do it: registered, written (or removed), then refreshIndex. Resolves to its time. */
async function ownWrite(change: () => void, paths: string[]): Promise<number> {
  for (const p of paths) w.watcher.ownWrites.register(p, null);
  change();
  const started = performance.now();
  await services.refreshIndex(paths);
  return performance.now() - started;
}

describe("what the index tracks", () => {
  it.each([
    ["packages/core/src/money.ts", true],
    ["packages/core/src/notes.md", false], // a type the index leaves out
    ["assets/logo.png", true], // binary: stored as metadata
    ["dist/index.js", false], // ignored by the root .gitignore and the config
    ["apps/api/generated-cache/cache.ts", false], // ignored by a nested .gitignore
    ["node_modules/react/index.js", false],
    ["build.log", false],
    ["packages/core/src", false], // a folder: its files are the entries
    ["packages/core/src/never-written.ts", true], // nothing there: judged as the file it would be
    ["packages/core/src/never-written.md", false],
  ])("%s: %s", (rel, tracked) => {
    expect(project.indexer.tracks(rel)).toBe(tracked);
  });

  it("a symlink is an entry whatever its name", () => {
    fs.symlinkSync("money.ts", path.join(project.root, "packages/core/src/money-link.md"));
    expect(project.indexer.tracks("packages/core/src/money-link.md")).toBe(true);
    fs.rmSync(path.join(project.root, "packages/core/src/money-link.md"));
  });
});

describe("refreshIndex with the watcher live", () => {
  it("a file of a type the index leaves out answers at once, created or deleted, and re-indexes nothing", async () => {
    const notes = "packages/core/src/notes.md";
    expect(await ownWrite(() => w.write(notes, "# notes\n"), [notes])).toBeLessThan(AT_ONCE_MS);
    expect(await ownWrite(() => w.remove(notes), [notes])).toBeLessThan(AT_ONCE_MS);
    expect(warmRuns).toBe(0);
  });

  it("a file in an ignored folder answers at once and stays out of the index", async () => {
    const built = "dist/extra.ts";
    const cached = "apps/api/generated-cache/more.ts";
    expect(await ownWrite(() => (w.write(built, "export const x = 1;\n"), w.write(cached, "export const y = 1;\n")), [built, cached])).toBeLessThan(AT_ONCE_MS);
    expect(warmRuns).toBe(0);
    await w.watcher.idle();
    expect([await w.indexedHash(built), await w.indexedHash(cached)]).toEqual([null, null]);
  });

  it("a folder answers at once", async () => {
    const folder = "packages/core/src/empty-folder";
    expect(await ownWrite(() => fs.mkdirSync(path.join(project.root, folder)), [folder])).toBeLessThan(AT_ONCE_MS);
    expect(warmRuns).toBe(0);
  });

  it("a tracked file and an untracked one together: it waits for the tracked one's report only", async () => {
    const code = "packages/core/src/newfile.ts";
    const notes = "packages/core/src/newfile-notes.md";
    const ms = await ownWrite(() => (w.write(code, "export const fresh = 1;\n"), w.write(notes, "# about newfile\n")), [code, notes]);
    expect(ms).toBeLessThan(WATCHER_REPORT_TIMEOUT_MS);
    // Resolved once the watcher reported it: the index already holds the new content.
    expect(await w.indexedHash(code)).not.toBeNull();
    expect(warmRuns).toBe(0);
  });

  it("a rename of a tracked file to an untracked name waits for the tracked path to leave the index", async () => {
    const from = "packages/core/src/newfile.ts";
    const to = "packages/core/src/newfile.md";
    expect(await w.indexedHash(from)).not.toBeNull();
    const ms = await ownWrite(() => fs.renameSync(path.join(project.root, from), path.join(project.root, to)), [from, to]);
    expect(ms).toBeLessThan(WATCHER_REPORT_TIMEOUT_MS);
    expect(await w.indexedHash(from)).toBeNull();
    expect(warmRuns).toBe(0);
  });

  it("a tracked file the watcher says nothing about is re-indexed after the timeout, as before", async () => {
    // Nothing written: no event will come.
    const ms = await ownWrite(() => {}, ["packages/core/src/money.ts"]);
    expect(ms).toBeGreaterThanOrEqual(WATCHER_REPORT_TIMEOUT_MS - 50);
    expect(warmRuns).toBe(1);
  });
});

describe("refreshIndex without a watcher", () => {
  it("re-indexes for a tracked path and not for an untracked one", async () => {
    const idle = liveIndexServices(project.indexer, () => null);
    await idle.refreshIndex(["packages/core/src/notes.md"]);
    expect(warmRuns).toBe(0);
    await idle.refreshIndex(["packages/core/src/money.ts"]);
    expect(warmRuns).toBe(1);
  });
});
