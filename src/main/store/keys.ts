// Every Redis key ipuaro uses is built here. Project keys carry the project name in a hash tag
// (`project:{work-main}:files`) so all of a project's keys share one cluster slot: MULTI and
// multi-key commands over them stay legal on Redis Cluster too.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The hashes that make up a project's index. */
export const PROJECT_KEY_PARTS = ["files", "ast", "meta", "stat", "facts", "indexes", "indexes_next", "config"] as const;
export type ProjectKeyPart = (typeof PROJECT_KEY_PARTS)[number];

/** Letters and digits of any script, `.`, `_`, `-`: nothing that moves a hash tag or splits a key. */
const SAFE_NAME = /^[\p{L}\p{M}\p{N}._-]+$/u;

function assertSafeName(kind: string, name: string): void {
  // Braces or colons inside a name would move the hash tag or split the key's namespace.
  if (!SAFE_NAME.test(name)) throw new Error(`Invalid ${kind} name for a Redis key: ${JSON.stringify(name)}`);
}

/**
 * `project:{name}:<part>`:
 * - files: path → FileData JSON (or binary/symlink metadata, see stored-values.ts)
 * - ast: path → FileAST JSON
 * - meta: path → FileMeta JSON
 * - stat: path → `size:mtimeMs:hash`, light enough for a warm re-index to compare without loading files
 * - facts: path → GraphFacts + complexity JSON, so a partial re-index can rebuild the graph without re-parsing
 * - indexes: `sym:<name>`, `deps:<path>`, `calls:<path>` → JSON (the symbol index, deps graph, call graph)
 * - indexes_next: `indexes_next:<run>`, a full rebuild of `indexes` being written (one per run, expiring);
 *   RENAMEd over it when complete
 * - config: schemaVersion, root, last_indexed, …
 */
export function projectKey(project: string, part: ProjectKeyPart): string {
  assertSafeName("project", project);
  return `project:{${project}}:${part}`;
}

export type ProjectKeys = Record<ProjectKeyPart, string>;

export function projectKeys(project: string): ProjectKeys {
  const keys = {} as ProjectKeys;
  for (const part of PROJECT_KEY_PARTS) keys[part] = projectKey(project, part);
  return keys;
}

/** Sorted set of the project's session ids scored by last activity (the seed's `sessions:list`, scoped to the project). */
export function projectSessionsKey(project: string): string {
  assertSafeName("project", project);
  return `project:{${project}}:sessions`;
}

/** Hash: history, context, created_at, last_activity, stats. */
export function sessionDataKey(sessionId: string): string {
  assertSafeName("session", sessionId);
  return `session:{${sessionId}}:data`;
}

/** List: the undo stack of one session. */
export function sessionUndoKey(sessionId: string): string {
  assertSafeName("session", sessionId);
  return `session:{${sessionId}}:undo`;
}

/** String: which process has the session open (see session-lease.ts); expires unless renewed. */
export function sessionLeaseKey(sessionId: string): string {
  assertSafeName("session", sessionId);
  return `session:{${sessionId}}:lease`;
}

/**
 * String: which process is running an index of the project (index-run-lease.ts); expires
 * unless renewed. Not one of PROJECT_KEY_PARTS: a schema reset inside the run must not drop it.
 */
export function projectIndexLeaseKey(project: string): string {
  assertSafeName("project", project);
  return `project:{${project}}:index_lease`;
}

/** Letters and digits of any script stay (a Cyrillic folder keeps its name); the rest becomes `_`. */
function sanitiseSegment(segment: string): string {
  return segment.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}._-]/gu, "_");
}

/**
 * `{parent-folder}-{project-folder}` of the real path: /work/main → `work-main`, /проекты/магазин →
 * `проекты-магазин`. Other characters (spaces, braces, colons) become `_`; when that happened, a short
 * hash of the real path is appended so `/a/my app` and `/a/my_app` do not share an index. `/` is
 * `root`, `/work` is `root-work`.
 */
export function projectNameFor(root: string): string {
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    real = path.resolve(root);
  }
  const base = path.basename(real);
  if (!base) return "root";
  const parentBase = path.basename(path.dirname(real)) || "root";
  const raw = `${parentBase}-${base}`;
  const name = sanitiseSegment(raw);
  if (name === raw) return name;
  const digest = createHash("sha1").update(real).digest("hex").slice(0, 8);
  return `${name}-${digest}`;
}
