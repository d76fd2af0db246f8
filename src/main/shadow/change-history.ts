// Everything that happened to the project's files, in one model: agent edits, human changes seen by the
// watcher and git commits become FileChanges; errors are blamed on the changes that most likely caused
// them. Every analysis reads this; it is rebuilt only when the history version moves.
//
// One piece of work counts once: a commit made at this checkout that includes files edited here since
// their previous commit is the same work as those edits, so its change of such a file is not counted
// again; the commit is written onto the latest of those edits instead (see `sameWork`).
import type { EditEvent, ErrorEvent, ErrorKind, ExternalChangeEvent, RevertEvent, ShadowEvent } from "./event-types.js";
import { historyVersion, readEvents } from "./events-store.js";
import { currentGitUser, readCommits, type ImportedCommit } from "./git-history.js";
import type { ShadowScope } from "./shadow-scope.js";

/** An error is blamed on the session's edits made this long before it. */
export const ERROR_BLAME_WINDOW_MS = 30 * 60_000;
/** A fix commit blames earlier commits of the same files made this long before it. */
export const FIX_LOOKBACK_MS = 14 * 24 * 3600_000;
/** Commit subjects that say an earlier change broke something. */
export const FIX_SUBJECT = /\b(fix(e[sd])?|bug|broke[n]?|revert(s|ed)?|hotfix|regression)\b/i;

export type ChangeSource = "agent" | "human" | "git";

/** A revert commit: `git revert`'s `Revert "<subject>"`, or a hand-written "Revert …" / "revert: …". */
export const REVERT_COMMIT_SUBJECT = /^revert\b/i;

export interface BlamedError {
  at: number;
  file: string | null;
  line: number | null;
  /** fix_commit: a later commit said it fixed something; reverted: a later commit reverted this one. */
  kind: ErrorKind | "fix_commit" | "reverted";
  message: string;
}

export interface FileChange {
  file: string;
  at: number;
  source: ChangeSource;
  session: string | null;
  /** Git author, "ipuaro" for agent edits, null for changes seen by the watcher (until a local commit names them). */
  author: string | null;
  added: number;
  removed: number;
  tool?: string;
  /**
   * The commit of this change. On an agent or watched human edit: the local commit that included it
   * (that commit's change of the file is this edit, not another change).
   */
  commit?: string;
  subject?: string;
  /** A human change correcting an agent edit of the last hour. */
  humanFix?: boolean;
  /** Part of a commit touching more than BULK_COMMIT_FILES files (a sweep). */
  bulk?: boolean;
  /** Errors this change is blamed for. */
  errors: BlamedError[];
}

