// Writes a planned monorepo to disk. Same arguments → byte-identical tree.

import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

import { GENERATOR_ID, MANIFEST_FILE, MANIFEST_VERSION, buildManifest, countLines, type BenchManifest, type FileStat } from "./manifest.js";
import { planMonorepo } from "./plan/monorepo.js";

export const DEFAULT_SEED = 1;

export interface GenerateOptions {
  /** Files to write outside node_modules/ and dist/ (the manifest excluded). */
  files: number;
  /** Target folder: created if missing; wiped only if it holds this generator's marker. */
  out: string;
  seed?: number;
}

export interface GenerateResult {
  files: number;
  bytes: number;
  manifest: BenchManifest;
  manifestPath: string;
}

function validate(options: GenerateOptions): { files: number; out: string; seed: number } {
  const { files, out } = options;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(files) || files <= 0) throw new Error(`files must be a positive integer, got ${String(files)}`);
  if (typeof out !== "string" || out.trim() === "") throw new Error("out must be a non-empty path");
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed must be an integer in [0, 2^32), got ${String(seed)}`);
  return { files, out: path.resolve(out), seed };
}

/** Creates `out`, or empties it when it is a previous run's output; refuses any other non-empty folder. */
function prepareOutDir(out: string): void {
  if (!existsSync(out)) {
    mkdirSync(out, { recursive: true });
    return;
  }
  if (!lstatSync(out).isDirectory()) throw new Error(`refusing to generate into ${out}: it exists and is not a directory`);
  const entries = readdirSync(out);
  if (entries.length === 0) return;
  const marker = path.join(out, MANIFEST_FILE);
  let generator: unknown;
  try {
    generator = (JSON.parse(readFileSync(marker, "utf8")) as { generator?: unknown }).generator;
  } catch {
    generator = undefined;
  }
  if (generator !== GENERATOR_ID) {
    throw new Error(
      `refusing to generate into ${out}: the folder is not empty and has no ${MANIFEST_FILE} marker from a previous run; ` +
        "pick an empty or new folder",
    );
  }
  // rmSync does not follow symlinks, so the self-referencing loop link is removed, not walked.
  for (const entry of entries) rmSync(path.join(out, entry), { recursive: true, force: true });
}

function writeMarker(out: string, content: unknown): string {
  const file = path.join(out, MANIFEST_FILE);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

export async function generateMonorepo(options: GenerateOptions): Promise<GenerateResult> {
  const { files, out, seed } = validate(options);
  // Planning first: a bad --files fails before the folder is touched.
  const plan = planMonorepo({ files, seed });
  prepareOutDir(out);
  // Written first: a crash midway leaves a folder the next run may wipe.
  writeMarker(out, { generator: GENERATOR_ID, version: MANIFEST_VERSION, complete: false, seed, requestedFiles: files });

  const stats = new Map<string, FileStat>();
  const madeDirs = new Set<string>();
  for (const file of plan.files) {
    const full = path.join(out, file.path);
    const dir = path.dirname(full);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    const content = file.render();
    const bytes = typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.byteLength;
    writeFileSync(full, content);
    stats.set(file.path, { path: file.path, bytes, lines: countLines(content) });
  }

  let symlinksSupported = true;
  const created: string[] = [];
  for (const link of plan.symlinks) {
    const full = path.join(out, link.path);
    try {
      mkdirSync(path.dirname(full), { recursive: true });
      symlinkSync(link.target, full, link.kind === "file" || link.kind === "dangling" ? "file" : "dir");
      created.push(full);
    } catch {
      // Windows without developer mode: no links at all, and the manifest says so.
      symlinksSupported = false;
      for (const done of created) unlinkSync(done);
      break;
    }
  }

  const manifest = buildManifest({
    seed,
    requestedFiles: files,
    files: plan.files,
    stats,
    symlinks: plan.symlinks,
    symlinksSupported,
    workspaces: plan.workspaces,
  });
  const manifestPath = writeMarker(out, manifest);
  return { files: manifest.files, bytes: manifest.bytes, manifest, manifestPath };
}
