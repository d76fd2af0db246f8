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

/** A branch name as a shell word (git allows `$`, quotes and the like in them). */
function shellWord(name: string): string {
  return /^[\w./@+-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}

/** What to show when HEAD is not where the checkpoint saw it; null when it did not move. */
export function gitHeadNotice(recorded: GitHeadRecord | undefined, current: GitHeadRecord | null): GitHeadNotice | null {
  if (!recorded || recorded.head === current?.head) return null;
  const rec = recorded.head.slice(0, 12);
  let commands: string[];
  if (!current) commands = [`git log --oneline ${rec}`];
  else if (current.branch !== recorded.branch) {
    // Another branch (or detached) now: `git reset --soft` would move *that* branch onto a commit of
    // the other one, dropping its own commits from it. Going back is a switch.
    commands = recorded.branch ? [`git switch ${shellWord(recorded.branch)}`] : [`git switch --detach ${rec}`];
  } else commands = [`git log --oneline ${rec}..HEAD`, `git reset --soft ${rec}`];
  return { recorded: recorded.head, current: current?.head ?? null, commands };
}
