// Where parcel writes. `parcel build` and `parcel watch` build every target of the package.json nearest
// to where they run (or of a folder named as an entry): `main`, `module`, `browser` and `types` into the
// folder of the file each names, custom targets into their `distDir`, else `dist` (`dist/<name>` when
// there are several); `--dist-dir` moves the targets that name no folder of their own, `--target` picks
// some. The dev server (`parcel`, `parcel serve`) writes to `--dist-dir`, else `dist`. As parcel 2 does it
// (core/src/requests/TargetRequest.js, EntryRequest.js).
import fs from "node:fs";
import path from "node:path";
import { cliValue } from "./linked-writes.js";
import { readJson } from "./package-scripts.js";
import type { ShellWord } from "./shell-words.js";

const COMMON_TARGETS = ["main", "module", "browser", "types"];
const SUBCOMMANDS = new Set(["serve", "watch", "build", "help"]);
/** Options taking the next word as their value, so that word is no entry. */
const WITH_VALUE = new Set([
  "--dist-dir", "--target", "--public-url", "--cache-dir", "--config", "--port", "-p", "--host", "--cert", "--key",
  "--log-level", "--reporter", "--watch-dir", "--watch-backend", "--feature-flag", "--profile-duration",
]);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The folder of the package.json nearest to `dir` (it or one above), or null. */
function nearestPackageDir(dir: string): string | null {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, "package.json"))) return at;
    if (path.dirname(at) === at) return null;
  }
}

/** The folders a build of the package in `pkgDir` writes, by target name (absolute). */
function packageTargets(pkgDir: string, distDir: string | undefined): Map<string, string> {
  // Missing or no JSON object: parcel stops with an error; its default folder is judged all the same.
  const pkg = readJson(path.join(pkgDir, "package.json")) ?? {};
  const targets = isObject(pkg.targets) ? pkg.targets : {};
  const out = new Map<string, string>();
  const fileFolder = (file: string) => path.resolve(pkgDir, path.dirname(file));
  for (const name of COMMON_TARGETS) {
    // `browser` may be a map of replacements; the package's own entry is under its name.
    const field = name === "browser" && isObject(pkg.browser) ? pkg.browser[String(pkg.name)] : pkg[name];
    if (typeof field !== "string" && !targets[name]) continue;
    if (targets[name] === false) continue;
    out.set(name, typeof field === "string" ? fileFolder(field) : (distDir ?? path.join(pkgDir, "dist", name)));
  }
  const custom = Object.keys(targets).filter((name) => !COMMON_TARGETS.includes(name) && isObject(targets[name]));
  for (const name of custom) {
    const own = (targets[name] as Json).distDir;
    const field = pkg[name];
    const base = distDir ?? path.join(pkgDir, "dist");
    const fallback = typeof field === "string" ? fileFolder(field) : custom.length >= 2 ? path.join(base, name) : base;
    out.set(name, typeof own === "string" ? path.resolve(pkgDir, own) : fallback);
  }
  if (out.size === 0) out.set("default", distDir ?? path.join(pkgDir, "dist"));
  return out;
}

/** Every value of a repeatable option (`--target a --target=b`). */
function allValues(args: readonly ShellWord[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.value === name && args[i + 1]) out.push(args[++i]!.value);
    else if (word.value.startsWith(`${name}=`)) out.push(word.value.slice(name.length + 1));
  }
  return out;
}

/** The absolute folders `parcel ARGS` run in `cwd` writes; empty for help. */
export function parcelOutputFolders(args: readonly ShellWord[], cwd: string): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (WITH_VALUE.has(text)) i++;
    else if (!text.startsWith("-")) words.push(text);
  }
  const command = words[0] !== undefined && SUBCOMMANDS.has(words[0]) ? words.shift()! : "serve";
  const dist = cliValue(args, "--dist-dir");
  const distDir = dist === undefined ? undefined : path.resolve(cwd, dist);
  if (command === "help") return [];
  if (command === "serve") return [distDir ?? path.join(cwd, "dist")];
  // A folder named as an entry builds from its own package.json; a file entry (or none) from the nearest one.
  const folders = words.map((word) => path.resolve(cwd, word)).filter((dir) => fs.existsSync(path.join(dir, "package.json")));
  if (folders.length < words.length || !words.length) folders.push(nearestPackageDir(cwd) ?? cwd);
  const wanted = new Set(allValues(args, "--target"));
  const out = new Set<string>();
  for (const dir of folders) {
    for (const [name, folder] of packageTargets(dir, distDir)) if (!wanted.size || wanted.has(name)) out.add(folder);
  }
  return [...out];
}
