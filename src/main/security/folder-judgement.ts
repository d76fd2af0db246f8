// Judges `cd FOLDER && …` (leading-cd.ts) in FOLDER: the rest of the line is judged with that folder as
// the project root, so its relative paths, package.json scripts and written scripts are read from where
// they will run, and anything outside the folder counts as outside the project (stricter than the real
// root, never looser). The line then runs as written from the project root, `cd` and all.
import fs from "node:fs";
import path from "node:path";
import type { CommandJudgement, CommandPolicy, JudgedCommand, SessionTaint } from "./command-policy.js";
import { displayInline } from "./hidden-characters.js";
import { splitLeadingCd } from "./leading-cd.js";
import { resolveInsideRoot } from "./path-guard.js";

type Judge = (command: string, policy: CommandPolicy) => CommandJudgement;

function isDirectory(real: string): boolean {
  try {
    return fs.statSync(real).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether git run in `folder` would find another repository before the project's: a `.git` (a nested
 * clone, a submodule) or a bare repository in the folder or one between it and the root. Its config
 * can run commands (core.fsmonitor, core.pager), as `git -C` into it could, which asks.
 */
function otherRepositoryOnTheWay(realRoot: string, folder: string): boolean {
  const exists = (p: string): boolean => fs.existsSync(p);
  for (let dir = folder; dir !== realRoot && dir.startsWith(`${realRoot}${path.sep}`); dir = path.dirname(dir)) {
    if (exists(path.join(dir, ".git"))) return true;
    if (exists(path.join(dir, "HEAD")) && (exists(path.join(dir, "objects")) || exists(path.join(dir, "refs")))) return true;
  }
  return false;
}

/** `files` (project-relative) that lie under one of `prefixes`, relative to it. */
function under(files: readonly string[] | undefined, prefixes: readonly string[]): string[] {
  const inside: string[] = [];
  for (const file of files ?? []) {
    const prefix = prefixes.find((p) => p === "." || file.startsWith(`${p}/`));
    if (prefix !== undefined) inside.push(prefix === "." ? file : file.slice(prefix.length + 1));
  }
  return inside;
}

function folderTaint(taint: SessionTaint | undefined, prefixes: readonly string[]): SessionTaint | undefined {
  if (!taint) return undefined;
  // Any changed config or script anywhere still counts: a package's tsconfig extends the root's.
  return { taintedFiles: taint.taintedFiles, writtenFiles: under(taint.writtenFiles, prefixes) };
}

const toPosix = (p: string): string => p.split(path.sep).join("/");

/** The judgement of `command` in the folder its leading `cd`s go to; null when it has none to take. */
export function judgeInFolder(command: string, policy: CommandPolicy, judge: Judge): CommandJudgement | null {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(policy.projectRoot);
  } catch {
    return null;
  }
  let rest = command;
  let cwd = policy.projectRoot;
  let lexical = ".";
  const cds: JudgedCommand[] = [];
  for (let lead = splitLeadingCd(rest); lead; lead = splitLeadingCd(rest)) {
    // `.git`, `.ipuaro`, folders outside the project and those of another repository are not taken:
    // the `cd` is then judged as written (it asks).
    const place = resolveInsideRoot(cwd, lead.folder, { mustExist: true, forWrite: true });
    if (!place.ok || !isDirectory(place.real) || otherRepositoryOnTheWay(realRoot, place.real)) break;
    cds.push({ text: displayInline(lead.text), program: "cd", args: [lead.folder], wrappers: [], context: "top-level", verdict: "allow", reasons: [], writes: [] });
    lexical = path.posix.join(lexical, place.rel);
    cwd = place.real;
    rest = lead.rest;
  }
  if (cds.length === 0) return null;
  const folder = toPosix(path.relative(realRoot, cwd)) || ".";
  const inner = judge(rest, { ...policy, projectRoot: cwd, sessionTaint: folderTaint(policy.sessionTaint, [...new Set([folder, lexical])]) });
  const commands = inner.commands.map((c) => ({ ...c, writes: c.writes.map((w) => (folder === "." ? w : `${folder}/${w}`)) }));
  const where = folder === "." ? "" : ` (judged in \`${displayInline(folder)}\`, where the line's \`cd\` goes)`;
  return { verdict: inner.verdict, reason: `${inner.reason}${where}`, commands: [...cds, ...commands] };
}
