// An import through a symlink inside the project lands on the file the link points to, in a cold index
// and in the watcher's incremental graph alike — also an import of a file under a symlinked folder, which
// the walk never enters; links out of the project or to files the index does not hold stay unresolved.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMeta } from "../../../src/workers/ast-types.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { rebuiltGraph, storedGraph } from "./graph-oracle.js";
import { startWatching, waitFor, type WatchHarness } from "./watch-harness.js";

const server = useRedisServer();
let project: IndexedProject;
let outside: string;

const A = "src/a/a.ts";
const B = "src/a/b.ts";

beforeAll(async () => {
  outside = makeTempDir("ipuaro-outside-");
  writeTree(outside, { "outside.ts": "export function a(): number {\n  return 0;\n}\n" });
  const root = makeTempDir();
  writeTree(root, {
    [A]: "export function a(): number {\n  return 1;\n}\n",
    [B]: "export function a(): number {\n  return 2;\n}\n",
    "src/notes.md": "# not indexed\n",
    "src/n.ts": 'import { a } from "./alias";\nexport const n = a();\n',
    "src/m.ts": 'import { a } from "./chain";\nimport "./out";\nimport "./notes";\nexport const m = a();\n',
    "src/f.ts": 'import { a } from "./shared/a";\nimport { a as b } from "./shared/b.js";\nimport "./shared/missing";\nexport const f = a() + b();\n',
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@via": ["src/vlink/a"] } } }),
  });
  fs.symlinkSync("a/a.ts", path.join(root, "src/alias.ts"));
  fs.symlinkSync("alias.ts", path.join(root, "src/chain.ts"));
  fs.symlinkSync(path.join(outside, "outside.ts"), path.join(root, "src/out.ts"));
  fs.symlinkSync("notes.md", path.join(root, "src/notes.ts"));
  fs.symlinkSync("a", path.join(root, "src/shared"));
  project = await openIndexedProject(root, server().url);
  await project.reindex();
});
afterAll(async () => {
  await closeIndexedProject(project);
  removeDir(outside);
});

const meta = async (rel: string) => (await project.store.getMeta(rel)) as FileMeta;
const depsOf = async (rel: string) => (await meta(rel)).dependencies;

