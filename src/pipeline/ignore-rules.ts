// What the index leaves out: every .gitignore (nested ones apply to their own folder, as git does),
// the configured ignorePatterns, and ipuaro's own always-ignored folders. The scanner and the watcher
// share one instance so they never disagree about a path.
//
// Precedence is git's: a deeper .gitignore overrides a shallower one (the deepest file with a rule that
// matches the path decides, a negation included), within one file the last matching rule wins, and
// nothing under an excluded folder comes back. The ignorePatterns only add to that: what they ignore is
// ignored whatever a .gitignore says. Virtual filesystems under the root (/proc, /sys, /dev) are never
// entered at all (virtual-mounts.ts).
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { virtualFolders } from "./virtual-mounts.js";

/** Never indexed whatever the config says: VCS internals and ipuaro's own state. */
const ALWAYS_IGNORED = [".git", ".hg", ".svn", ".ipuaro"];

/** What one .gitignore says about one path: ignored, kept by a negation, or neither (no rule matched). */
interface PathVerdict {
  ignored: boolean;
  unignored: boolean;
}

/**
 * The library's matcher for one path on its own. `Ignore#test` also climbs the path's folders within the
 * one file and answers "ignored" for anything under a folder that file ignores, but under git's
 * precedence that folder may have been kept by a deeper file (`dist/` at the root, `!dist/` in a
 * package): there the shallower file judges the package's dist/x.ts by its own rules only. The walk
 * (and isIgnored) checks the folders itself, so only the path's own match is wanted. `ignore` is
 * pinned in package.json; a version without this internal fails here, at the first .gitignore read.
 */
interface OwnPathMatcher {
  test(path: string, checkUnignored: boolean, mode: "regex"): PathVerdict;
}

function ownPathMatcher(rules: Ignore): OwnPathMatcher {
  const matcher = (rules as unknown as { _rules?: Partial<OwnPathMatcher> })._rules;
  if (typeof matcher?.test !== "function") throw new Error("the `ignore` package changed: IgnoreRules needs its per-path matcher (see ignore-rules.ts)");
  return matcher as OwnPathMatcher;
}

interface DirRules {
  /** Folder of the .gitignore, relative to the root ("" for the root). */
  base: string;
  rules: OwnPathMatcher;
  /** Every pattern matches by name alone (see namesOnly). */
  byName: boolean;
}

/**
 * Whether every pattern is a bare name or glob without a slash (`node_modules`, `*.min.js`, `dist/`).
 * Such a pattern matches an entry by its own name at any depth, so once the walker knows the parent is
 * kept, testing the name gives the answer testing the whole path would, without the library splitting
 * the path and checking every ancestor again (most of a 12K-file walk's time in the library).
 */
function namesOnly(patterns: string[]): boolean {
  return patterns.every((raw) => {
    const line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) return true;
    const body = line.replace(/^!/, "").replace(/\/$/, "");
    return !body.includes("/");
  });
}

export class IgnoreRules {
  private readonly root: string;
  private global: Ignore;
  private globalByName: boolean;
  private patterns: string[];
  /** .gitignore rules per folder; null = the folder has none. */
  private readonly perDir = new Map<string, DirRules | null>();
  /** Per folder, the .gitignore rules of the folder and its ancestors, root first. */
  private readonly chains = new Map<string, DirRules[]>();
  /** Mount points of virtual filesystems under the root, relative to it (almost always none). */
  private readonly virtual: ReadonlySet<string>;

  constructor(root: string, ignorePatterns: string[]) {
    this.root = root;
    this.virtual = new Set(virtualFolders(root).filter((rel) => rel !== ""));
    this.patterns = [...ignorePatterns];
    this.global = ignore().add(ALWAYS_IGNORED).add(ignorePatterns);
    this.globalByName = namesOnly([...ALWAYS_IGNORED, ...ignorePatterns]);
  }

  /** The project's ignorePatterns now in force. */
  get ignorePatterns(): readonly string[] {
    return this.patterns;
  }

