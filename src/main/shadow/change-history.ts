// Everything that happened to the project's files, in one model: agent edits, human changes seen by the
// watcher and git commits become FileChanges; errors are blamed on the changes that most likely caused
// them. Every analysis reads this; it is rebuilt only when the history version moves.
import type { EditEvent, ErrorEvent, ErrorKind, ExternalChangeEvent, RevertEvent, ShadowEvent } from "./event-types.js";
import { historyVersion, readEvents } from "./events-store.js";
import { readCommits, type ImportedCommit } from "./git-history.js";
import type { ShadowScope } from "./shadow-scope.js";

/** An error is blamed on the session's edits made this long before it. */
export const ERROR_BLAME_WINDOW_MS = 30 * 60_000;
/** A fix commit blames earlier commits of the same files made this long before it. */
export const FIX_LOOKBACK_MS = 14 * 24 * 3600_000;
/** Commit subjects that say an earlier change broke something. */
export const FIX_SUBJECT = /\b(fix(e[sd])?|bug|broke[n]?|revert(s|ed)?|hotfix|regression)\b/i;

export type ChangeSource = "agent" | "human" | "git";

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
  /** Git author, "ipuaro" for agent edits, null for changes seen by the watcher. */
  author: string | null;
  added: number;
  removed: number;
  tool?: string;
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

/**
 * A fix commit blames the earlier commits of the files it had to touch; its other files were broken by
 * them. A revert blames exactly the commit it reverted, however old, not whatever touched the file last.
 */
function blameFixCommits(h: ShadowHistory, gitByFile: Map<string, FileChange[]>): void {
  for (const c of h.commits) {
    if (c.bulk || !FIX_SUBJECT.test(c.subject)) continue;
    const reverted = revertedCommit(h, c);
    const blamed = new Map<string, FileChange>();
    for (const f of c.files) {
      const earlier = reverted
        ? (gitByFile.get(f.path) ?? []).find((g) => g.commit === reverted.hash)
        : (gitByFile.get(f.path) ?? []).filter((g) => g.commit !== c.hash && g.at < c.at && g.at >= c.at - FIX_LOOKBACK_MS).at(-1);
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

export function buildHistory(version: string, events: ShadowEvent[], commits: ImportedCommit[]): ShadowHistory {
  const h: ShadowHistory = { version, events, commits, changes: [], byFile: new Map(), sweeps: new Map(), errors: [], errorsIn: new Map(), reverts: new Map(), causesBugsIn: new Map() };
  const agentBySession = new Map<string | null, FileChange[]>();
  const allAgent: FileChange[] = [];
  const gitByFile = new Map<string, FileChange[]>();
  for (const c of commits) {
    for (const change of gitChanges(c)) {
      if (change.bulk) {
        push(h.sweeps, change.file, change);
        continue;
      }
      h.changes.push(change);
      push(gitByFile, change.file, change);
    }
  }
  for (const e of events) {
    if (e.type === "edit") {
      const change = agentChange(e);
      h.changes.push(change);
      allAgent.push(change);
      push(agentBySession, e.session, change);
    } else if (e.type === "external") h.changes.push(humanChange(e));
    else if (e.type === "error") {
      h.errors.push(e);
      if (e.file) push(h.errorsIn, e.file, e);
    } else if (e.type === "revert") push(h.reverts, e.file, e);
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
  const [events, commits] = await Promise.all([readEvents(scope), readCommits(scope)]);
  const history = buildHistory(version, events, commits);
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

/** Error events that pointed at the file within a window (whoever caused them). */
export function errorsLocatedIn(h: ShadowHistory, file: string, from = 0, to = Number.MAX_SAFE_INTEGER): number {
  return (h.errorsIn.get(file) ?? []).filter((e) => e.at >= from && e.at <= to).length;
}

/** YYYY-MM-DD of a time (UTC). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
