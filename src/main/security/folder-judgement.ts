// Judges `cd FOLDER && …` (leading-cd.ts) in FOLDER: the rest of the line is judged with that folder as
// the project root, so its relative paths, package.json scripts and written scripts are read from where
// they will run, and anything outside the folder counts as outside the project (stricter than the real
// root, never looser). When the line is not one `&&` chain, what follows may also run where the cd
// started (if it fails), so it is judged there too and the stricter verdict stands. The line then runs
// as written from the project root, `cd` and all.
import fs from "node:fs";
import path from "node:path";
import type { CommandJudgement, CommandPolicy, JudgedCommand, SessionTaint } from "./command-policy.js";
import { displayInline } from "./hidden-characters.js";
import { folderSpans, splitLeadingCd } from "./leading-cd.js";
import { isFolder, resolveInsideRoot } from "./path-guard.js";

type Judge = (command: string, policy: CommandPolicy) => CommandJudgement;

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

const SEVERITY = { allow: 0, ask: 1, deny: 2 } as const;

/** Where commands run: the folder (real path), and the prefixes a project-relative path has under it. */
interface Place {
  cwd: string;
  folder: string;
  lexical: string;
}

function judgeAt(rest: string, place: Place, policy: CommandPolicy, judge: Judge): CommandJudgement {
  const inner = judge(rest, { ...policy, projectRoot: place.cwd, sessionTaint: folderTaint(policy.sessionTaint, [...new Set([place.folder, place.lexical])]) });
  const { folder } = place;
  return { ...inner, commands: inner.commands.map((c) => ({ ...c, writes: c.writes.map((w) => (folder === "." ? w : `${folder}/${w}`)) })) };
}

const shownFolder = (folder: string): string => (folder === "." ? "the project root" : `\`${displayInline(folder)}\``);

/** The judgement of `command` in the folder its leading `cd`s go to; null when it has none to take. */
export function judgeInFolder(command: string, policy: CommandPolicy, judge: Judge, goes = "the line's `cd` goes"): CommandJudgement | null {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(policy.projectRoot);
  } catch {
    return null;
  }
  let rest = command;
  let place: Place = { cwd: policy.projectRoot, folder: ".", lexical: "." };
  /** Where the rest also runs when the last cd fails (a line that is not one `&&` chain). */
  let fallback: Place | null = null;
  const cds: JudgedCommand[] = [];
  for (let lead = splitLeadingCd(rest); lead && !fallback; lead = splitLeadingCd(rest)) {
    // `.git`, `.ipuaro`, folders outside the project and those of another repository are not taken:
    // the `cd` is then judged as written (it asks).
    const to = resolveInsideRoot(place.cwd, lead.folder, { mustExist: true, forWrite: true });
    if (!to.ok || !isFolder(to.real) || otherRepositoryOnTheWay(realRoot, to.real)) break;
    cds.push({ text: displayInline(lead.text), program: "cd", args: [lead.folder], wrappers: [], context: "top-level", verdict: "allow", reasons: [], writes: [] });
    if (!lead.exact) fallback = place;
    place = { cwd: to.real, folder: toPosix(path.relative(realRoot, to.real)) || ".", lexical: path.posix.join(place.lexical, to.rel) };
    rest = lead.rest;
  }
  if (cds.length === 0) return null;
  const there = judgeAt(rest, place, policy, judge);
  if (!fallback) {
    const where = place.folder === "." ? "" : ` (judged in ${shownFolder(place.folder)}, where ${goes})`;
    return { verdict: there.verdict, reason: `${there.reason}${where}`, commands: [...cds, ...there.commands] };
  }
  const here = judgeAt(rest, fallback, policy, judge);
  const worse = SEVERITY[here.verdict] > SEVERITY[there.verdict] ? here : there;
  const both = `judged in ${shownFolder(place.folder)}, where the \`cd\` goes, and in ${shownFolder(fallback.folder)}, where it runs if the \`cd\` fails`;
  return { verdict: worse.verdict, reason: `${worse.reason} (${both})`, commands: [...cds, ...worse.commands] };
}

/**
 * A line with commands that run in a folder of their own (leading-cd.ts: folderSpans): subshells that
 * start with a cd, `(cd web && npm run build) && (cd api && npm test)`, and `git -C packages/core log`.
 * Each is judged on its own (judgeInFolder, through `judge`), and the rest of the line with each of them
 * standing as `true`. A `git -C` whose folder is not taken (outside, another repository) stays in the
 * line, where it asks. null when nothing is taken (or only a whole-line subshell would be).
 */
export function judgeFolderSpans(command: string, policy: CommandPolicy, judge: Judge): CommandJudgement | null {
  const parts: CommandJudgement[] = [];
  let outside = "";
  let from = 0;
  for (const span of folderSpans(command)) {
    const part = span.cds === 0 ? judge(span.inner, policy) : judgeGitInFolder(command.slice(span.start, span.end), span.inner, span.cds, policy, judge);
    if (!part) continue;
    outside += `${command.slice(from, span.start)}true ${SPAN_MARK}${parts.length}`;
    parts.push(part);
    from = span.end;
  }
  if (parts.length === 0) return null;
  outside += command.slice(from);
  const rest = judge(outside, policy);
  const all = [...parts, rest];
  const worst = all.reduce((a, b) => (SEVERITY[b.verdict] > SEVERITY[a.verdict] ? b : a));
  const commands = inWrittenOrder(rest.commands, parts);
  if (worst.verdict !== "allow") return { verdict: worst.verdict, reason: worst.reason, commands };
  // The rest of the line said only when something besides the stand-ins runs there.
  const told = rest.commands.every((c) => standInFor(c) !== null) ? parts : all;
  const reasons = told.map((part) => part.reason.replace(/^allowed: /, "").replace(/`true`, |, `true`/g, ""));
  return { verdict: "allow", reason: `allowed: ${reasons.join("; ")}`, commands };
}

// A span stands in the rest of the line as `true ipuaro-folder-span-N`, which runs nothing and says
// where the span's own commands go in the list, apart from any `true` the user wrote.
const SPAN_MARK = "ipuaro-folder-span-";

function standInFor(c: JudgedCommand): number | null {
  if (c.program !== "true" || c.args.length !== 1 || !c.args[0]!.startsWith(SPAN_MARK)) return null;
  return Number(c.args[0]!.slice(SPAN_MARK.length));
}

/** The rest of the line's commands with each stand-in replaced by its span's commands, as written. */
function inWrittenOrder(rest: JudgedCommand[], parts: CommandJudgement[]): JudgedCommand[] {
  const placed = new Set<number>();
  const commands = rest.flatMap((c) => {
    const span = standInFor(c);
    if (span === null || !parts[span]) return [c];
    placed.add(span);
    return parts[span]!.commands;
  });
  // A stand-in the rest does not list (none expected) still has its commands shown.
  return [...commands, ...parts.filter((_, i) => !placed.has(i)).flatMap((p) => p.commands)];
}

/** `git -C F …` judged as `cd F && git …` (`inner`), shown as written; null when the folder is not taken. */
function judgeGitInFolder(text: string, inner: string, cds: number, policy: CommandPolicy, judge: Judge): CommandJudgement | null {
  const judged = judgeInFolder(inner, policy, judge, "`git -C` runs it");
  // Not every cd taken: the rest starts with a cd that asks, which the line does not hold.
  if (!judged || judged.commands.slice(0, cds).some((c) => c.program !== "cd" || c.verdict !== "allow")) return null;
  const [git, ...others] = judged.commands.slice(cds);
  return { ...judged, commands: git ? [{ ...git, text: displayInline(text) }, ...others] : others };
}
