// A large file (LARGE_FILE_BYTES or more: a generated client, a data table) is parsed beside the
// batches: an edit made meanwhile is indexed at once instead of waiting for its parse; changes made to
// the large file during its parse, or its removal, still end with the index matching the disk.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LARGE_FILE_BYTES } from "../../../src/pipeline/watch/batch-plan.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { closeWatched, openWatchedAcmeShop, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => void ({ project, w } = await openWatchedAcmeShop(server().url)));
afterAll(() => closeWatched(project, w));

const LARGE = "packages/core/src/generated/rates-table.ts";
/**
 * A large file's parse takes about a second here, several on a slow CPU while the other test files
 * load both cores, and a rewrite during it costs a second parse: its waits are longer than others'.
 */
const PARSE_WAIT_MS = 40_000;
const SMALL = "packages/core/src/money.ts";

/** A generated-looking module just over the threshold: about a second of parsing here. */
function largeModule(tag: string): string {
  const lines: string[] = [`// generated rates (${tag})`];
  for (let i = 0; lines.join("\n").length < LARGE_FILE_BYTES * 1.2 && i < 1e6; i += 1) {
    const block: string[] = [];
    for (let j = 0; j < 500; j++, i++) block.push(`export function rate_${tag}_${i}(amount: number): number { return amount * ${(i % 97) + 1} / 100; }`);
    lines.push(...block);
  }
  return `${lines.join("\n")}\n`;
}

/** Written whole (temp file + rename, as generators do): a batch never sees it half-written and small. */
function writeLarge(tag: string, head = ""): void {
  const abs = path.join(project.root, LARGE);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(`${abs}.partial`, head + largeModule(tag));
  fs.renameSync(`${abs}.partial`, abs);
}

const hasSymbol = async (name: string) => (await project.redis.hget(w.key("indexes"), `sym:${name}`)) !== null;
const updateIndex = (path: string, from: number) => w.events.findIndex((e, i) => i >= from && "path" in e && e.path === path);

describe("live index: large files", { timeout: 120_000 }, () => {
  it("an edit made while a large file parses is indexed first, and the large file follows", async () => {
    const from = w.events.length;
    writeLarge("a");
    await waitFor("the large file's batch to start", () => w.events.slice(from).some((e) => e.type === "updating"));
    w.write(SMALL, "export class Money {\n  constructor(readonly cents: number) {}\n}\nexport const duringParse = 1;\n");
    await w.waitIndexed(SMALL);
    await w.waitIndexed(LARGE, PARSE_WAIT_MS);
    const small = updateIndex(SMALL, from);
    const large = updateIndex(LARGE, from);
    expect(small).toBeGreaterThan(-1);
    expect(large).toBeGreaterThan(small);
    expect(w.events[large]).toMatchObject({ type: "created", path: LARGE });
    expect(await hasSymbol("rate_a_1")).toBe(true);
    expect(await hasSymbol("duringParse")).toBe(true);
    expect(w.watcher.backlog).toBe(0);
  });

  it("a large file rewritten during its parse ends with the latest content; removed during its parse, it is gone", async () => {
    const from = w.events.length;
    writeLarge("b");
    await waitFor("the parse to start", () => w.events.slice(from).some((e) => e.type === "updating"));
    writeLarge("c");
    await w.waitIndexed(LARGE, PARSE_WAIT_MS);
    expect(await hasSymbol("rate_c_1")).toBe(true);
    expect(await hasSymbol("rate_b_1")).toBe(false);
    expect(await hasSymbol("rate_a_1")).toBe(false);

    const again = w.events.length;
    writeLarge("d");
    await waitFor("the parse to start", () => w.events.slice(again).some((e) => e.type === "updating"));
    w.remove(LARGE);
    await w.waitGone(LARGE, PARSE_WAIT_MS);
    await w.watcher.idle();
    expect(await project.store.getFile(LARGE)).toBeNull();
    expect(await hasSymbol("rate_d_1")).toBe(false);
    expect(await hasSymbol("rate_c_1")).toBe(false);
  });

  it("a layout change during its parse re-parses it after the parse, so its imports are typed by the new layout", async () => {
    const write = (tag: string) => writeLarge(tag, 'import { Money } from "@acme/core";\nexport const unit = new Money(1);\n');
    const importType = async () => (await project.store.getAst(LARGE))?.imports.find((i) => i.from === "@acme/core")?.type;
    write("f");
    await w.waitIndexed(LARGE, PARSE_WAIT_MS);
    expect(await importType()).toBe("internal");

    const from = w.events.length;
    write("g");
    await waitFor("the parse to start", () => w.events.slice(from).some((e) => e.type === "updating"));
    // The workspace package is renamed: "@acme/core" is no package of the project any more.
    const manifest = path.join(project.root, "packages/core/package.json");
    const original = fs.readFileSync(manifest, "utf8");
    fs.writeFileSync(manifest, original.replace('"@acme/core"', '"@acme/core-renamed"'));
    try {
      await waitFor("the import typed external", async () => (await importType()) === "external", PARSE_WAIT_MS);
      await w.watcher.idle();
      expect(await importType()).toBe("external");
      expect(await hasSymbol("rate_g_1")).toBe(true);
    } finally {
      fs.writeFileSync(manifest, original);
      await waitFor("the import typed internal again", async () => (await importType()) === "internal", PARSE_WAIT_MS);
      await w.watcher.idle();
    }
  });

  it("stops at once while a large file parses, and the parse's end changes nothing after the stop", async () => {
    const from = w.events.length;
    writeLarge("e");
    await waitFor("the parse to start", () => w.events.slice(from).some((e) => e.type === "updating"));
    // Its batch may also hold the temp file's removal (parcel reported the write and the rename apart).
    await waitFor("only the large file left to take in", () => w.watcher.backlog === 1);
    await w.stop();
    // The stop did not wait for the parse (a 30 MB file's would take 15 s): it still runs.
    expect(w.watcher.backlog).toBe(1);
    const stoppedAt = w.events.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(w.events.slice(stoppedAt)).toEqual([]);
    expect(await hasSymbol("rate_e_1")).toBe(false);
  });
});
