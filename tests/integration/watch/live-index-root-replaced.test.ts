// The project folder removed and made again faster than the watcher looks (`rm -rf P && cp -r P.bak P`:
// a re-clone, a restore). The folder is never seen missing, yet the OS watcher's subscription died with
// the old one: the new folder is told by its identity, said, subscribed again and swept.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { isIpuaroError } from "../../../src/main/errors.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { openIndexedAcmeShop } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { closeWatched, startWatching, TEST_DEBOUNCE_MS, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;
let backup: string;

beforeEach(async () => {
  project = await openIndexedAcmeShop(server().url);
  // Looks for the folder every 50 ms.
  w = await startWatching(project, TEST_DEBOUNCE_MS, 50);
  backup = `${project.root}.bak`;
  fs.cpSync(project.root, backup, { recursive: true, verbatimSymlinks: true });
});
afterEach(async () => {
  await closeWatched(project, w);
  removeDir(backup);
});

/**
 * `rm -rf P && cp -r P.bak P` with no check in between: both are synchronous, and the checks run on this
 * thread, so no check can see the folder missing.
 */
function replaceRoot(): void {
  const before = fs.statSync(project.root).ino;
  fs.rmSync(project.root, { recursive: true, force: true });
  fs.cpSync(backup, project.root, { recursive: true, verbatimSymlinks: true });
  // A new folder (ext4 hands a freed inode number out again at once; the live index holds its folder
  // open, so here it cannot).
  expect(fs.statSync(project.root).ino).not.toBe(before);
}

const recovered = (from: number) => w.events.slice(from).find((e) => e.type === "recovered");

it("a folder removed and made again between two checks is said, watched again and swept", async () => {
  // What the restored copy has and lacks compared with the folder the index was made from.
  fs.rmSync(path.join(backup, "packages/core/src/logger.ts"));
  fs.writeFileSync(path.join(backup, "packages/core/src/restored.ts"), "export function restored(): number {\n  return 1;\n}\n");
  const from = w.events.length;

  replaceRoot();

  const back = await waitFor("the recovered event", () => recovered(from));
  expect(back).toMatchObject({ type: "recovered", message: expect.stringContaining("is back") });
  const said = w.events.slice(from).find((e) => e.type === "error");
  expect(said?.type === "error" && isIpuaroError(said.error) && said.error.message).toContain("was removed and made again");
  // The error comes before the recovery: the status bar ends on `[watching]`.
  expect(w.events.slice(from).findIndex((e) => e.type === "error")).toBeLessThan(w.events.slice(from).findIndex((e) => e.type === "recovered"));

  // The sweep: a file only the new folder has is indexed, one only the old folder had leaves the index.
  await w.waitIndexed("packages/core/src/restored.ts");
  await w.waitGone("packages/core/src/logger.ts");
  expect(await w.json("indexes", "sym:restored")).toEqual([expect.objectContaining({ path: "packages/core/src/restored.ts" })]);

  // And the new folder is watched: a file created afterwards is indexed with its symbols.
  w.write("packages/core/src/after.ts", "export function afterRestore(): string {\n  return \"ok\";\n}\n");
  await w.waitIndexed("packages/core/src/after.ts");
  expect(await w.json("indexes", "sym:afterRestore")).toEqual([expect.objectContaining({ path: "packages/core/src/after.ts", kind: "function" })]);
  expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  // Nothing of the old folder's subscription is said after the recovery.
  const after = w.events.slice(w.events.indexOf(back)).filter((e) => e.type === "error");
  expect(after).toEqual([]);
});

it("a folder replaced twice is followed each time", async () => {
  for (let round = 0; round < 2; round++) {
    const from = w.events.length;
    replaceRoot();
    await waitFor(`recovery ${round + 1}`, () => recovered(from));
    const rel = `packages/core/src/round${round}.ts`;
    w.write(rel, `export const round${round} = ${round};\n`);
    await w.waitIndexed(rel);
    // The next round copies the backup, which lacks this file: the sweep takes it out again.
    if (round === 0) fs.writeFileSync(path.join(backup, "marker.txt"), "second\n");
  }
  await w.waitGone("packages/core/src/round0.ts");
});
