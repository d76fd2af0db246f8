// The project repository's HEAD, read (never changed) for checkpoints: when a rewind finds HEAD has
// moved since the checkpoint, the user is shown the commands they could run; ipuaro runs none of them.
import { safeSimpleGit } from "../git/project-git.js";
import type { GitHeadNotice, GitHeadRecord } from "./checkpoint-types.js";

/** HEAD and branch, or null outside a repository (or before its first commit, or without git). */
export async function readGitHead(root: string): Promise<GitHeadRecord | null> {
  const git = safeSimpleGit(root);
  let head: string;
  try {
    head = (await git.raw(["rev-parse", "--verify", "-q", "HEAD"])).trim();
  } catch {
    return null;
  }
  if (!/^[0-9a-f]{40,64}$/.test(head)) return null;
  try {
    const branch = (await git.raw(["symbolic-ref", "-q", "--short", "HEAD"])).trim();
    return branch ? { head, branch } : { head };
  } catch {
    return { head }; // detached
  }
}

/** What to show when HEAD is not where the checkpoint saw it; null when it did not move. */
export function gitHeadNotice(recorded: GitHeadRecord | undefined, current: GitHeadRecord | null): GitHeadNotice | null {
  if (!recorded || recorded.head === current?.head) return null;
  const rec = recorded.head.slice(0, 12);
  return {
    recorded: recorded.head,
    current: current?.head ?? null,
    commands: current ? [`git log --oneline ${rec}..HEAD`, `git reset --soft ${rec}`] : [`git log --oneline ${rec}`],
  };
}
