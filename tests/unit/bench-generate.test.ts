// The bench generator: deterministic output, a manifest that matches the disk, edge files present,
// generated code that parses, and no clobbering of foreign folders.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import ignore from "ignore";
import Parser from "tree-sitter";
import TreeSitterJavaScript from "tree-sitter-javascript";
import TreeSitterTypeScript from "tree-sitter-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { generateMonorepo, type GenerateResult } from "../../bench/generate/generate-monorepo.js";
import { REPO_ROOT } from "../../bench/lib/run-cli.js";
import { MANIFEST_FILE, type BenchManifest } from "../../bench/generate/manifest.js";
import { verifyTree } from "../../bench/generate/verify-tree.js";
import { makeTempDir, removeDir, writeTree } from "../helpers/temp-dir.js";

const FILES = 300;
const SEED = 7;

interface DiskEntry {
  path: string;
  kind: "file" | "symlink";
  /** File bytes, or the link target. */
  data: Buffer;
}

/** Everything under `root` without following links; `.` entries first so output order is stable. */
function walk(root: string): DiskEntry[] {
  const out: DiskEntry[] = [];
  const visit = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      const stat = fs.lstatSync(path.join(root, child));
      if (stat.isSymbolicLink()) out.push({ path: child, kind: "symlink", data: Buffer.from(fs.readlinkSync(path.join(root, child))) });
      else if (stat.isDirectory()) visit(child);
      else out.push({ path: child, kind: "file", data: fs.readFileSync(path.join(root, child)) });
    }
  };
  visit("");
  return out;
}

function treeHash(root: string): string {
  const hash = createHash("sha256");
  for (const entry of walk(root)) hash.update(`${entry.kind}\0${entry.path}\0`).update(entry.data).update("\0");
  return hash.digest("hex");
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Classifies files the way an indexer should, independently of the generator's own bookkeeping. */
function classifyDisk(root: string) {
  const rootRules = ignore().add(fs.readFileSync(path.join(root, ".gitignore"), "utf8"));
  const nested = new Map<string, ReturnType<typeof ignore>>();
  const entries = walk(root);
  for (const entry of entries) {
    if (entry.kind === "file" && entry.path.endsWith("/.gitignore")) nested.set(path.posix.dirname(entry.path), ignore().add(entry.data.toString("utf8")));
  }
  const categories: Record<string, number> = { ts: 0, tsx: 0, js: 0, json: 0, yaml: 0, other: 0, binary: 0, nonUtf8: 0, ignored: 0 };
  const ignoredPaths: string[] = [];
  const excluded = { nodeModules: 0, dist: 0 };
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (entry.kind !== "file" || entry.path === MANIFEST_FILE) continue;
    const segments = entry.path.split("/");
    if (segments.includes("node_modules")) {
      excluded.nodeModules++;
      continue;
    }
    if (segments.includes("dist")) {
      excluded.dist++;
      continue;
    }
    files++;
    bytes += entry.data.length;
    const nestedHit = [...nested].some(([dir, rules]) => entry.path.startsWith(`${dir}/`) && rules.ignores(entry.path.slice(dir.length + 1)));
    if (rootRules.ignores(entry.path) || nestedHit || entry.path.endsWith(".min.js")) {
      categories.ignored = (categories.ignored ?? 0) + 1;
      ignoredPaths.push(entry.path);
      continue;
    }
    const category = entry.data.includes(0)
      ? "binary"
      : !isValidUtf8(entry.data)
        ? "nonUtf8"
        : /\.(ts|mts|cts)$/.test(entry.path)
          ? "ts"
          : entry.path.endsWith(".tsx")
            ? "tsx"
            : /\.(js|jsx|cjs|mjs)$/.test(entry.path)
              ? "js"
              : entry.path.endsWith(".json")
                ? "json"
                : /\.ya?ml$/.test(entry.path)
                  ? "yaml"
                  : "other";
    categories[category] = (categories[category] ?? 0) + 1;
  }
  const symlinks = entries.filter((e) => e.kind === "symlink").map((e) => ({ path: e.path, target: e.data.toString() }));
  return { files, bytes, categories, ignoredPaths, excluded, symlinks };
}