export interface ShadowHistory {
  version: string;
  events: ShadowEvent[];
  commits: ImportedCommit[];
  /**
   * Oldest first. Sweeps (commits touching more than BULK_COMMIT_FILES files: reformatting, vendoring,
   * generated code) are not among them: they say nothing about a file's health, so only file_history
   * shows them (`sweeps`).
   */
  changes: FileChange[];
  byFile: Map<string, FileChange[]>;
  sweeps: Map<string, FileChange[]>;
  errors: ErrorEvent[];
  /** Error events whose location is the file. */
  errorsIn: Map<string, ErrorEvent[]>;
  reverts: Map<string, RevertEvent[]>;
  /** changed file → file that then failed → times. */
  causesBugsIn: Map<string, Map<string, number>>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function bump(map: Map<string, Map<string, number>>, from: string, to: string): void {
  let inner = map.get(from);
  if (!inner) map.set(from, (inner = new Map()));
  inner.set(to, (inner.get(to) ?? 0) + 1);
}

function agentChange(e: EditEvent): FileChange {
  return { file: e.file, at: e.at, source: "agent", session: e.session, author: "ipuaro", added: e.added, removed: e.removed, tool: e.tool, errors: [] };
}

function humanChange(e: ExternalChangeEvent): FileChange {
  return { file: e.file, at: e.at, source: "human", session: null, author: null, added: 0, removed: 0, humanFix: e.humanFix, errors: [] };
}

function gitChanges(c: ImportedCommit): FileChange[] {
  return c.files.map((f) => ({
    file: f.path,
    at: c.at,
    source: "git",
    session: null,
    author: c.author,
    added: f.added,
    removed: f.removed,
    commit: c.hash,
    subject: c.subject,
    errors: [],
    ...(c.bulk ? { bulk: true } : {}),
  }));
}

function blamedFrom(e: ErrorEvent): BlamedError {
  return { at: e.at, file: e.file, line: e.line, kind: e.kind, message: e.message };
}

/** The latest change per file among `changes` (oldest first) made in (from, to]. */
function latestPerFile(changes: readonly FileChange[], from: number, to: number): Map<string, FileChange> {
  const out = new Map<string, FileChange>();
  for (const c of changes) if (c.at > from && c.at <= to) out.set(c.file, c);
  return out;
}

/**
 * An error is blamed on the agent's edits of the same session in the window before it: on the edit of
 * the failing file itself when there is one, else on every file edited (those broke the failing one).
 * Without such edits, the failing file's own latest change in the window takes it.
 */
function blameErrors(h: ShadowHistory, agentBySession: Map<string | null, FileChange[]>, allAgent: FileChange[]): void {
  for (const e of h.errors) {
    const pool = e.session ? (agentBySession.get(e.session) ?? []) : allAgent;
    const candidates = latestPerFile(pool, e.at - ERROR_BLAME_WINDOW_MS, e.at);
    const own = e.file ? candidates.get(e.file) : undefined;
    if (own) {
      own.errors.push(blamedFrom(e));
      continue;
    }
    if (candidates.size) {
      for (const c of candidates.values()) {
        c.errors.push(blamedFrom(e));
        if (e.file) bump(h.causesBugsIn, c.file, e.file);
      }
      continue;
    }
    if (!e.file) continue;
    const fallback = latestPerFile(h.byFile.get(e.file) ?? [], e.at - ERROR_BLAME_WINDOW_MS, e.at).get(e.file);
    fallback?.errors.push(blamedFrom(e));
  }
}

/** `git revert`'s subject: `Revert "<subject of the reverted commit>"`. */
const REVERT_SUBJECT = /^Revert "(.+)"$/;

/**
 * The commit a `git revert` commit undid: the latest earlier commit with the quoted subject that touched
 * one of the revert's files. Null when it is not among the imported commits (then the revert is treated
 * like any fix commit).
 */
function revertedCommit(h: ShadowHistory, revert: ImportedCommit): ImportedCommit | null {
  const subject = REVERT_SUBJECT.exec(revert.subject)?.[1];
  if (!subject) return null;
  const files = new Set(revert.files.map((f) => f.path));
  for (let i = h.commits.length - 1; i >= 0; i--) {
    const c = h.commits[i]!;
    if (c.hash !== revert.hash && c.at <= revert.at && c.subject === subject && c.files.some((f) => files.has(f.path))) return c;
  }
  return null;
}

/** Whether a change is a revert commit's (those undo a change: they are not blamed for later fixes). */
export function isRevertChange(c: FileChange): boolean {
  return c.commit !== undefined && c.subject !== undefined && REVERT_COMMIT_SUBJECT.test(c.subject);
}

/**
 * A fix commit blames the latest earlier change of each file it had to touch (its other files were
 * broken by those) — leaving out reverts and the changes they had already undone: neither is in the code
 * any more to need the fix. A revert blames exactly the commit it reverted, however old.
 */
function blameFixCommits(h: ShadowHistory, gitByFile: Map<string, FileChange[]>): void {
  /** Reverted commit → when it was reverted. */
  const revertedAt = new Map<string, number>();
  for (const c of h.commits) {
    if (c.bulk || !FIX_SUBJECT.test(c.subject)) continue;
    const reverted = revertedCommit(h, c);
    if (reverted && !revertedAt.has(reverted.hash)) revertedAt.set(reverted.hash, c.at);
    const undone = (g: FileChange) => g.commit !== undefined && (revertedAt.get(g.commit) ?? Infinity) <= c.at;
    const blamed = new Map<string, FileChange>();
    for (const f of c.files) {
      const earlier = reverted
        ? (gitByFile.get(f.path) ?? []).find((g) => g.commit === reverted.hash)
        : (gitByFile.get(f.path) ?? []).filter((g) => g.commit !== c.hash && g.at < c.at && g.at >= c.at - FIX_LOOKBACK_MS && !isRevertChange(g) && !undone(g)).at(-1);
      if (earlier) blamed.set(f.path, earlier);
    }
    const error: Omit<BlamedError, "file"> = reverted
      ? { at: c.at, line: null, kind: "reverted", message: `reverted by ${c.hash.slice(0, 8)} "${c.subject}"` }
      : { at: c.at, line: null, kind: "fix_commit", message: `fixed by ${c.hash.slice(0, 8)} "${c.subject}"` };
    for (const change of blamed.values()) {
      change.errors.push({ ...error, file: change.file });
      for (const other of c.files) if (other.path !== change.file && !blamed.has(other.path)) bump(h.causesBugsIn, change.file, other.path);
    }
  }
}

/**
 * The edit a commit's change of a file repeats, or null: the latest agent edit or watched human edit of
 * the file since the file's previous commit, when the commit was made here (its author is the local git
 * user; any author when that is unknown). A teammate's pulled commit never holds this checkout's edits.
 */
function sameWork(edits: FileChange[] | undefined, since: number, commit: ImportedCommit, localEmail: string | null): FileChange | null {
  if (!edits || (localEmail !== null && commit.email.toLowerCase() !== localEmail)) return null;
  // Binary search for the last edit at or before the commit (a file may have thousands of edits).
  let lo = 0;
  let hi = edits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edits[mid]!.at <= commit.at) lo = mid + 1;
    else hi = mid;
  }
  const latest = edits[lo - 1];
  return latest && latest.at > since && latest.commit === undefined ? latest : null;
}

