import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { closeWatched, openWatchedAcmeShop, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => void ({ project, w } = await openWatchedAcmeShop(server().url)));
afterAll(() => closeWatched(project, w));

const abs = (rel: string) => path.join(project.root, rel);

describe("live index: what a file is", () => {
  it("a text file made binary keeps metadata only: no AST, facts, meta or symbols", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    expect(await w.json("indexes", "sym:slugify")).not.toBeNull();
    w.write(rel, Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02, 0x70, 0x00]));
    await w.waitIndexed(rel);
    expect(await project.store.getFile(rel)).toMatchObject({ kind: "binary", size: 7 });
    for (const part of ["ast", "facts", "meta"] as const) expect(await project.redis.hexists(w.key(part), rel)).toBe(0);
    expect(await project.redis.hget(w.key("indexes"), "sym:slugify")).toBeNull();
    expect((await project.store.getMeta("packages/core/src/index.ts"))?.dependencies).not.toContain(rel);
  });

  it("a file broken while watched is named by the next index run, and a touch does not forget it", async () => {
    const rel = "packages/core/src/broken-while-watched.ts";
    w.write(rel, "export function half(x: number {\n  return x / 2;\n}\n");
    await w.waitIndexed(rel);
    expect((await project.store.getAllStats()).get(rel)?.parseError).toBe(true);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(abs(rel), later, later);
    await waitFor("the new mtime", async () => (await project.store.getAllStats()).get(rel)?.mtimeMs === Math.floor(fs.statSync(abs(rel)).mtimeMs));
    expect((await project.store.getAllStats()).get(rel)?.parseError).toBe(true);
    const run = await project.reindex();
    expect(run.parsed).toBe(0);
    expect(run.parseErrorPaths).toContain(rel);
  });

  it("a file touched without a change gets its new lastModified (a stale one made every read re-hash it)", async () => {
    const rel = "packages/core/src/logger.ts";
    const before = await project.store.getFile(rel);
    const later = new Date(Date.now() + 120_000);
    fs.utimesSync(abs(rel), later, later);
    const mtime = Math.floor(fs.statSync(abs(rel)).mtimeMs);
    await waitFor("the new lastModified", async () => {
      const f = await project.store.getFile(rel);
      return f?.kind === "text" && f.lastModified === mtime;
    });
    const after = await project.store.getFile(rel);
    expect(after?.kind === "text" && before?.kind === "text" && after.lines).toEqual(before?.kind === "text" ? before.lines : null);
  });

  it("a file made non-UTF-8 leaves the index and says why", async () => {
    const rel = "packages/core/src/money.ts";
    const from = w.events.length;
    w.write(rel, Buffer.concat([Buffer.from('export const s = "'), Buffer.from([0xef, 0xf0, 0xe8]), Buffer.from('";\n')]));
    await w.waitGone(rel);
    expect(await project.store.getFile(rel)).toBeNull();
    expect(await project.redis.hget(w.key("indexes"), "sym:Money")).toBeNull();
    expect(await w.waitUpdate((e) => e.path === rel, from)).toMatchObject({ type: "deleted", reason: "nonUtf8" });
  });

  it("a new file that is not UTF-8 is not indexed, and says so", async () => {
    const rel = "packages/core/src/latin1-notes.ts";
    const from = w.events.length;
    w.write(rel, Buffer.concat([Buffer.from('export const s = "'), Buffer.from([0xe9, 0xe8]), Buffer.from('";\n')]));
    expect(await w.waitUpdate((e) => e.path === rel, from)).toMatchObject({ type: "ignored", reason: "nonUtf8", hash: null });
    expect(await project.store.getFile(rel)).toBeNull();
    // A sweep that reads it again unchanged (a root .gitignore edit) does not say it again.
    const after = w.events.length;
    fs.appendFileSync(abs(".gitignore"), "\n# touched\n");
    await waitFor("the sweep's batch", () => w.events.slice(after).find((e) => e.type === "batch"));
    await w.watcher.idle();
    expect(w.events.slice(after).filter((e) => e.type !== "batch" && "path" in e && e.path === rel)).toEqual([]);
    fs.writeFileSync(abs(".gitignore"), fs.readFileSync(abs(".gitignore"), "utf8").replace("\n# touched\n", ""));
    await w.watcher.idle();
  });

  it("ignored paths (node_modules, dist, a nested .gitignore, *.log) never appear", async () => {
    w.write("node_modules/leftpad/index.js", "module.exports = 1;");
    w.write("packages/ui/node_modules/x/index.ts", "export const x = 1;");
    w.write("dist/new.js", "export {};");
    w.write("apps/api/generated-cache/fresh.ts", "export const fresh = 1;");
    w.write("apps/api/debug.log", "log");
    // Written last: once it is indexed, the batch that carried the others is done.
    w.write("apps/api/src/sentinel.ts", "export const sentinel = 1;");
    await w.waitIndexed("apps/api/src/sentinel.ts");
    const paths = await project.store.listPaths();
    expect(paths.filter((p) => /node_modules|^dist\/|generated-cache|\.log$/.test(p))).toEqual([]);
  });

  it("a .gitignore change drops newly ignored files and indexes newly un-ignored ones", async () => {
    const from = w.events.length;
    fs.appendFileSync(abs(".gitignore"), "packages/ui/\n");
    await w.waitGone("packages/ui/src/components/Button.tsx");
    await w.waitGone("packages/ui/package.json");
    expect(await w.waitUpdate((e) => e.path === "packages/ui/src/components/Button.tsx", from)).toMatchObject({ type: "ignored" });
    expect(await project.redis.hget(w.key("indexes"), "sym:Button")).toBeNull();

    fs.writeFileSync(abs("apps/api/.gitignore"), "");
    fs.writeFileSync(abs(".gitignore"), fs.readFileSync(abs(".gitignore"), "utf8").replace("packages/ui/\n", ""));
    await w.waitIndexed("packages/ui/src/components/Button.tsx");
    await w.waitIndexed("apps/api/generated-cache/fresh.ts");
    expect(await w.json("indexes", "sym:Button")).toEqual([expect.objectContaining({ path: "packages/ui/src/components/Button.tsx" })]);
  });

  it("ignorePatterns changed in .ipuaro.json drop what they now ignore, and bring back (and watch) what they no longer do", async () => {
    const from = w.events.length;
    const config = abs(".ipuaro.json");
    const before = fs.existsSync(config) ? fs.readFileSync(config, "utf8") : null;
    fs.writeFileSync(config, JSON.stringify({ project: { ignorePatterns: ["components"] } }));
    await w.waitGone("packages/ui/src/components/Button.tsx");
    expect(await w.waitUpdate((e) => e.path === "packages/ui/src/components/Button.tsx", from)).toMatchObject({ type: "ignored" });
    // The OS watcher was subscribed again without the pattern: edits there are seen once it is dropped.
    fs.writeFileSync(config, JSON.stringify({ project: { ignorePatterns: [] } }));
    await w.waitIndexed("packages/ui/src/components/Button.tsx");
    fs.appendFileSync(abs("packages/ui/src/components/Button.tsx"), "\nexport const afterPatterns = 1;\n");
    await w.waitIndexed("packages/ui/src/components/Button.tsx");
    if (before === null) fs.rmSync(config);
    else fs.writeFileSync(config, before);
    await w.watcher.idle();
  });

  it("a symlink loop created while watching is recorded, never followed", async () => {
    fs.symlinkSync(".", abs("apps/loop"));
    fs.symlinkSync("../apps", abs("apps/api/up"));
    await w.waitIndexed("apps/api/src/sentinel.ts");
    await waitFor("the links indexed", async () => (await project.store.getFile("apps/loop")) && (await project.store.getFile("apps/api/up")));
    expect(await project.store.getFile("apps/loop")).toEqual({ kind: "symlink", target: "." });
    fs.writeFileSync(abs("apps/api/src/after-loop.ts"), "export const after = 1;");
    await w.waitIndexed("apps/api/src/after-loop.ts");
    const paths = await project.store.listPaths();
    expect(paths.filter((p) => p.startsWith("apps/loop/") || p.startsWith("apps/api/up/"))).toEqual([]);
  });

  it("a folder tree moved in is indexed, and later edits deep inside it are seen", async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(project.root), "ipuaro-outside-"));
    fs.mkdirSync(path.join(outside, "feature/deep/deeper"), { recursive: true });
    fs.writeFileSync(path.join(outside, "feature/deep/deeper/x.ts"), "export const x = 1;\n");
    fs.writeFileSync(path.join(outside, "feature/top.ts"), "export const top = 1;\n");
    fs.renameSync(path.join(outside, "feature"), abs("packages/feature"));
    fs.rmSync(outside, { recursive: true, force: true });
    await w.waitIndexed("packages/feature/deep/deeper/x.ts");
    await w.waitIndexed("packages/feature/top.ts");
    // parcel only watches the moved-in folder itself; the watcher re-subscribes so this edit is seen.
    fs.writeFileSync(abs("packages/feature/deep/deeper/x.ts"), "export const x = 2;\n");
    await w.waitIndexed("packages/feature/deep/deeper/x.ts");
    fs.writeFileSync(abs("packages/feature/deep/deeper/y.ts"), "export const y = 2;\n");
    await w.waitIndexed("packages/feature/deep/deeper/y.ts");
  });

  it("a folder renamed inside the project moves its files, and edits under the new name are seen", async () => {
    fs.renameSync(abs("packages/feature"), abs("packages/renamed-feature"));
    await w.waitGone("packages/feature/deep/deeper/x.ts");
    await w.waitIndexed("packages/renamed-feature/deep/deeper/x.ts");
    fs.writeFileSync(abs("packages/renamed-feature/deep/deeper/x.ts"), "export const x = 3;\n");
    await w.waitIndexed("packages/renamed-feature/deep/deeper/x.ts");
    fs.renameSync(abs("packages/renamed-feature"), abs("packages/feature"));
    await w.waitIndexed("packages/feature/deep/deeper/x.ts");
    await w.waitGone("packages/renamed-feature/deep/deeper/x.ts");
    expect((await project.store.listPaths()).filter((p) => p.startsWith("packages/renamed-feature/"))).toEqual([]);
  });

  it("a folder moved out of the project leaves the index with everything in it", async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(project.root), "ipuaro-moved-"));
    fs.renameSync(abs("packages/feature"), path.join(outside, "feature"));
    await w.waitGone("packages/feature/deep/deeper/x.ts");
    await w.waitGone("packages/feature/top.ts");
    expect((await project.store.listPaths()).filter((p) => p.startsWith("packages/feature/"))).toEqual([]);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("a folder named like a file (`chart.js`) is a folder: moved in, its files are indexed and watched; moved away, they leave", async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(project.root), "ipuaro-chart-"));
    fs.mkdirSync(path.join(outside, "chart.js/src/axes"), { recursive: true });
    fs.writeFileSync(path.join(outside, "chart.js/src/index.ts"), "export { axis } from './axes/axis';\n");
    fs.writeFileSync(path.join(outside, "chart.js/src/axes/axis.ts"), "export function axis(): number {\n  return 1;\n}\n");
    fs.renameSync(path.join(outside, "chart.js"), abs("packages/chart.js"));
    await w.waitIndexed("packages/chart.js/src/index.ts");
    await w.waitIndexed("packages/chart.js/src/axes/axis.ts");
    expect(await project.store.getFile("packages/chart.js")).toBeNull();
    // Watched as a folder: an edit deep inside is seen.
    fs.writeFileSync(abs("packages/chart.js/src/axes/grid.ts"), "export const grid = 1;\n");
    await w.waitIndexed("packages/chart.js/src/axes/grid.ts");
    // A folder move gives one event, for the folder: its files must still leave.
    fs.renameSync(abs("packages/chart.js"), path.join(outside, "chart.js"));
    await w.waitGone("packages/chart.js/src/axes/axis.ts");
    await w.waitGone("packages/chart.js/src/axes/grid.ts");
    expect((await project.store.listPaths()).filter((p) => p.startsWith("packages/chart.js/"))).toEqual([]);
    expect(await project.redis.hget(w.key("indexes"), "sym:axis")).toBeNull();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("a folder moved away with a file or a symlink put in its place leaves no ghost files", async () => {
    fs.mkdirSync(abs("packages/swap/src"), { recursive: true });
    fs.writeFileSync(abs("packages/swap/src/one.ts"), "export function swapOne(): void {}\n");
    await w.waitIndexed("packages/swap/src/one.ts");
    const outside = fs.mkdtempSync(path.join(path.dirname(project.root), "ipuaro-swap-"));
    // As `ln -sfn` or an npm link does: the folder goes, a link to it comes, in one debounce window.
    fs.renameSync(abs("packages/swap"), path.join(outside, "swap"));
    fs.symlinkSync(path.join(outside, "swap"), abs("packages/swap"));
    await w.waitGone("packages/swap/src/one.ts");
    expect(await project.redis.hget(w.key("indexes"), "sym:swapOne")).toBeNull();
    expect(await project.store.getFile("packages/swap")).toMatchObject({ kind: "symlink" });
    // And a plain file in place of a folder.
    fs.rmSync(abs("packages/swap"));
    fs.mkdirSync(abs("packages/swap2/src"), { recursive: true });
    fs.writeFileSync(abs("packages/swap2/src/two.ts"), "export const two = 2;\n");
    await w.waitIndexed("packages/swap2/src/two.ts");
    fs.renameSync(abs("packages/swap2"), path.join(outside, "swap2"));
    fs.writeFileSync(abs("packages/swap2"), "not a folder any more\n");
    await w.waitGone("packages/swap2/src/two.ts");
    fs.rmSync(abs("packages/swap2"));
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
