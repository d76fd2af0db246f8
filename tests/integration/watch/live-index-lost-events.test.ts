// Events the OS watcher never delivers. @parcel/watcher drops events under a heavy burst (a branch switch
// of thousands of files: it ignores inotify's queue overflow, and parcel-bundler/watcher#183), so after a
// burst the live index compares the whole tree with the index. A write through a hard link made outside
// the project is a change with no event at all, which makes the lost event reproducible.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BURST_PATHS } from "../../../src/pipeline/watch/live-index.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { closeWatched, openWatchedAcmeShop, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;
let outside: string;

beforeAll(async () => {
  ({ project, w } = await openWatchedAcmeShop(server().url));
  outside = makeTempDir("ipuaro-outside-");
});

afterAll(async () => {
  await closeWatched(project, w);
  removeDir(outside);
});

/** Rewrites `rel` through a hard link outside the project: same file, but no event in the watched tree. */
function writeUnseen(rel: string, content: string): void {
  const link = path.join(outside, rel.replaceAll("/", "_"));
  fs.rmSync(link, { force: true });
  fs.linkSync(path.join(project.root, rel), link);
  fs.writeFileSync(link, content);
  // A later mtime than the one indexed, also when the write lands within the same millisecond.
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(link, later, later);
}

describe("changes whose events never arrive", () => {
  it("are found by the comparison of the tree that follows a burst, graph included", async () => {
    const money = "packages/core/src/money.ts";
    const content = `${fs.readFileSync(path.join(project.root, money), "utf8")}\nimport { unseenHelper } from "./unseen-target.js";\nexport const unseenSum = unseenHelper();\n`;
    w.write("packages/core/src/unseen-target.ts", "export function unseenHelper(): number { return 1; }\n");
    await w.waitIndexed("packages/core/src/unseen-target.ts");
    writeUnseen(money, content);

    const from = w.events.length;
    for (let i = 0; i < BURST_PATHS + 20; i++) w.write(`packages/burst/src/b${i}.ts`, `export const burst${i} = ${i};\n`);
    await w.waitIndexed(`packages/burst/src/b${BURST_PATHS + 19}.ts`);

    const expected = await w.waitIndexed(money);
    const update = await w.waitUpdate((e) => e.path === money, from);
    expect(update.type).toBe("updated");
    expect(update.hash).toBe(expected);
    const meta = await waitFor("the new dependency in meta", async () => {
      const m = await w.json<{ dependencies: string[] }>("meta", money);
      return m?.dependencies.includes("packages/core/src/unseen-target.ts") ? m : null;
    });
    expect(meta.dependencies).toContain("packages/core/src/unseen-target.ts");
    const target = await w.json<{ dependents: string[] }>("meta", "packages/core/src/unseen-target.ts");
    expect(target?.dependents).toContain(money);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a burst that ends with a lost event still gets its reconciliation after the batch", async () => {
    const logger = "packages/core/src/logger.ts";
    const from = w.events.length;
    for (let i = 0; i < BURST_PATHS; i++) w.write(`packages/burst2/src/c${i}.ts`, `export const c${i} = ${i};\n`);
    writeUnseen(logger, "export const loggerChangedUnseen = true;\n");
    const expected = await w.waitIndexed(logger);
    expect(await w.waitUpdate((e) => e.path === logger, from)).toMatchObject({ type: "updated", hash: expected });
  });
});
