// The project's git history as analytics see it: one `git log --numstat` import per project, then only
// the commits after the last imported one. Churn, authors and co-changes come from these records. A
// folder outside git (or a machine without git) simply has no history.
import fs from "node:fs";
import { openProjectGit, parseNumstat, safeSimpleGit } from "../git/project-git.js";
import { bumpHistoryVersion } from "./events-store.js";
import { parseJsonValues, shadowOp, type ShadowScope } from "./shadow-scope.js";

/** Most recent commits imported on the first run (a deep history adds little to a 90-day analysis). */
export const MAX_IMPORTED_COMMITS = 20_000;
/** Commits touching more files than this are formatting sweeps or vendoring: ignored for co-change. */
export const BULK_COMMIT_FILES = 30;

export interface CommitFile {
  path: string;
  added: number;
  removed: number;
}

export interface ImportedCommit {
  hash: string;
  author: string;
  email: string;
  /** Author time, ms. */
  at: number;
  subject: string;
  files: CommitFile[];
  /** More than BULK_COMMIT_FILES files: counted for churn, not for co-change. */
  bulk: boolean;
}

export type GitSyncResult =
  | { status: "no-git"; message: string }
  | { status: "up-to-date"; head: string }
  | { status: "imported"; head: string; imported: number; full: boolean };

const RECORD = "\x1e";
const FIELD = "\x1f";
const LOG_FORMAT = `--format=${RECORD}%H${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%s`;

/** `git log` output in LOG_FORMAT with --numstat, newest first. */
export function parseGitLog(text: string): ImportedCommit[] {
  const commits: ImportedCommit[] = [];
  for (const record of text.split(RECORD)) {
    if (!record.trim()) continue;
    const newline = record.indexOf("\n");
    const header = (newline < 0 ? record : record.slice(0, newline)).split(FIELD);
    if (header.length < 5) continue;
    const [hash, author, email, seconds, ...subject] = header;
    const files = parseNumstat(newline < 0 ? "" : record.slice(newline + 1)).map((f) => ({ path: f.path, added: f.insertions, removed: f.deletions }));
    if (!files.length) continue; // merges (no diff by default) and empty commits
    commits.push({ hash: hash!, author: author!, email: email!, at: Number(seconds) * 1000, subject: subject.join(FIELD), files, bulk: files.length > BULK_COMMIT_FILES });
  }
  return commits;
}

async function readState(scope: ShadowScope): Promise<Record<string, string>> {
  return shadowOp(scope, "reading the git import state", () => scope.redis.hgetall(scope.keys.git));
}

const inFlight = new Map<string, Promise<GitSyncResult>>();

/**
 * Imports what is new since the last import. When HEAD no longer descends from the last imported commit
 * (a rebase, another branch), the history is imported again from scratch. One import per project runs
 * at a time; concurrent callers share it.
 */
export function syncGitHistory(scope: ShadowScope): Promise<GitSyncResult> {
  const running = inFlight.get(scope.project);
  if (running) return running;
  const job = runSync(scope).finally(() => inFlight.delete(scope.project));
  inFlight.set(scope.project, job);
  return job;
}

async function runSync(scope: ShadowScope): Promise<GitSyncResult> {
  const opened = await openProjectGit(scope.root);
  if (!opened.ok) return { status: "no-git", message: opened.message };
  const git = safeSimpleGit(scope.root);
  let head: string;
  try {
    head = (await git.raw(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])).trim();
  } catch {
    return { status: "no-git", message: "the repository has no commits yet" };
  }
  const state = await readState(scope);
  const last = state.last_commit;
  if (last === head) return { status: "up-to-date", head };
  let full = !last;
  if (last) {
    try {
      await git.raw(["merge-base", "--is-ancestor", last, head]);
    } catch {
      full = true;
    }
  }
  const range = full ? [head] : [`${last}..${head}`];
  const text = await git.raw(["--no-pager", "log", "--numstat", "--no-renames", "--no-color", "--no-ext-diff", "--relative", LOG_FORMAT, "-n", String(MAX_IMPORTED_COMMITS), ...range, "--", "."]);
  const commits = parseGitLog(text);
  await shadowOp(scope, "storing git history", async () => {
    const multi = scope.redis.multi();
    if (full) multi.unlink(scope.keys.commits);
    for (let i = 0; i < commits.length; i += 500) {
      multi.zadd(scope.keys.commits, ...commits.slice(i, i + 500).flatMap((c) => [c.at, JSON.stringify(c)]));
    }
    multi.zremrangebyrank(scope.keys.commits, 0, -(MAX_IMPORTED_COMMITS + 1));
    multi.hset(scope.keys.git, { last_commit: head, imported_at: String(scope.now()) });
    const results = await multi.exec();
    for (const [err] of results ?? []) if (err) throw err;
  });
  await bumpHistoryVersion(scope);
  return { status: "imported", head, imported: commits.length, full };
}

/** Imported commits with `from <= at <= to`, oldest first. */
export async function readCommits(scope: ShadowScope, from = 0, to = Number.MAX_SAFE_INTEGER): Promise<ImportedCommit[]> {
  const raw = await shadowOp(scope, "reading git history", () => scope.redis.zrangebyscore(scope.keys.commits, from, to));
  return parseJsonValues<ImportedCommit>(raw);
}

/** The configured identity of the person at this checkout (my_stats' "me"); null without git or config. */
/**
 * The commits a shallow clone's history stops at (`git clone --depth`): git shows each as adding its
 * files whole, as if they were created there. Empty for a full clone or no git.
 */
export async function shallowBoundaries(root: string): Promise<Set<string>> {
  const git = safeSimpleGit(root);
  try {
    if ((await git.raw(["rev-parse", "--is-shallow-repository"])).trim() !== "true") return new Set();
    const file = (await git.raw(["rev-parse", "--path-format=absolute", "--git-path", "shallow"])).trim();
    return new Set(fs.readFileSync(file, "utf8").split("\n").map((l) => l.trim()).filter(Boolean));
  } catch {
    return new Set();
  }
}

export async function currentGitUser(root: string): Promise<{ name: string | null; email: string | null }> {
  const git = safeSimpleGit(root);
  const read = async (key: string) => {
    try {
      return (await git.raw(["config", "--get", key])).trim() || null;
    } catch {
      return null;
    }
  };
  return { name: await read("user.name"), email: await read("user.email") };
}
