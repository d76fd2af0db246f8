// Redis keys of the project memory and analytics (seed 001, "Code Shadow"). They share the project's hash
// tag with the index keys (keys.ts), so MULTI over a project's keys stays legal on Redis Cluster, but they
// are not among PROJECT_KEY_PARTS: a re-index or a schema reset never wipes what the project remembers.
import { projectKey } from "./keys.js";

/** The shadow structures of one project. */
export const SHADOW_KEY_PARTS = [
  "events",
  "version",
  "commits",
  "git",
  "memory",
  "notes",
  "decisions",
  "decision_seq",
] as const;
export type ShadowKeyPart = (typeof SHADOW_KEY_PARTS)[number];

/**
 * `project:{name}:shadow:<part>`:
 * - events: sorted set, score = time (ms), member = event JSON (edits, external changes, errors, reverts, turns)
 * - version: counter bumped whenever events or git history change (analysis caches compare it)
 * - commits: sorted set, score = author time (ms), member = imported commit JSON
 * - git: hash with the import state (last_commit, imported_at, commits)
 * - memory: hash id → memory entry JSON (memory_write)
 * - notes: hash id → note JSON (memory_note)
 * - decisions: hash id → ADR JSON (decide)
 * - decision_seq: counter giving decisions their numbers
 */
export function shadowKey(project: string, part: ShadowKeyPart): string {
  projectKey(project, "config"); // throws on a name that would break the hash tag
  return `project:{${project}}:shadow:${part}`;
}

export type ShadowKeys = Record<ShadowKeyPart, string>;

export function shadowKeys(project: string): ShadowKeys {
  const keys = {} as ShadowKeys;
  for (const part of SHADOW_KEY_PARTS) keys[part] = shadowKey(project, part);
  return keys;
}
