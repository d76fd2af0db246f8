// A live batch stores a file's records as its task returns and the graph's update after the batch. When
// that update never lands (the process dies in between), the stored graph is marked stale, and the next
// index run rebuilds it from the stored facts although it has no file to parse.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { IpuaroError } from "../../../src/main/errors.js";
import { projectKey } from "../../../src/main/store/keys.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { decodeStat } from "../../../src/pipeline/index-store-port.js";
import { hashContent } from "../../../src/pipeline/watch/content-hash.js";
import { LiveIndex, type LiveIndexEvent } from "../../../src/pipeline/watch/live-index.js";
import type { WatchStorePort } from "../../../src/pipeline/watch/watch-store-port.js";
import { closeIndexedProject, openIndexedAcmeShop, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { TEST_DEBOUNCE_MS, waitFor } from "./watch-harness.js";

/** Records land; every graph update fails, as if the process died right before it. */
class DyingBeforeGraphStore extends ProjectStore implements WatchStorePort {
  override writeGraphDelta(): Promise<void> {
    return Promise.reject(new IpuaroError("redis", "the process died before the graph update"));
  }

  reconnect(): Promise<void> {
    return Promise.resolve();
  }
}

const server = useRedisServer();
let project: IndexedProject;

beforeAll(async () => void (project = await openIndexedAcmeShop(server().url)));
afterAll(() => closeIndexedProject(project));

it("a live batch whose graph update never landed is rebuilt by the next index run", async () => {
  const { indexer } = project;
  const events: LiveIndexEvent[] = [];
  const live = new LiveIndex({
    root: project.root,
    rules: indexer.rules,
    pool: indexer.pool,
    binaryExtensions: indexer.binaryExtensions,
    ignorePatterns: project.config.project.ignorePatterns,
    store: new DyingBeforeGraphStore({ redis: project.redis, project: project.store.projectName }),
    debounceMs: TEST_DEBOUNCE_MS,
    onEvent: (e) => events.push(e),
  });
  const key = (part: Parameters<typeof projectKey>[1]) => projectKey(project.store.projectName, part);
  const rel = "packages/core/src/tax.ts";
  await live.start();
  try {
    fs.writeFileSync(path.join(project.root, rel), 'import { Money } from "./money";\nexport function vat(m: Money): Money {\n  return m;\n}\n');
    const hash = await hashContent(fs.readFileSync(path.join(project.root, rel)));
    await waitFor("the file's records", async () => {
      const stat = await project.redis.hget(key("stat"), rel);
      return stat !== null && decodeStat(stat)?.hash === hash;
    });
    await waitFor("the failed graph update", () => events.some((e) => e.type === "error"));
  } finally {
    await live.stop();
  }
  expect(await project.redis.hget(key("indexes"), "sym:vat")).toBeNull();
  expect(await project.store.graphStale()).toBe(true);

  const stats = await project.reindex();
  expect(stats.parsed).toBe(0);
  expect(stats.graphRebuilt).toBe(true);
  expect(JSON.parse((await project.redis.hget(key("indexes"), "sym:vat")) ?? "null")).toEqual([expect.objectContaining({ path: rel })]);
  expect((await project.store.getMeta("packages/core/src/money.ts"))?.dependents).toContain(rel);
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  expect(await project.store.graphStale()).toBe(false);
});
