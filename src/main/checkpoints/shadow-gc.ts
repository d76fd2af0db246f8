// GC of a project's shadow git dir (checkpoints.mode "shadow-git"). Each session keeps its snapshots
// reachable through its own ref, and the dir never gc's by itself (gc.auto=0, so a snapshot never
// waits on a repack): without this, the snapshots of every deleted or expired session stayed on disk
// for good. A ref whose session no longer exists in Redis is dropped with its index file, then git gc
// packs what is left and prunes what is unreachable and older than the grace (a snapshot another
// process is writing has objects no ref reaches yet).
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { sessionDataKey } from "../store/keys.js";
import { BLOB_GRACE_MS, folderBytes } from "./blob-gc.js";
import { runShadowGit, SHADOW_SESSION_REFS, shadowGitDir, shadowSessionName } from "./shadow-git.js";
import type { Redis } from "./store-access.js";

export interface ShadowGcReport {
  /** Sessions whose snapshots were dropped (the session is gone from Redis). */
  removedSessions: number;
  keptSessions: number;
  freedBytes: number;
}

export interface ShadowGcOptions {
  home: string;
  root: string;
  graceMs?: number;
  now?: number;
}

const SESSION_NAME = /^[A-Za-z0-9._-]{1,100}$/;

async function sessionExists(redis: Redis, name: string): Promise<boolean> {
  // A name that is not a valid id cannot be looked up: keep its snapshots rather than guess.
  if (!SESSION_NAME.test(name)) return true;
  return (await redis.exists(sessionDataKey(name))) > 0;
}

/**
 * Drops the snapshots of sessions that no longer exist. null: the project has no shadow git dir.
 * The caller decides whether it may run at all (not while another Redis shares the file history).
 */
export async function collectShadowGarbage(redis: Redis, opts: ShadowGcOptions): Promise<ShadowGcReport | null> {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(opts.root);
  } catch {
    return null;
  }
  const gitDir = shadowGitDir(opts.home, realRoot);
  if (!fs.existsSync(path.join(gitDir, "HEAD"))) return null;
  const git = (args: string[]) => runShadowGit(gitDir, args, { cwd: gitDir });
  const refs = (await git(["for-each-ref", "--format=%(refname)", SHADOW_SESSION_REFS])).toString("utf8").split("\n").filter(Boolean);
  const report: ShadowGcReport = { removedSessions: 0, keptSessions: 0, freedBytes: 0 };
  const live = new Set<string>();
  for (const ref of refs) {
    const name = ref.slice(SHADOW_SESSION_REFS.length);
    if (await sessionExists(redis, name)) {
      live.add(name);
      report.keptSessions++;
      continue;
    }
    await git(["update-ref", "-d", ref]);
    report.removedSessions++;
  }
  // Index files of gone sessions (also of sessions whose first snapshot failed before its ref).
  const indexDir = path.join(gitDir, "ipuaro-index");
  for (const name of await fsp.readdir(indexDir).catch(() => [] as string[])) {
    if (live.has(name) || (await sessionExists(redis, shadowSessionName(name)))) continue;
    await fsp.rm(path.join(indexDir, name), { force: true });
  }
  if (!report.removedSessions) return report;
  const before = (await folderBytes(gitDir)).bytes;
  const graceMs = opts.graceMs ?? BLOB_GRACE_MS;
  const expire = graceMs <= 0 ? "now" : new Date((opts.now ?? Date.now()) - graceMs).toISOString();
  await git(["gc", "--quiet", `--prune=${expire}`]);
  report.freedBytes = Math.max(0, before - (await folderBytes(gitDir)).bytes);
  return report;
}
