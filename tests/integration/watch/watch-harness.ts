// A real watcher on an indexed temp project, with helpers to change files and wait (by polling, with a
// timeout) until the index reflects the change. No fixed sleeps: every wait is on a condition.
import fs from "node:fs";
import path from "node:path";
import { ProjectWatcher, type ProjectWatchEvent } from "../../../src/main/indexing/project-watcher.js";
import { projectKey } from "../../../src/main/store/keys.js";
import { decodeStat } from "../../../src/pipeline/index-store-port.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import type { FileUpdateEvent } from "../../../src/pipeline/watch/live-index.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";

export const TEST_DEBOUNCE_MS = 80;

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface WatchHarness {
  project: IndexedProject;
  watcher: ProjectWatcher;
  events: ProjectWatchEvent[];
  key(part: Parameters<typeof projectKey>[1]): string;
  write(rel: string, content: string | Buffer): void;
  remove(rel: string): void;
  /** The hash the index's stat holds for a path (null = not indexed). */
  indexedHash(rel: string): Promise<string | null>;
  /** Waits until the index holds exactly the content now on disk at `rel`, graph included. */
  /** Waits until the index holds `rel` as it is on disk now (10 s unless `timeoutMs`). */
  waitIndexed(rel: string, timeoutMs?: number): Promise<string>;
  /** Waits until `rel` is gone from the index, graph included. */
  waitGone(rel: string, timeoutMs?: number): Promise<void>;
  /** Waits for an update event matching `match`, counting only events after `from` (an index into events). */
  waitUpdate(match: (e: FileUpdateEvent) => boolean, from?: number): Promise<FileUpdateEvent>;
  json<T>(part: Parameters<typeof projectKey>[1], field: string): Promise<T | null>;
  stop(): Promise<void>;
}

export async function startWatching(project: IndexedProject, debounceMs = TEST_DEBOUNCE_MS, indexRunCheckMs?: number): Promise<WatchHarness> {
  const watcher = new ProjectWatcher({ indexer: project.indexer, redis: project.redis, debounceMs, ...(indexRunCheckMs ? { indexRunCheckMs } : {}) });
  const events: ProjectWatchEvent[] = [];
  watcher.on((e) => events.push(e));
  await watcher.start();
  const key = (part: Parameters<typeof projectKey>[1]) => projectKey(project.store.projectName, part);
  const abs = (rel: string) => path.join(project.root, rel);
  const indexedHash = async (rel: string) => {
    const raw = await project.redis.hget(key("stat"), rel);
    return raw === null ? null : (decodeStat(raw)?.hash ?? null);
  };
  return {
    project,
    watcher,
    events,
    key,
    write(rel, content) {
      fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
      fs.writeFileSync(abs(rel), content);
    },
    remove(rel) {
      fs.rmSync(abs(rel), { recursive: true, force: true });
    },
    indexedHash,
    async waitIndexed(rel, timeoutMs) {
      const expected = await hashContent(fs.readFileSync(abs(rel)));
      await waitFor(`${rel} indexed with hash ${expected}`, async () => ((await indexedHash(rel)) === expected ? expected : null), timeoutMs);
      // A file's records land as its worker task returns; the batch's graph delta (symbols, deps)
      // lands after every task of the batch. The batch is over once the watcher is idle.
      await watcher.idle();
      return expected;
    },
    async waitGone(rel, timeoutMs) {
      await waitFor(`${rel} gone from the index`, async () => (await project.redis.hexists(key("stat"), rel)) === 0, timeoutMs);
      await watcher.idle();
    },
    waitUpdate(match, from = 0) {
      return waitFor("an update event", () =>
        events.slice(from).find((e): e is ProjectWatchEvent & FileUpdateEvent => e.type !== "batch" && e.type !== "ready" && e.type !== "error" && e.type !== "recovered" && e.type !== "reloaded" && match(e as FileUpdateEvent)),
      );
    },
    async json<T>(part: Parameters<typeof projectKey>[1], field: string) {
      const raw = await project.redis.hget(key(part), field);
      return raw === null ? null : (JSON.parse(raw) as T);
    },
    stop: () => watcher.stop(),
  };
}

/** The acme-shop fixture indexed into Redis and watched: what most watch tests start from. */
export async function openWatchedAcmeShop(redisUrl: string): Promise<{ project: IndexedProject; w: WatchHarness }> {
  const project = await openIndexedAcmeShop(redisUrl);
  return { project, w: await startWatching(project) };
}

export async function closeWatched(project: IndexedProject | undefined, w: WatchHarness | undefined): Promise<void> {
  await w?.stop();
  await closeIndexedProject(project);
}
