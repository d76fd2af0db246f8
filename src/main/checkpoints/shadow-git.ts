// checkpoints.mode "shadow-git": a git directory of ipuaro's own under
// `$IPUARO_HOME/file-history/shadow/<sha256(project)[0:16]>` with the project as its work tree takes a
// snapshot of every file at each turn (`add -A`, `write-tree`, `commit-tree`), honouring the project's
// .gitignore files, so any change a shell command made is restorable. The project's own repository is
// never touched: every call names --git-dir and --work-tree, uses a per-session index file, and runs
// with the same hardened settings as ipuaro's other git calls.
import { execFile } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { SAFE_GIT_CONFIG, SAFE_GIT_ENV } from "../git/project-git.js";
import { fileHistoryDir, sha256 } from "./blob-store.js";

/** Snapshots are given up (the session falls back to tools mode) past this many files… */
export const SHADOW_MAX_FILES = 20_000;
/** …or when one snapshot takes longer than this. */
export const SHADOW_MAX_SNAPSHOT_MS = 3_000;

const SHADOW_CONFIG = [
  ...SAFE_GIT_CONFIG,
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.hooksPath=/dev/null",
  "gc.auto=0",
  "user.name=ipuaro",
  "user.email=ipuaro@localhost",
  "init.defaultBranch=main",
];
const MAX_BUFFER = 512 * 1024 * 1024;
const EMPTY_OID = /^0+$/;

export class ShadowGitError extends Error {
  override readonly name = "ShadowGitError";
}

export interface ShadowChange {
  path: string;
  /** The side of `from`: null when the file did not exist there. */
  from: { mode: number; oid: string } | null;
  to: { mode: number; oid: string } | null;
}

export interface ShadowGitOptions {
  root: string;
  home: string;
  sessionId: string;
  /** project.ignorePatterns, left out like the index leaves them out. */
  ignorePatterns: readonly string[];
}

function gitEnv(indexFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.toUpperCase().startsWith("GIT_")) env[k] = v;
  return { ...env, ...SAFE_GIT_ENV, GIT_INDEX_FILE: indexFile, GIT_CONFIG_NOSYSTEM: "1" };
}

/** One git call on a shadow git dir, with the hardened settings; `workTree` only for calls that read the project. */
export function runShadowGit(gitDir: string, args: string[], opts: { cwd: string; indexFile?: string; workTree?: string }): Promise<Buffer> {
  const full = [...SHADOW_CONFIG.flatMap((c) => ["-c", c]), `--git-dir=${gitDir}`, ...(opts.workTree ? [`--work-tree=${opts.workTree}`] : []), ...args];
  const env = gitEnv(opts.indexFile ?? path.join(gitDir, "ipuaro-index", "none"));
  return new Promise((resolve, reject) => {
    execFile("git", full, { cwd: opts.cwd, env, encoding: "buffer", maxBuffer: MAX_BUFFER }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const text = code === "ENOENT" ? "git is not installed (not on PATH)" : stderr.toString("utf8").trim() || error.message;
        reject(new ShadowGitError(`shadow git ${args[0]}: ${text}`));
      } else resolve(stdout);
    });
  });
}

/** The ref that keeps a session's snapshots reachable, and the name of its index file. */
export function shadowSessionName(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9._-]/g, "_");
}

export const SHADOW_SESSION_REFS = "refs/ipuaro/sessions/";

export function shadowGitDir(home: string, realRoot: string): string {
  return path.join(fileHistoryDir(home), "shadow", sha256(Buffer.from(realRoot, "utf8")).slice(0, 16));
}

export class ShadowGit {
  readonly root: string;
  readonly gitDir: string;
  private readonly indexFile: string;
  private readonly ref: string;

  constructor(private readonly opts: ShadowGitOptions) {
    this.root = fs.realpathSync(opts.root);
    this.gitDir = shadowGitDir(opts.home, this.root);
    this.indexFile = path.join(this.gitDir, "ipuaro-index", shadowSessionName(opts.sessionId));
    this.ref = `${SHADOW_SESSION_REFS}${shadowSessionName(opts.sessionId)}`;
  }

  private run(args: string[], opts: { workTree?: boolean } = {}): Promise<Buffer> {
    return runShadowGit(this.gitDir, args, { cwd: this.root, indexFile: this.indexFile, ...(opts.workTree === false ? {} : { workTree: this.root }) });
  }

  private async text(args: string[], opts?: { workTree?: boolean }): Promise<string> {
    return (await this.run(args, opts)).toString("utf8").trim();
  }

  /** Creates the git dir on first use and refreshes what it leaves out. */
  async init(): Promise<void> {
    if (!fs.existsSync(path.join(this.gitDir, "HEAD"))) {
      await fsp.mkdir(this.gitDir, { recursive: true });
      await this.run(["init", "-q", "--bare"], { workTree: false });
    }
    await fsp.mkdir(path.dirname(this.indexFile), { recursive: true });
    const exclude = [".ipuaro/", ...this.opts.ignorePatterns];
    // The project's own repository-local excludes apply too (its .gitignore files are read by git itself).
    try {
      exclude.push(fs.readFileSync(path.join(this.root, ".git", "info", "exclude"), "utf8"));
    } catch {
      // Not a repository top, or no excludes.
    }
    const home = path.relative(this.root, fs.existsSync(this.opts.home) ? fs.realpathSync(this.opts.home) : this.opts.home);
    if (home && !home.startsWith("..") && !path.isAbsolute(home)) exclude.push(`/${home.split(path.sep).join("/")}/`);
    await fsp.mkdir(path.join(this.gitDir, "info"), { recursive: true });
    await fsp.writeFile(path.join(this.gitDir, "info", "exclude"), `${exclude.join("\n")}\n`);
  }

  /** The work tree as a tree object (the session's index file is brought up to date first). */
  async currentTree(): Promise<string> {
    await this.run(["add", "-A", "--ignore-errors", "--", "."]);
    return this.text(["write-tree"]);
  }

  /** Snapshots the work tree as a commit reachable from this session's ref (so git gc keeps it). */
  async snapshot(message: string): Promise<string> {
    const tree = await this.currentTree();
    let parent: string | null = null;
    try {
      parent = await this.text(["rev-parse", "-q", "--verify", `${this.ref}^{commit}`], { workTree: false });
    } catch {
      parent = null;
    }
    const commit = await this.text(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], { workTree: false });
    await this.run(["update-ref", this.ref, commit], { workTree: false });
    return commit;
  }

  /** Files that differ between two commits or trees. */
  async changes(from: string, to: string): Promise<ShadowChange[]> {
    const raw = await this.run(["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", from, to], { workTree: false });
    const parts = raw.toString("utf8").split("\0");
    const out: ShadowChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i]!;
      const file = parts[i + 1]!;
      const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) [A-Z]\d*$/.exec(meta);
      if (!m) continue;
      const side = (mode: string, oid: string) => (EMPTY_OID.test(oid) ? null : { mode: parseInt(mode, 8), oid });
      out.push({ path: file, from: side(m[1]!, m[3]!), to: side(m[2]!, m[4]!) });
    }
    return out;
  }

  /** Paths a commit or tree holds. */
  async paths(treeish: string): Promise<Set<string>> {
    const raw = await this.run(["ls-tree", "-r", "-z", "--name-only", treeish], { workTree: false });
    return new Set(raw.toString("utf8").split("\0").filter(Boolean));
  }

  async readBlob(oid: string): Promise<Buffer | null> {
    try {
      return await this.run(["cat-file", "blob", oid], { workTree: false });
    } catch {
      return null;
    }
  }
}
