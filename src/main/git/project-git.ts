// ipuaro's own git calls, through simple-git with a fixed safe setup: no pager, no fsmonitor, no
// external diff or textconv programs, no optional locks, no colour, paths unquoted. Repository data
// (paths, messages) only ever travels as separate argv entries after `--` or `-m`, never through a
// shell, and pathspecs are literal so `*` in a file name cannot widen what is staged.
import fs from "node:fs";
import path from "node:path";
import { simpleGit, type SimpleGit, type StatusResult } from "simple-git";

/** `-c` settings of every call (notes-dependencies gotcha 31 for quotePath). */
export const SAFE_GIT_CONFIG = ["core.quotePath=false", "core.fsmonitor=false", "core.pager=cat", "color.ui=false"] as const;
/** Environment set for every call (simple-git strips all other GIT_* variables). */
export const SAFE_GIT_ENV = { GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" } as const;
const EMPTY_TREE = {
  sha1: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  sha256: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
} as const;
// Variables simple-git refuses or that could make git run a program of their choosing.
const STRIPPED_ENV = new Set(["editor", "visual", "pager", "prefix", "ssh_askpass", "less", "lessopen", "lessclose"]);

export class GitCommandError extends Error {
  override readonly name = "GitCommandError";
}

export interface GitStagedChange {
  path: string;
  /** `M`odified, `A`dded, `D`eleted, `R`enamed, `C`opied, `T`ype changed. */
  code: string;
  /** The old path of a rename or copy. */
  from?: string;
}

export interface GitStatusSummary {
  branch: string | null;
  detached: boolean;
  tracking: string | null;
  ahead: number;
  behind: number;
  /** No commit yet on the current branch. */
  unborn: boolean;
  staged: GitStagedChange[];
  /** Changed in the working tree, not staged. */
  modified: string[];
  /** Deleted in the working tree, not staged. */
  deleted: string[];
  untracked: string[];
  conflicted: string[];
  /** A merge, rebase, cherry-pick or revert stopped half-way (for conflicts or an edit). */
  operation: GitOperation | null;
}

export type GitOperation = "merge" | "rebase" | "cherry-pick" | "revert";

export interface GitFileStat {
  path: string;
  insertions: number;
  deletions: number;
  binary: boolean;
}

export interface GitDiffResult {
  /** Unified diff of the working tree against HEAD (staged and unstaged together). */
  diff: string;
  files: GitFileStat[];
  /** Untracked files under the path, which a diff against HEAD does not show. */
  untracked: string[];
  base: "HEAD" | "empty tree";
}

export interface GitCommitResult {
  hash: string;
  branch: string | null;
  subject: string;
  files: GitFileStat[];
}

export interface ProjectGit {
  /** Absolute real path of the repository's top level. */
  readonly top: string;
  /** The project root's path inside the repository (`""` when it is the top level). */
  readonly prefix: string;
  status(): Promise<GitStatusSummary>;
  diff(pathspec?: string): Promise<GitDiffResult>;
  /** Stages `files` (project-relative) and commits exactly them, or commits what is staged when none are given. Hooks run. */
  commit(message: string, files?: readonly string[]): Promise<GitCommitResult>;
}

export type OpenedProjectGit = { ok: true; git: ProjectGit } | { ok: false; reason: "not-a-repo" | "no-git"; message: string };

function gitEnvironment(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    const lower = key.toLowerCase();
    if (value === undefined || lower.startsWith("git") || STRIPPED_ENV.has(lower)) continue;
    env[key] = value;
  }
  return { ...env, ...SAFE_GIT_ENV };
}