/** `localEmail`: the git user.email of this checkout (which commits can hold its recorded edits); null = unknown. */
export function buildHistory(version: string, events: ShadowEvent[], commits: ImportedCommit[], localEmail: string | null = null): ShadowHistory {
  const h: ShadowHistory = { version, events, commits, changes: [], byFile: new Map(), sweeps: new Map(), errors: [], errorsIn: new Map(), reverts: new Map(), causesBugsIn: new Map() };
  const agentBySession = new Map<string | null, FileChange[]>();
  const allAgent: FileChange[] = [];
  /** Agent and watched human edits per file, oldest first: what a local commit may repeat. */
  const editsByFile = new Map<string, FileChange[]>();
  for (const e of events) {
    if (e.type === "edit") {
      const change = agentChange(e);
      h.changes.push(change);
      allAgent.push(change);
      push(agentBySession, e.session, change);
      push(editsByFile, e.file, change);
    } else if (e.type === "external") {
      const change = humanChange(e);
      h.changes.push(change);
      push(editsByFile, e.file, change);
    } else if (e.type === "error") {
      h.errors.push(e);
      if (e.file) push(h.errorsIn, e.file, e);
    } else if (e.type === "revert") push(h.reverts, e.file, e);
  }
  for (const list of editsByFile.values()) list.sort((a, b) => a.at - b.at);
  const email = localEmail?.toLowerCase() ?? null;
  /** Fix commits find the earlier commits of a file here: a commit's own change, or the edit it repeats. */
  const gitByFile = new Map<string, FileChange[]>();
  const lastCommitAt = new Map<string, number>();
  for (const c of commits) {
    for (const change of gitChanges(c)) {
      const since = lastCommitAt.get(change.file) ?? -Infinity;
      lastCommitAt.set(change.file, c.at);
      if (change.bulk) {
        push(h.sweeps, change.file, change);
        continue;
      }
      const edit = sameWork(editsByFile.get(change.file), since, c, email);
      if (edit) {
        Object.assign(edit, { commit: c.hash, subject: c.subject, author: edit.author ?? c.author });
        push(gitByFile, change.file, edit);
        continue;
      }
      h.changes.push(change);
      push(gitByFile, change.file, change);
    }
  }
  h.changes.sort((a, b) => a.at - b.at);
  for (const c of h.changes) push(h.byFile, c.file, c);
  blameErrors(h, agentBySession, allAgent);
  blameFixCommits(h, gitByFile);
  return h;
}

/** Per connection, then per project: two Redis servers may hold projects of the same name. */
const cache = new WeakMap<object, Map<string, ShadowHistory>>();

/** The whole history of the project, rebuilt only when events or git history changed since the last call. */
export async function loadHistory(scope: ShadowScope): Promise<ShadowHistory> {
  const version = await historyVersion(scope);
  let perProject = cache.get(scope.redis);
  if (!perProject) cache.set(scope.redis, (perProject = new Map()));
  const cached = perProject.get(scope.project);
  if (cached && cached.version === version) return cached;
  const [events, commits, me] = await Promise.all([readEvents(scope), readCommits(scope), currentGitUser(scope.root)]);
  const history = buildHistory(version, events, commits, me.email);
  perProject.set(scope.project, history);
  return history;
}

/** Changes of one file within a window, oldest first. */
export function changesOf(h: ShadowHistory, file: string, from = 0, to = Number.MAX_SAFE_INTEGER): FileChange[] {
  return (h.byFile.get(file) ?? []).filter((c) => c.at >= from && c.at <= to);
}

/** Distinct errors blamed on the file's changes within a window (where they showed up does not matter). */
export function errorCountOf(h: ShadowHistory, file: string, from = 0, to = Number.MAX_SAFE_INTEGER): number {
  const keys = new Set<string>();
  for (const c of changesOf(h, file, from, to)) for (const e of c.errors) keys.add(`${e.at}|${e.file}|${e.message}`);
  return keys.size;
}

/**
 * Changes of a file taken back within a window (seed 001's frustration): the agent's edits undone
 * (undo, rewind) and revert commits of the file.
 */
export function revertsOf(h: ShadowHistory, file: string, from = 0, to = Number.MAX_SAFE_INTEGER): { undone: number; reverted: number } {
  const undone = (h.reverts.get(file) ?? []).filter((r) => r.at >= from && r.at <= to).length;
  return { undone, reverted: changesOf(h, file, from, to).filter(isRevertChange).length };
}

/** Error events that pointed at the file within a window (whoever caused them). */
export function errorsLocatedIn(h: ShadowHistory, file: string, from = 0, to = Number.MAX_SAFE_INTEGER): number {
  return (h.errorsIn.get(file) ?? []).filter((e) => e.at >= from && e.at <= to).length;
}

/** YYYY-MM-DD of a time (UTC). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
