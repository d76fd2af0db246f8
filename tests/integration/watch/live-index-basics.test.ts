import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMeta } from "../../../src/workers/ast-types.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { openIndexedAcmeShop } from "../../helpers/indexed-project.js";
import { closeWatched, openWatchedAcmeShop, startWatching, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => void ({ project, w } = await openWatchedAcmeShop(server().url)));
afterAll(() => closeWatched(project, w));

describe("live index: files", () => {
  it("an edit lands in files, ast and stat, reported as an external update", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    const from = w.events.length;
    fs.appendFileSync(path.join(project.root, rel), "\nexport function shout(s: string): string {\n  return s.toUpperCase();\n}\n");
    await w.waitIndexed(rel);
    const file = await project.store.getFile(rel);
    expect(file?.kind === "text" && file.lines.at(-1)).toBe("}");
    const ast = await project.store.getAst(rel);
    expect(ast?.functions.map((f) => f.name)).toContain("shout");
    expect(await w.json("indexes", "sym:shout")).toEqual([expect.objectContaining({ path: rel, kind: "function" })]);
    const update = await w.waitUpdate((e) => e.path === rel, from);
    expect(update).toMatchObject({ type: "updated", origin: "external", kind: "text" });
    expect(update.ms).toBeGreaterThan(0);
  });

  it("a created file is indexed with its symbols; a deleted one leaves every hash and the symbol index", async () => {
    const rel = "packages/core/src/tax.ts";
    w.write(rel, 'import { Money } from "./money";\nexport function vat(m: Money): Money {\n  return m;\n}\n');
    await w.waitIndexed(rel);
    expect(await w.json("indexes", "sym:vat")).toEqual([expect.objectContaining({ path: rel })]);
    expect((await project.store.getMeta("packages/core/src/money.ts"))?.dependents).toContain(rel);
    expect(await w.json("indexes", `deps:${rel}`)).toEqual(["packages/core/src/money.ts"]);

    w.remove(rel);
    await w.waitGone(rel);
    for (const part of ["files", "ast", "meta", "facts"] as const) expect(await project.redis.hexists(w.key(part), rel)).toBe(0);
    expect(await project.redis.hget(w.key("indexes"), "sym:vat")).toBeNull();
    expect(await project.redis.hget(w.key("indexes"), `deps:${rel}`)).toBeNull();
    expect((await project.store.getMeta("packages/core/src/money.ts"))?.dependents).not.toContain(rel);
  });

  it("a rename is one renamed update; the old path is gone and importers follow the new one", async () => {
    const from = w.events.length;
    const oldRel = "packages/core/src/logger.ts";
    const newRel = "packages/core/src/log.ts";
    const content = fs.readFileSync(path.join(project.root, oldRel));
    fs.renameSync(path.join(project.root, oldRel), path.join(project.root, newRel));
    await w.waitIndexed(newRel);
    await w.waitGone(oldRel);
    const update = await w.waitUpdate((e) => e.path === newRel, from);
    expect(update).toMatchObject({ type: "renamed", from: oldRel });
    expect(await project.redis.hget(w.key("indexes"), "sym:Logger")).toContain(newRel);
    // index.ts imports "./logger": now unresolved, so it no longer depends on either path.
    const index = (await project.store.getMeta("packages/core/src/index.ts")) as FileMeta;
    expect(index.dependencies).not.toContain(oldRel);
    fs.renameSync(path.join(project.root, newRel), path.join(project.root, oldRel));
    await w.waitIndexed(oldRel);
    expect((await project.store.getMeta("packages/core/src/index.ts"))?.dependencies).toContain(oldRel);
    expect(content.equals(fs.readFileSync(path.join(project.root, oldRel)))).toBe(true);
  });
});

describe("live index: a replace then a delete within one window", () => {
  let own: IndexedProject;
  let slow: WatchHarness;
  // A window as wide as a user's: both events land in it, in two batches of @parcel/watcher (which
  // drops the pair itself when they come within its own ~50 ms).
  beforeAll(async () => {
    own = await openIndexedAcmeShop(server().url);
    slow = await startWatching(own, 600);
  });
  afterAll(() => closeWatched(own, slow));

  it("leaves the index: the replace is reported as a create, and the delete after it is kept", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    const abs = path.join(own.root, rel);
    const tmp = path.join(own.root, "packages/core/src/utils/.strings.ts.tmp");
    fs.writeFileSync(tmp, "export const replaced = 1;\n");
    fs.renameSync(tmp, abs);
    await new Promise((r) => setTimeout(r, 150));
    fs.rmSync(abs);
    await slow.waitGone(rel);
    expect(await own.redis.hexists(slow.key("ast"), rel)).toBe(0);
  });
});

describe("live index: the project folder removed and made again", () => {
  let own: IndexedProject;
  let w2: WatchHarness;
  beforeAll(async () => {
    own = await openIndexedAcmeShop(server().url);
    w2 = await startWatching(own, 80, 200);
  });
  afterAll(() => closeWatched(own, w2));

  it("says the folder is gone, and once it is back watches it again and indexes what it holds", async () => {
    const keep = fs.readFileSync(path.join(own.root, "packages/core/src/money.ts"));
    fs.rmSync(own.root, { recursive: true, force: true });
    await waitFor("the watcher to say the folder is gone", () => w2.events.find((e) => e.type === "error" && String((e.error as Error).message).includes("is gone")));
    fs.mkdirSync(path.join(own.root, "src"), { recursive: true });
    fs.writeFileSync(path.join(own.root, "src/b.ts"), "export const b = 1;\n");
    fs.mkdirSync(path.join(own.root, "packages/core/src"), { recursive: true });
    fs.writeFileSync(path.join(own.root, "packages/core/src/money.ts"), keep);
    // The batch of the removal's events may run after the folder is back and find its files before the
    // next look at the folder says so: the files may be indexed first, and "recovered" comes at that look.
    await waitFor("the watcher to say the folder is back", () => w2.events.some((e) => e.type === "recovered"));
    await w2.waitIndexed("src/b.ts");
    await w2.waitIndexed("packages/core/src/money.ts");
    // And edits after that are seen: the subscription is the new folder's.
    fs.appendFileSync(path.join(own.root, "src/b.ts"), "export const c = 2;\n");
    await w2.waitIndexed("src/b.ts");
  });
});
