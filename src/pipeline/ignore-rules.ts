// What the index leaves out: every .gitignore (nested ones apply to their own folder, as git does),
// the configured ignorePatterns, and ipuaro's own always-ignored folders. The scanner and the watcher
// share one instance so they never disagree about a path.
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** Never indexed whatever the config says: VCS internals and ipuaro's own state. */
const ALWAYS_IGNORED = [".git", ".hg", ".svn", ".ipuaro"];

interface DirRules {
  /** Folder of the .gitignore, relative to the root ("" for the root). */
  base: string;
  rules: Ignore;
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

  constructor(root: string, ignorePatterns: string[]) {
    this.root = root;
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
    cached = null;
    try {
      const text = fs.readFileSync(path.join(this.root, dir, ".gitignore"), "utf8");
      cached = { base: dir, rules: ignore().add(text), byName: namesOnly(text.split(/\r?\n/)) };
    } catch {
      // No .gitignore here (or unreadable): nothing extra to ignore.
    }
    this.perDir.set(dir, cached);
    return cached;
  }

  /**
   * `rel` is `/`-separated and relative to the root. Checks the path against the global patterns and the
   * .gitignore of every ancestor folder; callers walking top-down may pass `parentsChecked` to skip the
   * ancestors already known not to be ignored.
   */
  isIgnored(rel: string, isDir: boolean): boolean {
    if (rel === "" || rel === ".") return false;
    const probe = isDir ? `${rel}/` : rel;
    if (this.global.ignores(probe)) return true;
    const parts = rel.split("/");
    // Ancestors are checked too: a file inside an ignored folder is ignored even when asked about directly.
    for (let i = 1; i < parts.length; i++) {
      const ancestor = parts.slice(0, i).join("/");
      if (this.global.ignores(`${ancestor}/`)) return true;
    }
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const dr = this.rulesFor(dir);
      if (!dr) continue;
      const sub = parts.slice(i).join("/");
      if (dr.rules.ignores(isDir ? `${sub}/` : sub)) return true;
      // An ignored ancestor folder below this .gitignore ignores everything under it.
      for (let j = i + 1; j < parts.length; j++) {
        if (dr.rules.ignores(`${parts.slice(i, j).join("/")}/`)) return true;
      }
    }
    return false;
  }

  /** Fast check for the walker: the parent is known to be kept, so only this entry's own name matters. */
  isIgnoredChild(parentRel: string, name: string, isDir: boolean): boolean {
    const rel = parentRel ? `${parentRel}/${name}` : name;
    const probe = isDir ? `${rel}/` : rel;
    const nameProbe = isDir ? `${name}/` : name;
    if (this.global.ignores(this.globalByName ? nameProbe : probe)) return true;
    for (const dr of this.chainFor(parentRel)) {
      const sub = dr.byName ? nameProbe : dr.base ? probe.slice(dr.base.length + 1) : probe;
      if (dr.rules.ignores(sub)) return true;
    }
    return false;
  }
}