/** The configured simple-git instance for a directory (exported for tests and other read-only callers). */
export function safeSimpleGit(baseDir: string, signal?: AbortSignal): SimpleGit {
  return simpleGit({
    baseDir,
    config: [...SAFE_GIT_CONFIG],
    allowEnvironment: Object.keys(SAFE_GIT_ENV),
    // Only our own fixed `-c` values above need these; nothing from the repository reaches `-c`.
    unsafe: { allowUnsafeFsMonitor: true, allowUnsafePager: true },
    // simple-git treats a failing git that printed nothing on stderr as success ("nothing to commit"
    // goes to stdout, `rev-parse --verify --quiet` prints nothing): any non-zero exit is an error here.
    errors(error, result) {
      if (error) return error;
      if (result.exitCode === 0) return undefined;
      const text = Buffer.concat([...result.stdErr, ...result.stdOut]).toString("utf8").trim();
      return Buffer.from(text || `git exited with code ${result.exitCode}`);
    },
    ...(signal ? { abort: signal } : {}),
  }).env(gitEnvironment());
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).trim();
}

function literal(pathspec: string): string {
  return `:(literal)${pathspec}`;
}

/** `--numstat` lines: `3\t1\tpath` (binary files have `-\t-`). */
export function parseNumstat(text: string): GitFileStat[] {
  const files: GitFileStat[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(line);
    if (!match) continue;
    const binary = match[1] === "-";
    files.push({ path: match[3]!, insertions: binary ? 0 : Number(match[1]), deletions: binary ? 0 : Number(match[2]), binary });
  }
  return files;
}

class RepositoryGit implements ProjectGit {
  constructor(
    private readonly git: SimpleGit,
    readonly top: string,
    readonly prefix: string,
  ) {}

  /** A repository path as a project-relative one; null when it lies outside the project folder. */
  private toProjectPath(repoPath: string): string | null {
    if (this.prefix === "") return repoPath;
    return repoPath.startsWith(`${this.prefix}/`) ? repoPath.slice(this.prefix.length + 1) : null;
  }

  private async run(args: string[]): Promise<string> {
    try {
      return await this.git.raw(["--no-pager", ...args]);
    } catch (err) {
      if ((err as Error)?.name === "AbortError") throw err;
      throw new GitCommandError(errorText(err) || `git ${args[0]} failed`);
    }
  }

