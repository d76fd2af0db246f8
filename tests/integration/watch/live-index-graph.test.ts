import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUB_DEPENDENTS_THRESHOLD } from "../../../src/pipeline/graph/file-meta.js";
import type { FileMeta } from "../../../src/workers/ast-types.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { closeWatched, openWatchedAcmeShop, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let w: WatchHarness;

beforeAll(async () => void ({ project, w } = await openWatchedAcmeShop(server().url)));
afterAll(() => closeWatched(project, w));

const meta = async (rel: string) => (await project.store.getMeta(rel)) as FileMeta;
const STRINGS = "packages/core/src/utils/strings.ts";
/** The stored target of the call `callee` in `caller`'s call graph field. */
const callTarget = async (caller: string, callee: string) => (await w.json<{ callee: string; target?: string }[]>("indexes", `calls:${caller}`))?.find((c) => c.callee === callee)?.target;
/** The targets of several files' calls, [file, callee] pairs in order. */
const callTargets = (calls: Record<string, string>) => Promise.all(Object.entries(calls).map(([caller, callee]) => callTarget(caller, callee)));

describe("live index: the graph", () => {
  it("adding and removing an import updates dependents, hub status and the importer's deps field", async () => {
    // A hub has more than HUB_DEPENDENTS_THRESHOLD dependents: add just enough importers to cross it.
    const base = (await meta(STRINGS)).dependents.length;
    expect(base).toBeGreaterThan(0);
    expect((await meta(STRINGS)).isHub).toBe(false);
    const users = Array.from({ length: HUB_DEPENDENTS_THRESHOLD + 1 - base }, (_, i) => `apps/api/src/users/user-${i}.ts`);
    for (const [i, rel] of users.entries()) w.write(rel, `import { slugify } from "@core/utils/strings";\nexport const u${i} = slugify("x");\n`);
    for (const rel of users) await w.waitIndexed(rel);
    await waitFor("strings.ts to become a hub", async () => (await meta(STRINGS)).isHub);
    expect((await meta(STRINGS)).dependents).toEqual(expect.arrayContaining(users));
    expect(await w.json("indexes", `deps:${users[0]}`)).toEqual([STRINGS]);
    expect(await callTarget(users[0] as string, "slugify")).toBe(`${STRINGS}#slugify`);

    w.write(users[0] as string, "export const u0 = 0;\n");
    await w.waitIndexed(users[0] as string);
    await waitFor("strings.ts to stop being a hub", async () => !(await meta(STRINGS)).isHub);
    expect((await meta(STRINGS)).dependents).not.toContain(users[0]);
    expect(await project.redis.hget(w.key("indexes"), `deps:${users[0]}`)).toBeNull();
    expect((await meta(users[0] as string)).isEntryPoint).toBe(true); // nothing imports it
  });

  it("renaming a symbol rewrites exactly its sym: fields", async () => {
    const rel = "packages/core/src/utils/strings.ts";
    const text = fs.readFileSync(path.join(project.root, rel), "utf8");
    expect(await w.json("indexes", "sym:truncate")).not.toBeNull();
    w.write(rel, text.replace(/\btruncate\b/g, "clip"));
    await w.waitIndexed(rel);
    expect(await project.redis.hget(w.key("indexes"), "sym:truncate")).toBeNull();
    expect(await w.json("indexes", "sym:clip")).toEqual([expect.objectContaining({ path: rel, kind: "function" })]);
    expect(await w.json("indexes", "sym:Money")).toEqual([expect.objectContaining({ path: "packages/core/src/money.ts" })]);
  });

  it("a created file resolves another file's previously unresolved import", async () => {
    const importer = "apps/api/src/orders/order.report.ts";
    const helper = "apps/api/src/orders/report-format.ts";
    w.write(importer, 'import { formatReport } from "./report-format.js";\nexport function report(): string {\n  return formatReport();\n}\n');
    await w.waitIndexed(importer);
    expect((await meta(importer)).dependencies).toEqual([]);
    w.write(helper, "export function formatReport(): string {\n  return 'r';\n}\n");
    await w.waitIndexed(helper);
    await waitFor("the importer to depend on the new file", async () => (await meta(importer)).dependencies.includes(helper));
    expect((await meta(helper)).dependents).toEqual([importer]);
    expect(await w.json("indexes", `deps:${importer}`)).toEqual([helper]);
    expect(await callTarget(importer, "formatReport")).toBe(`${helper}#formatReport`);

    // …and deleting it breaks the edge again.
    w.remove(helper);
    await w.waitGone(helper);
    await waitFor("the importer to lose the edge", async () => (await meta(importer)).dependencies.length === 0);
    expect(await project.redis.hget(w.key("indexes"), `deps:${importer}`)).toBeNull();
  });

  it("a file created where a folder import pointed takes the import over (file before folder index)", async () => {
    // index.ts imports "./utils/strings"; a new utils.ts does not change it, but a new "./money.ts"-like
    // sibling for a folder import does: "./utils" → utils/index.ts, then utils.ts once it exists.
    const importer = "packages/core/src/use-utils.ts";
    w.write(importer, 'export * from "./utils";\n');
    await w.waitIndexed(importer);
    expect((await meta(importer)).dependencies).toEqual(["packages/core/src/utils/index.ts"]);
    w.write("packages/core/src/utils.ts", "export const direct = 1;\n");
    await waitFor("the import to move to utils.ts", async () => (await meta(importer)).dependencies[0] === "packages/core/src/utils.ts");
    expect((await meta("packages/core/src/utils/index.ts")).dependents).not.toContain(importer);
  });

  it("a workspace package import follows its entry file as entry candidates come and go", async () => {
    const tag = "packages/ui/src/components/PriceTag.tsx";
    const srcIndex = "packages/core/src/index.ts";
    const rootIndex = "packages/core/index.ts";
    const text = fs.readFileSync(path.join(project.root, srcIndex));
    expect((await meta(tag)).dependencies).toContain(srcIndex); // "@acme/core": main dist/index.js → src/index.ts
    w.remove(srcIndex);
    await waitFor("the import to break", async () => !(await meta(tag)).dependencies.includes(srcIndex));
    w.write(rootIndex, 'export * from "./src/money";\n');
    await waitFor("the import to reach the package's root index", async () => (await meta(tag)).dependencies.includes(rootIndex));
    // The entry file comes back: nothing about its name matches "@acme/core", only the package layout does.
    w.write(srcIndex, text);
    await waitFor("the import to return to src/index.ts", async () => (await meta(tag)).dependencies.includes(srcIndex));
    expect((await meta(rootIndex)).dependents).not.toContain(tag);
    expect((await meta(srcIndex)).isEntryPoint).toBe(true);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("call targets through nested barrels follow a file that comes and goes two re-exports away", async () => {
    const caller = "apps/api/src/use-leaf.ts";
    const leaf = "packages/core/src/deep/leaf.ts";
    const target = () => callTarget(caller, "leafFn");
    w.write(leaf, "export function leafFn(): number {\n  return 1;\n}\n");
    w.write("packages/core/src/deep/index.ts", 'export * from "./leaf";\n');
    w.write("packages/core/src/mid.ts", 'export * from "./deep";\n');
    w.write(caller, 'import { leafFn } from "@core/mid";\nexport const v = () => leafFn();\n');
    await waitFor("the call to reach the declaring file", async () => (await target()) === `${leaf}#leafFn`);
    w.remove(leaf);
    // Declared nowhere now: the call stays at the module it imports from.
    await waitFor("the call to stop at the barrel it imports", async () => (await target()) === "packages/core/src/mid.ts#leafFn");
    w.write(leaf, "export function leafFn(): number {\n  return 2;\n}\n");
    await waitFor("the call to reach the file again", async () => (await target()) === `${leaf}#leafFn`);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a file that goes from under a star hands its names to a later star that has them; other names keep their route", async () => {
    const first = "packages/core/src/pick/first.ts";
    const second = "packages/core/src/pick/second.ts";
    const callers = { "apps/api/src/use-pick.ts": "pick", "apps/api/src/use-only.ts": "onlySecond" };
    const targets = () => callTargets(callers);
    const firstText = "export function pick(): number {\n  return 1;\n}\n";
    w.write(first, firstText);
    w.write(second, "export function pick(): number {\n  return 2;\n}\nexport function onlySecond(): number {\n  return 3;\n}\n");
    w.write("packages/core/src/pick/index.ts", 'export * from "./first";\nexport * from "./second";\n');
    w.write("packages/core/src/pick-top.ts", 'export * from "./pick";\n');
    w.write("apps/api/src/use-pick.ts", 'import { pick } from "@core/pick-top";\nexport const v = () => pick();\n');
    w.write("apps/api/src/use-only.ts", 'import { onlySecond } from "@core/pick-top";\nexport const v = () => onlySecond();\n');
    await waitFor("pick to reach first.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${first}#pick`, `${second}#onlySecond`]));
    w.remove(first);
    await waitFor("pick to fall through to second.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${second}#pick`, `${second}#onlySecond`]));
    w.write(first, firstText);
    await waitFor("pick to come back to first.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${first}#pick`, `${second}#onlySecond`]));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a barrel that goes from under a star hands what it forwarded to a later star, alone or with its folder", async () => {
    const impl = "packages/core/src/route/lead/impl.ts";
    const fallback = "packages/core/src/route/fallback.ts";
    const implText = "export function route(): number {\n  return 1;\n}\n";
    const leadText = 'export * from "./impl";\n';
    const callers = { "apps/api/src/use-route.ts": "route", "apps/api/src/use-spare.ts": "spare" };
    const targets = () => callTargets(callers);
    const through = (routeTo: string) => JSON.stringify([`${routeTo}#route`, `${fallback}#spare`]);
    w.write(impl, implText);
    w.write("packages/core/src/route/lead/index.ts", leadText);
    w.write(fallback, "export function route(): number {\n  return 2;\n}\nexport function spare(): number {\n  return 3;\n}\n");
    w.write("packages/core/src/route/index.ts", 'export * from "./lead";\nexport * from "./fallback";\n');
    w.write("packages/core/src/route-top.ts", 'export * from "./route";\n');
    w.write("apps/api/src/use-route.ts", 'import { route } from "@core/route-top";\nexport const v = () => route();\n');
    w.write("apps/api/src/use-spare.ts", 'import { spare } from "@core/route-top";\nexport const v = () => spare();\n');
    await waitFor("route to reach impl.ts", async () => JSON.stringify(await targets()) === through(impl));
    w.remove("packages/core/src/route/lead/index.ts");
    await waitFor("route to fall through to fallback.ts", async () => JSON.stringify(await targets()) === through(fallback));
    w.write("packages/core/src/route/lead/index.ts", leadText);
    await waitFor("route to come back to impl.ts", async () => JSON.stringify(await targets()) === through(impl));
    // The barrel and the file it forwarded go in one batch.
    w.remove("packages/core/src/route/lead");
    await waitFor("route to fall through again", async () => JSON.stringify(await targets()) === through(fallback));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a star line written ahead of another takes the names its module has, and gives them back when it goes", async () => {
    const low = "packages/core/src/tone/low.ts";
    const high = "packages/core/src/tone/high.ts";
    const barrel = "packages/core/src/tone/index.ts";
    const callers = { "apps/api/src/use-tone.ts": "tone", "apps/api/src/use-bass.ts": "bass" };
    const targets = () => callTargets(callers);
    w.write(low, "export function tone(): number {\n  return 1;\n}\nexport function bass(): number {\n  return 2;\n}\n");
    w.write(high, "export function tone(): number {\n  return 3;\n}\n");
    w.write(barrel, 'export * from "./low";\n');
    w.write("packages/core/src/tone-top.ts", 'export * from "./tone";\n');
    w.write("apps/api/src/use-tone.ts", 'import { tone } from "@core/tone-top";\nexport const v = () => tone();\n');
    w.write("apps/api/src/use-bass.ts", 'import { bass } from "@core/tone-top";\nexport const v = () => bass();\n');
    await waitFor("both calls to reach low.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${low}#tone`, `${low}#bass`]));
    w.write(barrel, 'export * from "./high";\nexport * from "./low";\n');
    await waitFor("tone to move to high.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${high}#tone`, `${low}#bass`]));
    w.write(barrel, 'export * from "./low";\n');
    await waitFor("tone to come back to low.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${low}#tone`, `${low}#bass`]));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a file that starts re-exporting a module it already imported routes the names that module gains later", async () => {
    const x = "packages/core/src/relay/source.ts";
    const y = "packages/core/src/relay/relay.ts";
    const callers = { "apps/api/src/use-relay-second.ts": "second", "apps/api/src/use-relay-later.ts": "later" };
    const targets = () => callTargets(callers);
    w.write(x, "export function first(): number {\n  return 1;\n}\n");
    w.write(y, 'import { first } from "./source";\nexport const relayed = () => first();\n');
    for (const [caller, name] of Object.entries(callers)) w.write(caller, `import { ${name} } from "@core/relay/relay";\nexport const v = () => ${name}();\n`);
    await waitFor("the calls to stop at relay.ts", async () => JSON.stringify(await targets()) === JSON.stringify([`${y}#second`, `${y}#later`]));
    // A symbol change to source.ts has the graph look for the files that re-export it (none yet).
    w.write(x, "export function first(): number {\n  return 1;\n}\nexport function second(): number {\n  return 2;\n}\n");
    await waitFor("second in the symbol index", async () => (await w.json("indexes", "sym:second")) !== null);
    // relay.ts re-exports it now, with the same dependencies.
    w.write(y, 'import { first } from "./source";\nexport * from "./source";\nexport const relayed = () => first();\n');
    await waitFor("second to reach source.ts through relay.ts", async () => (await targets())[0] === `${x}#second`);
    w.write(x, "export function first(): number {\n  return 1;\n}\nexport function second(): number {\n  return 2;\n}\nexport function later(): number {\n  return 3;\n}\n");
    await waitFor("later to reach source.ts through relay.ts", async () => (await targets())[1] === `${x}#later`);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a call through nested barrels follows a function that moves between files (symbols change, no file comes or goes)", async () => {
    const caller = "apps/api/src/use-moving.ts";
    const first = "packages/core/src/moving/first.ts";
    const second = "packages/core/src/moving/second.ts";
    const target = () => callTarget(caller, "movingFn");
    w.write(first, "export function movingFn(): number {\n  return 1;\n}\n");
    w.write(second, "export const other = 2;\n");
    w.write("packages/core/src/moving/index.ts", 'export * from "./first";\nexport * from "./second";\n');
    w.write("packages/core/src/moving-top.ts", 'export * from "./moving";\n');
    w.write(caller, 'import { movingFn } from "@core/moving-top";\nexport const v = () => movingFn();\n');
    await waitFor("the call to reach first.ts", async () => (await target()) === `${first}#movingFn`);
    // Moved in two edits: for a moment it is declared nowhere, then in the second file.
    w.write(first, "export const gone = 1;\n");
    await waitFor("the call to stop at the barrel it imports", async () => (await target()) === "packages/core/src/moving-top.ts#movingFn");
    w.write(second, "export const other = 2;\nexport function movingFn(): number {\n  return 2;\n}\n");
    await waitFor("the call to reach second.ts", async () => (await target()) === `${second}#movingFn`);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("calls under other names (renamed re-export, aliased import, namespace, an import exported again) follow a function that moves below a star", async () => {
    const a = "packages/core/src/voice/a.ts";
    const b = "packages/core/src/voice/b.ts";
    const callers = { "apps/api/src/voice-yell.ts": "yell", "apps/api/src/voice-holler.ts": "holler", "apps/api/src/voice-ns.ts": "voice.shout", "apps/api/src/voice-cry.ts": "cry" };
    const targets = () => callTargets(callers);
    w.write(a, "export const quiet = 1;\n");
    w.write(b, "export function shout(): string {\n  return 'b';\n}\n");
    w.write("packages/core/src/voice/index.ts", 'export * from "./a";\nexport * from "./b";\n');
    w.write("packages/core/src/voice-top.ts", 'export { shout as yell } from "./voice";\n');
    w.write("apps/api/src/voice-yell.ts", 'import { yell } from "@core/voice-top";\nexport const v = () => yell();\n');
    w.write("apps/api/src/voice-holler.ts", 'import { shout as holler } from "@core/voice";\nexport const v = () => holler();\n');
    w.write("apps/api/src/voice-ns.ts", 'import * as voice from "@core/voice";\nexport const v = () => voice.shout();\n');
    w.write("packages/core/src/voice-kit.ts", 'import { shout } from "./voice";\nexport { shout as cry };\n');
    w.write("apps/api/src/voice-cry.ts", 'import { cry } from "@core/voice-kit";\nexport const v = () => cry();\n');
    // Each lands on the name b.ts declares.
    await waitFor("the calls to reach b.ts#shout", async () => (await targets()).every((t) => t === `${b}#shout`));
    // The first star now exports it: every caller moves, though none of them calls it `shout` by that route alone.
    w.write(a, "export const quiet = 1;\nexport function shout(): string {\n  return 'a';\n}\n");
    await waitFor("the calls to reach a.ts#shout", async () => (await targets()).every((t) => t === `${a}#shout`));
    w.write(a, "export const quiet = 1;\n");
    await waitFor("the calls to go back to b.ts#shout", async () => (await targets()).every((t) => t === `${b}#shout`));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("calls to a default export (imported under any name, or re-exported as one) follow the declaration it points to", async () => {
    const knob = "packages/ui/src/knob.ts";
    const callers = { "apps/api/src/use-knob.ts": "Dial", "apps/api/src/use-knob-barrel.ts": "Knob.press" };
    const targets = () => callTargets(callers);
    w.write(knob, "export default class Knob {\n  static press(): void {}\n}\n");
    w.write("packages/ui/src/controls.ts", 'export { default as Knob } from "./knob";\n');
    w.write("apps/api/src/use-knob.ts", 'import Dial from "../../../packages/ui/src/knob";\nexport const v = () => Dial();\n');
    w.write("apps/api/src/use-knob-barrel.ts", 'import { Knob } from "../../../packages/ui/src/controls";\nexport const v = () => Knob.press();\n');
    await waitFor("the calls to name Knob", async () => JSON.stringify(await targets()) === JSON.stringify([`${knob}#Knob`, `${knob}#Knob.press`]));
    // The default export now points at another declaration: both callers follow, neither file changed.
    w.write(knob, "class Knob {\n  static press(): void {}\n}\nexport class Slider {\n  static press(): void {}\n}\nexport default Slider;\n");
    await waitFor("the calls to name Slider", async () => JSON.stringify(await targets()) === JSON.stringify([`${knob}#Slider`, `${knob}#Slider.press`]));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("calls on a require() binding follow what module.exports is", async () => {
    const cache = "apps/api/lib/cache.js";
    const callers = { "apps/api/lib/use-cache.js": "Store.get", "apps/api/lib/use-util.js": "util.quote" };
    w.write(cache, "class Cache {\n  get() {}\n}\nmodule.exports = Cache;\n");
    w.write("apps/api/lib/util.js", "function quote(s) {\n  return s;\n}\nexports.quote = quote;\n");
    w.write("apps/api/lib/use-cache.js", 'const Store = require("./cache");\nexports.run = () => Store.get();\n');
    w.write("apps/api/lib/use-util.js", 'const util = require("./util");\nexports.run = () => util.quote("x");\n');
    await waitFor("the calls to reach Cache.get and quote", async () => JSON.stringify(await callTargets(callers)) === JSON.stringify([`${cache}#Cache.get`, "apps/api/lib/util.js#quote"]));
    w.write(cache, "class Cache {\n  get() {}\n}\nclass Lru {\n  get() {}\n}\nmodule.exports = Lru;\n");
    await waitFor("the call to follow module.exports to Lru", async () => (await callTarget("apps/api/lib/use-cache.js", "Store.get")) === `${cache}#Lru.get`);
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a tsconfig paths change re-resolves imports through the new alias", async () => {
    const importer = "packages/ui/src/components/Badge.tsx";
    w.write(importer, 'import { slugify } from "#str";\nexport const Badge = () => slugify("b");\n');
    await w.waitIndexed(importer);
    expect((await meta(importer)).dependencies).toEqual([]);
    const tsconfig = path.join(project.root, "tsconfig.json");
    fs.writeFileSync(tsconfig, fs.readFileSync(tsconfig, "utf8").replace('"paths": {', '"paths": {\n      "#str": ["packages/core/src/utils/strings.ts"],'));
    await waitFor("the alias to resolve", async () => (await meta(importer)).dependencies.includes(STRINGS));
    expect((await meta(STRINGS)).dependents).toContain(importer);
    // The stored AST now types the import as internal (the file was re-parsed under the new layout).
    await waitFor("the AST to type #str as internal", async () => (await project.store.getAst(importer))?.imports[0]?.type === "internal");
  });
});

describe("live index: a workspace package moved", () => {
  it("a package folder renamed takes its package's importers along (the layout is read again), and back", async () => {
    const importer = "apps/api/src/orders/order.service.ts";
    const at = (rel: string) => path.join(project.root, rel);
    await w.watcher.idle();
    expect((await meta(importer)).dependencies).toContain("packages/core/src/index.ts");
    fs.renameSync(at("packages/core"), at("packages/core2"));
    await waitFor("@acme/core to resolve in its new folder", async () => (await project.store.getMeta(importer))?.dependencies.includes("packages/core2/src/index.ts"));
    expect(await callTarget(importer, "sum")).toMatch(/^packages\/core2\/src\//);
    fs.renameSync(at("packages/core2"), at("packages/core"));
    await waitFor("@acme/core to resolve where it was", async () => (await project.store.getMeta(importer))?.dependencies.includes("packages/core/src/index.ts"));
    await w.watcher.idle();
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a file that turns binary in the batch that brings it new importers keeps no meta (the batch is applied in slices)", async () => {
    const target = "apps/api/src/orders/zz-legacy.ts";
    w.write(target, "export const legacy = 1;\n");
    await w.waitIndexed(target);
    // More importers than the first graph slice takes, written before the target: the slices before the
    // one that drops it see it gain dependents.
    const importers = Array.from({ length: 14 }, (_, i) => `apps/api/src/orders/legacy-user-${String(i).padStart(2, "0")}.ts`);
    for (const rel of importers) w.write(rel, 'import { legacy } from "./zz-legacy";\nexport const v = legacy;\n');
    w.write(target, Buffer.from([0, 1, 2, 3]));
    for (const rel of importers) await w.waitIndexed(rel);
    await w.watcher.idle();
    expect(await project.store.getMeta(target)).toBeNull();
    expect((await meta(importers[13] as string)).dependencies).toEqual([]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });
});

describe("live index: incremental equals full", () => {
  it("after all the changes above, meta and indexes equal a full graph pass over the stored facts", async () => {
    await w.watcher.idle();
    const [stored, rebuilt] = await Promise.all([storedGraph(project), rebuiltGraph(project)]);
    expect(Object.keys(stored.meta).sort()).toEqual(Object.keys(rebuilt.meta).sort());
    expect(stored).toEqual(rebuilt);
  });
});