describe("bench generator", () => {
  const dirs: string[] = [];
  let first: GenerateResult;
  let firstDir: string;
  let manifest: BenchManifest;

  const tempDir = () => {
    const dir = makeTempDir("ipuaro-bench-gen-");
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    firstDir = path.join(tempDir(), "repo"); // does not exist yet: the generator creates it
    first = await generateMonorepo({ files: FILES, out: firstDir, seed: SEED });
    manifest = JSON.parse(fs.readFileSync(path.join(firstDir, MANIFEST_FILE), "utf8")) as BenchManifest;
  });

  afterAll(() => {
    for (const dir of dirs) removeDir(dir);
  });

  it("writes exactly the requested number of files and returns the manifest it wrote", () => {
    expect(first.files).toBe(FILES);
    expect(manifest.files).toBe(FILES);
    expect(first.manifest).toEqual(manifest);
    expect(manifest).toMatchObject({ generator: "ipuaro-bench-generate", complete: true, seed: SEED, requestedFiles: FILES });
  });

  it("is deterministic: same seed → identical tree, other seed → different tree", async () => {
    const again = tempDir();
    await generateMonorepo({ files: FILES, out: again, seed: SEED });
    expect(treeHash(again)).toBe(treeHash(firstDir));

    const other = tempDir();
    await generateMonorepo({ files: FILES, out: other, seed: SEED + 1 });
    expect(treeHash(other)).not.toBe(treeHash(firstDir));
  });

  it("has a manifest whose counts match an independent classification of the disk", () => {
    const disk = classifyDisk(firstDir);
    expect(disk.files).toBe(manifest.files);
    expect(disk.bytes).toBe(manifest.bytes);
    expect(disk.categories).toEqual(manifest.categories);
    expect(disk.ignoredPaths.sort()).toEqual(manifest.paths.ignored.map((i) => i.path).sort());
    expect(disk.excluded).toEqual({ nodeModules: manifest.excluded.nodeModules, dist: manifest.excluded.dist });
    expect(disk.excluded.nodeModules).toBeGreaterThan(0);
    expect(disk.excluded.dist).toBeGreaterThan(0);
    const { ts: t, tsx, js, json, yaml } = manifest.categories;
    expect(manifest.indexable).toBe(t + tsx + js + json + yaml);
    expect(Object.values(manifest.categories).reduce((a, b) => a + b, 0)).toBe(manifest.files);
    if (manifest.symlinks.supported) {
      expect(disk.symlinks.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
        manifest.symlinks.entries.map(({ path: p, target }) => ({ path: p, target })).sort((a, b) => a.path.localeCompare(b.path)),
      );
    }
  });

  it("contains the edge files an indexer must survive", () => {
    const read = (rel: string) => fs.readFileSync(path.join(firstDir, rel));
    const big = read(manifest.bigFile.path).toString("utf8");
    expect(manifest.bigFile.path).toMatch(/big-table\.ts$/);
    expect(big.split("\n").length - 1).toBe(50_000);
    expect(manifest.largeFiles.length).toBeGreaterThanOrEqual(2);

    expect(manifest.paths.nonUtf8.length).toBeGreaterThanOrEqual(3);
    expect(manifest.paths.nonUtf8.some((p) => p.endsWith(".ts"))).toBe(true);
    for (const rel of manifest.paths.nonUtf8) {
      const bytes = read(rel);
      expect(isValidUtf8(bytes), rel).toBe(false);
      expect(bytes.includes(0), rel).toBe(false);
    }
    expect(manifest.paths.binary.some((p) => p.endsWith(".png"))).toBe(true);
    expect(manifest.paths.binary.some((p) => p.endsWith(".woff"))).toBe(true);
    const nulTs = manifest.paths.binary.find((p) => p.endsWith(".ts"));
    expect(nulTs && read(nulTs).includes(0)).toBe(true);
    expect(read("apps/web/public/logo.png").subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const gitignore = read(".gitignore").toString();
    for (const rule of ["node_modules/", "dist/", "coverage/", "*.log"]) expect(gitignore).toContain(rule);
    expect(manifest.paths.ignored.some((i) => i.reason === "nested-gitignore")).toBe(true);
    expect(fs.existsSync(path.join(firstDir, "packages/http/generated-cache/.gitkeep"))).toBe(true);

    const rootPackage = JSON.parse(read("package.json").toString()) as { workspaces: string[] };
    expect(rootPackage.workspaces).toEqual(["packages/*", "apps/*"]);
    const base = JSON.parse(read("tsconfig.base.json").toString()) as { compilerOptions: { baseUrl: string; paths: Record<string, string[]> } };
    expect(base.compilerOptions.paths["@acme/core"]).toEqual(["./packages/core/src/index.ts"]);
    const locales = fs.readdirSync(path.join(firstDir, "apps/web/src/locales")).filter((f) => f.endsWith(".json"));
    const ru = read("apps/web/src/locales/ru.json").toString();
    expect(locales.length).toBeGreaterThanOrEqual(5);
    expect(ru).toMatch(/[а-я]/);
    expect(read("apps/web/src/locales/zh-CN.json").toString()).toMatch(/[\u4e00-\u9fff]/);

    if (manifest.symlinks.supported) {
      const kinds = manifest.symlinks.entries.map((e) => e.kind).sort();
      expect(kinds).toEqual(["dangling", "directory", "file", "loop"]);
      const loop = manifest.symlinks.entries.find((e) => e.kind === "loop");
      expect(loop && fs.realpathSync(path.join(firstDir, loop.path))).toBe(loop && fs.realpathSync(path.join(firstDir, path.dirname(loop.path))));
    }
  });

  it("writes code that parses cleanly with the TypeScript parser and tree-sitter", () => {
    const skip = new Set([...manifest.paths.binary, ...manifest.paths.nonUtf8, ...manifest.paths.ignored.map((i) => i.path), manifest.bigFile.path]);
    const code = walk(firstDir).filter(
      (e) => e.kind === "file" && /\.(ts|tsx|js|jsx|cjs|mjs)$/.test(e.path) && !skip.has(e.path) && !/(^|\/)(node_modules|dist)\//.test(e.path),
    );
    expect(code.length).toBeGreaterThan(150);

    const report = verifyTree(firstDir, code.map((e) => e.path));
    expect(report.codeFiles).toBe(code.length);
    expect(report.parseFailures).toEqual([]);

    const typescript = new Parser();
    typescript.setLanguage(TreeSitterTypeScript.typescript as Parser.Language);
    const tsx = new Parser();
    tsx.setLanguage(TreeSitterTypeScript.tsx as Parser.Language);
    const javascript = new Parser();
    javascript.setLanguage(TreeSitterJavaScript as Parser.Language);
    const treeSitterFailures = code.filter((entry) => {
      const parser = /\.(tsx|jsx)$/.test(entry.path) ? tsx : entry.path.endsWith(".ts") ? typescript : javascript;
      return parser.parse(entry.data.toString("utf8")).rootNode.hasError;
    });
    expect(treeSitterFailures.map((e) => e.path)).toEqual([]);
  });

  it("links modules consistently: internal imports resolve to files exporting the imported names", () => {
    const files = walk(firstDir).filter((e) => e.kind === "file" && !/(^|\/)(node_modules|dist)\//.test(e.path)).map((e) => e.path);
    const report = verifyTree(firstDir, files);
    expect(report.internalEdges).toBeGreaterThan(200);
    expect(report.unresolved).toEqual([]);
    expect(report.missingNames).toEqual([]);
  });

  it("refuses a non-empty folder it did not create, and regenerates one it did", async () => {
    const foreign = tempDir();
    writeTree(foreign, { "notes.txt": "my work" });
    await expect(generateMonorepo({ files: FILES, out: foreign, seed: SEED })).rejects.toThrow(/not empty.*marker/);
    expect(fs.readdirSync(foreign)).toEqual(["notes.txt"]);

    const own = tempDir();
    await generateMonorepo({ files: FILES, out: own, seed: SEED });
    writeTree(own, { "stray.txt": "left over" });
    await generateMonorepo({ files: FILES, out: own, seed: SEED });
    expect(fs.existsSync(path.join(own, "stray.txt"))).toBe(false);
    expect(treeHash(own)).toBe(treeHash(firstDir));
  });

  it("rejects bad arguments with a clear message before touching the disk", async () => {
    const dir = path.join(tempDir(), "never-created");
    await expect(generateMonorepo({ files: 10, out: dir, seed: SEED })).rejects.toThrow(/too small.*at least/);
    await expect(generateMonorepo({ files: 1.5, out: dir })).rejects.toThrow(/positive integer/);
    await expect(generateMonorepo({ files: FILES, out: dir, seed: -1 })).rejects.toThrow(/seed/);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("run by a bench, reports on stderr: the bench's stdout is only its result (`npm run bench -- --json | jq`)", () => {
    const out = path.join(tempDir(), "from-bench");
    const script = `import { runTsxScript } from ${JSON.stringify(path.join(REPO_ROOT, "bench/lib/run-cli.ts"))};
runTsxScript("bench/generate/cli.ts", ["--files", "${FILES}", "--out", ${JSON.stringify(out)}, "--seed", "${SEED}"]);`;
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(res.status).toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(`wrote ${FILES} files`);
    expect(treeHash(out)).toBe(treeHash(firstDir));
  });
});