  private async hasHead(): Promise<boolean> {
    try {
      await this.git.raw(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
      return true;
    } catch {
      return false;
    }
  }

  /** The operation in progress, from the files git keeps in the (work tree's) git folder meanwhile. */
  private async operation(): Promise<GitOperation | null> {
    let gitDir: string;
    try {
      gitDir = (await this.git.raw(["rev-parse", "--absolute-git-dir"])).trim();
    } catch {
      return null;
    }
    const has = (name: string) => fs.existsSync(path.join(gitDir, name));
    if (has("rebase-merge") || has("rebase-apply")) return "rebase";
    if (has("MERGE_HEAD")) return "merge";
    if (has("CHERRY_PICK_HEAD")) return "cherry-pick";
    if (has("REVERT_HEAD")) return "revert";
    return null;
  }

  async status(): Promise<GitStatusSummary> {
    let raw: StatusResult;
    try {
      raw = await this.git.status();
    } catch (err) {
      throw new GitCommandError(errorText(err));
    }
    const summary: GitStatusSummary = {
      branch: raw.current,
      detached: raw.detached,
      tracking: raw.tracking,
      ahead: raw.ahead,
      behind: raw.behind,
      unborn: !(await this.hasHead()),
      staged: [],
      modified: [],
      deleted: [],
      untracked: [],
      conflicted: [],
      operation: await this.operation(),
    };
    for (const file of raw.files) {
      const p = this.toProjectPath(file.path);
      if (p === null) continue;
      const { index, working_dir: work } = file;
      if (index === "?" || work === "?") {
        summary.untracked.push(p);
        continue;
      }
      if (index === "U" || work === "U" || (index === "A" && work === "A") || (index === "D" && work === "D")) {
        summary.conflicted.push(p);
        continue;
      }
      if ("MADRCT".includes(index) && index.trim() !== "") {
        const from = file.from ? (this.toProjectPath(file.from) ?? file.from) : undefined;
        summary.staged.push({ path: p, code: index, ...(from && from !== p ? { from } : {}) });
      }
      if (work === "M" || work === "T") summary.modified.push(p);
      else if (work === "D") summary.deleted.push(p);
    }
    return summary;
  }

  private async diffBase(): Promise<{ ref: string; base: GitDiffResult["base"] }> {
    if (await this.hasHead()) return { ref: "HEAD", base: "HEAD" };
    // No commit yet: compare with the empty tree of the repository's hash algorithm.
    const format = (await this.run(["rev-parse", "--show-object-format"]).catch(() => "sha1")).trim();
    return { ref: format === "sha256" ? EMPTY_TREE.sha256 : EMPTY_TREE.sha1, base: "empty tree" };
  }

  async diff(pathspec?: string): Promise<GitDiffResult> {
    const { ref, base } = await this.diffBase();
    const common = ["--no-ext-diff", "--no-textconv", "--no-color", "--relative", ref, "--", pathspec ? literal(pathspec) : "."];
    const [diff, numstat, status] = await Promise.all([this.run(["diff", ...common]), this.run(["diff", "--numstat", ...common]), this.status()]);
    const inside = (p: string) => !pathspec || pathspec === "." || p === pathspec || p.startsWith(`${pathspec.replace(/\/$/, "")}/`);
    return { diff, files: parseNumstat(numstat), untracked: status.untracked.filter(inside), base };
  }

  async commit(message: string, files: readonly string[] = []): Promise<GitCommitResult> {
    const pathspecs = files.map(literal);
    if (pathspecs.length > 0) await this.run(["add", "--all", "--", ...pathspecs]);
    // With paths, `git commit -- paths` commits exactly those (other staged changes stay staged). A
    // merge (or cherry-pick, revert, rebase) in progress allows no partial commit: its commit is the
    // whole index, so the named files are staged and the index is committed.
    const partial = pathspecs.length > 0 && (await this.operation()) === null;
    try {
      await this.run(["commit", "--quiet", "-m", message, ...(partial ? ["--", ...pathspecs] : [])]);
    } catch (err) {
      if (!(err instanceof GitCommandError) || pathspecs.length === 0) throw err;
      throw new GitCommandError(`${err.message}\n(nothing was committed; ${files.join(", ")} ${files.length === 1 ? "is" : "are"} now staged)`);
    }
    const [hash, branch, subject, numstat] = await Promise.all([
      this.run(["rev-parse", "HEAD"]),
      this.run(["symbolic-ref", "--quiet", "--short", "HEAD"]).catch(() => ""),
      this.run(["log", "-1", "--format=%s", "HEAD"]),
      this.run(["show", "--no-ext-diff", "--no-textconv", "--relative", "--format=", "--numstat", "HEAD"]),
    ]);
    return { hash: hash.trim(), branch: branch.trim() || null, subject: subject.trim(), files: parseNumstat(numstat) };
  }
}

/** Opens the repository the project root lies in; a clear failure outside one or without git. */
export async function openProjectGit(root: string, opts: { signal?: AbortSignal } = {}): Promise<OpenedProjectGit> {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return { ok: false, reason: "not-a-repo", message: `the project root ${root} does not exist` };
  }
  const git = safeSimpleGit(realRoot, opts.signal);
  let top: string;
  try {
    top = (await git.raw(["rev-parse", "--show-toplevel"])).trim();
  } catch (err) {
    const text = errorText(err);
    if (/ENOENT|spawn git/i.test(text)) return { ok: false, reason: "no-git", message: "git is not installed (or not on PATH)" };
    return {
      ok: false,
      reason: "not-a-repo",
      message: `the project (${realRoot}) is not inside a git repository, so there is no git status, diff or commit; \`git init\` creates one`,
    };
  }
  if (!top) return { ok: false, reason: "not-a-repo", message: `the project (${realRoot}) is not inside a git work tree` };
  const realTop = fs.realpathSync(top);
  const prefix = path.relative(realTop, realRoot).split(path.sep).join("/");
  return { ok: true, git: new RepositoryGit(git, realTop, prefix) };
}