  /** Takes new ignorePatterns (the project's config changed); false when they are the same. */
  setPatterns(ignorePatterns: readonly string[]): boolean {
    if (ignorePatterns.length === this.patterns.length && ignorePatterns.every((p, i) => p === this.patterns[i])) return false;
    this.patterns = [...ignorePatterns];
    this.global = ignore().add(ALWAYS_IGNORED).add(this.patterns);
    this.globalByName = namesOnly([...ALWAYS_IGNORED, ...this.patterns]);
    this.chains.clear();
    return true;
  }

  /** Forgets cached .gitignore files (all, or one folder's) after they changed on disk. */
  invalidate(dir?: string): void {
    if (dir === undefined) this.perDir.clear();
    else this.perDir.delete(dir);
    this.chains.clear();
  }

  /**
   * A walker that has just listed `dir` tells whether a .gitignore was among the names, so folders
   * without one are not probed on disk (a failed read per folder was a tenth of a 12K-file walk).
   */
  noteListing(dir: string, hasGitignore: boolean): void {
    const known = this.perDir.get(dir);
    if (known === undefined) {
      if (!hasGitignore) this.perDir.set(dir, null);
      return;
    }
    // The listing disagrees with the cache: the folder was replaced (removed and made again, moved in)
    // with or without a .gitignore of its own. Kept, "none" would let its ignored files (secrets) in.
    if ((known === null) === hasGitignore) {
      this.perDir.delete(dir);
      this.chains.clear();
      if (!hasGitignore) this.perDir.set(dir, null);
    }
  }

  private chainFor(dir: string): DirRules[] {
    let chain = this.chains.get(dir);
    if (chain) return chain;
    const slash = dir.lastIndexOf("/");
    const parent = dir === "" ? null : this.chainFor(slash === -1 ? "" : dir.slice(0, slash));
    const own = this.rulesFor(dir);
    chain = parent ? (own ? [...parent, own] : parent) : own ? [own] : [];
    this.chains.set(dir, chain);
    return chain;
  }

  private rulesFor(dir: string): DirRules | null {
    let cached = this.perDir.get(dir);
    if (cached !== undefined) return cached;
    let text: string | null = null;
    try {
      text = fs.readFileSync(path.join(this.root, dir, ".gitignore"), "utf8");
    } catch {
      // No .gitignore here (or unreadable): nothing extra to ignore.
    }
    cached = text === null ? null : { base: dir, rules: ownPathMatcher(ignore().add(text)), byName: namesOnly(text.split(/\r?\n/)) };
    this.perDir.set(dir, cached);
    return cached;
  }

  /**
   * `rel` is `/`-separated and relative to the root. Judges every folder on the way down as the walker
   * does, so a path inside an ignored folder is ignored even when asked about directly, and the watcher
   * gets the walk's answer for a single path.
   */
  isIgnored(rel: string, isDir: boolean): boolean {
    if (rel === "" || rel === ".") return false;
    let parent = "";
    let start = 0;
    for (let slash = rel.indexOf("/"); slash !== -1; slash = rel.indexOf("/", start)) {
      if (this.isIgnoredChild(parent, rel.slice(start, slash), true)) return true;
      parent = rel.slice(0, slash);
      start = slash + 1;
    }
    return this.isIgnoredChild(parent, rel.slice(start), isDir);
  }

  /** The walker's check: the parent is known to be kept, so only this entry's own match matters. */
  isIgnoredChild(parentRel: string, name: string, isDir: boolean): boolean {
    const rel = parentRel ? `${parentRel}/${name}` : name;
    if (isDir && this.virtual.size !== 0 && this.virtual.has(rel)) return true;
    const probe = isDir ? `${rel}/` : rel;
    const nameProbe = isDir ? `${name}/` : name;
    if (this.global.ignores(this.globalByName ? nameProbe : probe)) return true;
    const chain = this.chainFor(parentRel);
    // Deepest .gitignore first: the first with a matching rule decides, a negation as much as an ignore.
    for (let i = chain.length - 1; i >= 0; i--) {
      const dr = chain[i] as DirRules;
      const sub = dr.byName ? nameProbe : dr.base ? probe.slice(dr.base.length + 1) : probe;
      const verdict = dr.rules.test(sub, true, "regex");
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