describe("imports through symlinks: cold index", () => {
  it("an import of a link is an edge to the file it points to, through a chain of links too", async () => {
    expect(await depsOf("src/n.ts")).toEqual([A]);
    expect(await depsOf("src/m.ts")).toEqual([A]); // ./out leads outside, ./notes to a file not indexed
    expect((await meta(A)).dependents).toEqual(["src/f.ts", "src/m.ts", "src/n.ts"]);
    const calls = JSON.parse((await project.redis.hget(`project:{${project.store.projectName}}:indexes`, "calls:src/n.ts")) as string) as { callee: string; target?: string }[];
    expect(calls.find((c) => c.callee === "a")?.target).toBe(`${A}#a`);
  });

  it("an import of a file under a symlinked folder is an edge to the file's real path", async () => {
    expect(await depsOf("src/f.ts")).toEqual([A, B]);
    const calls = JSON.parse((await project.redis.hget(`project:{${project.store.projectName}}:indexes`, "calls:src/f.ts")) as string) as { callee: string; target?: string }[];
    expect(calls.map((c) => c.target).sort()).toEqual([`${A}#a`, `${B}#a`]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a warm run that only adds a link rebuilds the graph with it", async () => {
    writeTree(project.root, { "src/w.ts": 'import { a } from "./late";\nexport const w = a();\n' });
    await project.reindex();
    expect(await depsOf("src/w.ts")).toEqual([]);
    fs.symlinkSync("a/b.ts", path.join(project.root, "src/late.ts"));
    await project.reindex();
    expect(await depsOf("src/w.ts")).toEqual([B]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
    // A folder link too.
    writeTree(project.root, { "src/v.ts": 'import { a } from "./later-dir/b";\nexport const v = a();\n' });
    await project.reindex();
    expect(await depsOf("src/v.ts")).toEqual([]);
    fs.symlinkSync("a", path.join(project.root, "src/later-dir"));
    await project.reindex();
    expect(await depsOf("src/v.ts")).toEqual([B]);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });
});

describe("imports through symlinks: the watcher", () => {
  let w: WatchHarness;
  beforeAll(async () => void (w = await startWatching(project)));
  afterAll(() => w.stop());

  const link = (target: string, rel: string) => fs.symlinkSync(target, path.join(project.root, rel));
  const unlink = (rel: string) => fs.rmSync(path.join(project.root, rel));
  const settle = async (rel: string, deps: string[]) => {
    await waitFor(`${rel} to depend on ${JSON.stringify(deps)}`, async () => JSON.stringify(await depsOf(rel)) === JSON.stringify(deps));
    await w.watcher.idle();
  };

  it("follows a link retargeted, created after its importer, and removed", async () => {
    unlink("src/alias.ts");
    link("a/b.ts", "src/alias.ts");
    await settle("src/n.ts", [B]);
    await settle("src/m.ts", [B]); // through src/chain.ts → src/alias.ts
    expect((await meta(A)).dependents).toEqual(["src/f.ts"]); // through the folder link

    w.write("src/k.ts", 'import { a } from "./later";\nexport const k = a();\n');
    await w.waitIndexed("src/k.ts");
    expect(await depsOf("src/k.ts")).toEqual([]);
    link("a/a.ts", "src/later.ts");
    await settle("src/k.ts", [A]);
    expect(await w.json<{ callee: string; target?: string }[]>("indexes", "calls:src/k.ts")).toEqual([expect.objectContaining({ callee: "a", target: `${A}#a` })]);
    unlink("src/later.ts");
    await settle("src/k.ts", []);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("follows a folder link created after its importer, retargeted and removed, and a file created under it", async () => {
    w.write("src/a2/a.ts", "export function a(): number {\n  return 4;\n}\n");
    w.write("src/g.ts", 'import { a } from "./dir/a";\nimport { a as c } from "./dir/c";\nexport const g = a() + c();\n');
    await w.waitIndexed("src/g.ts");
    expect(await depsOf("src/g.ts")).toEqual([]);
    link("a", "src/dir");
    await settle("src/g.ts", [A]);
    unlink("src/dir");
    link("a2", "src/dir");
    await settle("src/g.ts", ["src/a2/a.ts"]);
    w.write("src/a2/c.ts", "export function a(): number {\n  return 5;\n}\n");
    await settle("src/g.ts", ["src/a2/a.ts", "src/a2/c.ts"]);
    unlink("src/dir");
    await settle("src/g.ts", []);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("an exact tsconfig alias whose target lies under a folder link follows the link created, retargeted and removed", async () => {
    w.write("src/v1/a.ts", "export function a(): number {\n  return 6;\n}\n");
    w.write("src/v2/a.ts", "export function a(): number {\n  return 7;\n}\n");
    w.write("src/v.ts", 'import { a } from "@via";\nexport const v = a();\n');
    await w.waitIndexed("src/v.ts");
    expect(await depsOf("src/v.ts")).toEqual([]);
    link("v1", "src/vlink");
    await settle("src/v.ts", ["src/v1/a.ts"]);
    unlink("src/vlink");
    link("v2", "src/vlink");
    await settle("src/v.ts", ["src/v2/a.ts"]);
    unlink("src/vlink");
    await settle("src/v.ts", []);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });

  it("a link to a file that comes later resolves when it comes, and not once it is gone", async () => {
    link("a/c.ts", "src/pending.ts");
    w.write("src/p.ts", 'import { a } from "./pending";\nexport const p = a();\n');
    await w.waitIndexed("src/p.ts");
    expect(await depsOf("src/p.ts")).toEqual([]);
    w.write("src/a/c.ts", "export function a(): number {\n  return 3;\n}\n");
    await settle("src/p.ts", ["src/a/c.ts"]);
    w.remove("src/a/c.ts");
    await settle("src/p.ts", []);
    expect(await storedGraph(project)).toEqual(await rebuiltGraph(project));
  });
});
