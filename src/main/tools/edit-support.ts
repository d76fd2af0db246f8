// What edit_lines, create_file and delete_file share: the write path's checks, the stale-read conflict,
// the confirmation, and the one order every write follows — undo entry persisted, write registered as
// ipuaro's own, atomic write, Redis refreshed, ledger and taint updated.
import { riskWarningFor } from "../shadow/session-memory.js";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { checkpointHooksFor } from "../checkpoints/tool-hooks.js";
import { AtomicWriteError, deleteFileAtomic, writeFileAtomic } from "../fs/atomic-write.js";
import { readRegularFile } from "../fs/regular-file.js";
import { isTaintingWrite } from "../security/index.js";
import { changedRegion, dominantEol, inFileEols, splitWithEols, textLines, unifiedDiff, type LineRange } from "./edit-text.js";
import { forgetRead, rememberRead, seenLines } from "./read-snapshots.js";
import { forgetSeen, noteSeen } from "./seen-ranges.js";
import { notTextFailure, readToolFile } from "./disk-read.js";
import { numberLines, toolPath } from "./tool-paths.js";
import type { ConflictDecision, EditRecord, ToolContext, ToolOutcome } from "./tool-types.js";
import { counted } from "../plural.js";

export type ToolFailure = Extract<ToolOutcome, { ok: false }>;

export interface WriteTarget {
  rel: string;
  abs: string;
}

const BOM = "\uFEFF";
/** Lines shown around an edit in the result and in a conflict. */
export const RESULT_CONTEXT_LINES = 3;
export const CONFLICT_CONTEXT_LINES = 5;
/** A long edited region is shown by its head and tail. */
const MAX_SHOWN_LINES = 80;

function fail(code: ToolFailure["code"], message: string): ToolFailure {
  return { ok: false, code, message };
}

/**
 * A path the model wants to write: inside the root, not git's or ipuaro's, and reached without any
 * symlink — through one, the write would land under a name the index does not know it by.
 */
/** The topmost folder above the project-relative file `rel` that does not exist yet, or undefined. */
function topMissingFolder(root: string, rel: string): string | undefined {
  const parts = rel.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    if (!fs.existsSync(path.join(root, folder))) return folder;
  }
  return undefined;
}

export function resolveWriteTarget(root: string, input: string): WriteTarget | ToolFailure {
  const p = toolPath(root, input, { forWrite: true });
  if (!p.ok) return p;
  if (p.rel === ".") return fail("PATH_INVALID", "the path is the project root; give a file path");
  let link: string | null = null;
  try {
    if (fs.lstatSync(p.abs).isSymbolicLink()) link = fs.readlinkSync(p.abs);
  } catch {
    // Missing: fine for create_file; the tools check existence themselves.
  }
  const realRel = path.relative(fs.realpathSync.native(root), p.real).split(path.sep).join("/");
  if (link !== null) {
    return fail("NOT_TEXT", `${p.rel} is a symlink to ${link}; ipuaro does not write through symlinks${realRel !== p.rel ? `; edit ${realRel} instead` : ""}`);
  }
  if (realRel !== p.rel) return fail("PATH_INVALID", `${p.rel} goes through a symlinked folder; use the real path ${realRel}`);
  return { rel: p.rel, abs: p.abs };
}

/** A text file as it is on disk now. `text` has no BOM; `bom` says whether to write one back. */
export interface DiskText {
  hash: string;
  bom: boolean;
  text: string;
  lines: string[];
}

/** Reads the target as UTF-8 text; binary, non-UTF-8, folders, FIFOs, devices and missing files are failures. */
export async function readDiskText(target: WriteTarget): Promise<DiskText | ToolFailure> {
  const read = await readToolFile(target.rel, target.abs, {
    missing: `${target.rel} does not exist. Use get_structure to see the files, or create_file to make it.`,
    folder: `${target.rel} is a folder, not a file`,
    tooLarge: "ipuaro edits files up to that size; change it with run_command (e.g. `sed -i`) instead",
  });
  if (!read.ok) return read;
  const bytes = read.bytes;
  const notText = notTextFailure(target.rel, bytes, "; ipuaro edits UTF-8 text files only");
  if (notText) return notText;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return fail("NOT_TEXT", `${target.rel} is not UTF-8 text; ipuaro edits UTF-8 files only`);
  }
  const bom = decoded.startsWith(BOM);
  const text = bom ? decoded.slice(1) : decoded;
  return { hash: await hashContent(bytes), bom, text, lines: textLines(text) };
}

/**
 * Hash of the target's current bytes; null when it is gone. Anything else that is not the regular file
 * the change was built on (a FIFO swapped in, a file grown past the read limit) hashes to a value no
 * file has, so the write is refused as a conflict instead of reading it.
 */
async function diskHash(abs: string): Promise<string | null> {
  const read = await readRegularFile(abs);
  if (read.kind === "file") return hashContent(read.bytes);
  if (read.kind === "missing") return null;
  if (read.kind === "unreadable") throw new Error(read.reason);
  return `not a readable regular file: ${read.kind}`;
}

/** The lines the model read at `hash`: the session's snapshot, else the Redis copy if it still is that version. */
async function linesSeenAt(ctx: ToolContext, rel: string, hash: string): Promise<readonly string[] | null> {
  const kept = seenLines(ctx.session, rel, hash);
  if (kept) return kept;
  const stored = await ctx.store.getFile(rel);
  return stored?.kind === "text" && stored.hash === hash ? stored.lines : null;
}

/**
 * Records the file as read at its content on disk now. For a person running an edit tool directly
 * (`ipuaro tool edit_lines`): the read-first rule keeps the model from editing lines it never saw, and a
 * person has the file in front of them. Nothing is recorded for a path that cannot be read as text.
 */
export async function markReadAsOnDisk(ctx: Pick<ToolContext, "root" | "session">, inputPath: string): Promise<void> {
  const target = resolveWriteTarget(ctx.root, inputPath);
  if ("ok" in target) return;
  const current = await readDiskText(target);
  if ("ok" in current) return;
  rememberRead(ctx.session, target.rel, current.hash, current.lines);
}

export interface StaleRead {
  decision: ConflictDecision;
  /** What the model read, when ipuaro still has it (to move its line range). */
  seen: readonly string[] | null;
}

/**
 * The file changed since the model read it: the user sees what changed (seen → disk) and chooses to
 * apply anyway, skip the edit, or have the model redo it against the current lines.
 */
export async function askAboutStaleRead(ctx: ToolContext, target: WriteTarget, seenHash: string, current: DiskText): Promise<StaleRead> {
  const seen = await linesSeenAt(ctx, target.rel, seenHash);
  const diff = seen
    ? unifiedDiff(target.rel, seen, current.lines, { old: "as the model read it", new: "on disk now" })
    : `${target.rel} changed on disk since the model read it (its copy of what the model saw is no longer kept).`;
  const decision = await ctx.ports.resolveConflict({ path: target.rel, diff });
  return { decision, seen };
}

export function skippedAfterConflict(rel: string): ToolFailure {
  return fail(
    "REJECTED",
    `${rel} changed on disk since you read it (someone else edited it), and your change was not applied over that; nothing was written. Read the file again before changing it.`,
  );
}

/** Numbered lines `from`..`to` of `lines` (clamped), with the long middle of a big region left out. */
export function showLines(lines: readonly string[], from: number, to: number): string {
  const first = Math.max(1, from);
  const last = Math.min(lines.length, to);
  if (last < first) return "";
  if (last - first + 1 <= MAX_SHOWN_LINES) return numberLines(lines.slice(first - 1, last), first);
  const headEnd = first + MAX_SHOWN_LINES - 21;
  const tailStart = last - 19;
  return `${numberLines(lines.slice(first - 1, headEnd), first)}\n   … (lines ${headEnd + 1}-${tailStart - 1} not shown)\n${numberLines(lines.slice(tailStart - 1, last), tailStart)}`;
}

/**
 * The model's edit cannot be placed on the current file: it is shown the current lines around the
 * range (and the ledger moves to the current version, since it now has them).
 */
export function regenerateConflict(ctx: ToolContext, rel: string, current: DiskText, around: LineRange, why: string): ToolFailure {
  rememberRead(ctx.session, rel, current.hash, current.lines);
  const from = Math.max(1, Math.min(around.start, around.end) - CONFLICT_CONTEXT_LINES);
  const to = Math.min(current.lines.length, Math.max(around.start, around.end) + CONFLICT_CONTEXT_LINES);
  const shown = showLines(current.lines, from, to);
  return fail(
    "CONFLICT",
    `${why}; nothing was written. Current lines ${from}-${to} of ${rel} (${counted(current.lines.length, "line")}):\n${shown}\nRedo your edit against these lines.`,
  );
}

/** One change ready for confirmation: the file before (null = new) and after (null = delete), without BOM. */
export interface PlannedChange {
  tool: string;
  target: WriteTarget;
  before: DiskText | null;
  after: string | null;
  description?: string;
  /** Old lines the edit replaces (edit_lines), for the dialog header. */
  range?: LineRange;
}

export type AppliedChange =
  | { ok: true; userEdited: boolean; afterLines: string[] | null; text: string | null; warning?: string }
  | ToolFailure;

/** A risky file's warning (project history: hotspot / predicted breakage) goes in front of what the model reads. */
export function withRiskNote(applied: AppliedChange, outcome: ToolOutcome): ToolOutcome {
  if (!applied.ok || !applied.warning || !outcome.ok) return outcome;
  const note = /^warning\b/i.test(applied.warning) ? applied.warning : `Warning: ${applied.warning}`;
  return { ...outcome, llm: `${note}\n${outcome.llm}` };
}

/** The undo stack's lines: `split("\n")` of the exact text, so `join("\n")` restores the bytes (CR and BOM kept). */
function undoLines(text: string | null, bom: boolean): string[] | null {
  return text === null ? null : `${bom ? BOM : ""}${text}`.split("\n");
}

/** Confirmation, then the write in its fixed order. Returns what ended up on disk. */
export async function confirmAndWrite(ctx: ToolContext, change: PlannedChange): Promise<AppliedChange> {
  const { rel, abs } = change.target;
  const beforeLines = change.before?.lines ?? null;
  const afterLines = change.after === null ? null : textLines(change.after);
  if (ctx.signal?.aborted) return fail("CANCELLED", `cancelled before the change to ${rel} was shown; nothing was written`);
  const warning = await riskWarningFor(ctx.store, ctx.root, rel).catch(() => null);
  const generated = change.before !== null && change.after !== null ? await generatedWarning(ctx, rel) : null;
  const checkpoints = checkpointHooksFor(ctx.session);
  // Said before the question, not after the write: the user decides knowing a rewind cannot undo it.
  const backupWarning = await checkpoints?.beforeConfirm(rel);
  const decision = await ctx.ports.confirmEdit({
    ...(warning ? { risk: { level: warning.level, message: warning.message, requiresConfirmation: warning.requiresConfirmation } } : {}),
    tool: change.tool,
    path: rel,
    diff: unifiedDiff(rel, beforeLines, afterLines),
    ...(change.description ? { description: change.description } : {}),
    ...(change.range ? { range: change.range } : {}),
    newContent: change.after,
    ...(backupWarning ? { backupWarning } : {}),
    ...(generated ? { generatedWarning: generated } : {}),
  });
  if (decision.action === "reject" && decision.unattended) {
    return fail(
      "REJECTED",
      `Your change to ${rel} was not applied: this run is non-interactive, so nobody could confirm it${decision.reason ? ` (${decision.reason})` : ""}. Nothing was written. Do not try the change again in this run; say in your answer what you would change.`,
    );
  }
  if (decision.action === "reject") {
    return fail(
      "REJECTED",
      `The user rejected your change to ${rel}${decision.reason ? `: ${decision.reason}` : ""}. Nothing was written. Do not repeat the same change; ask the user or take another approach.`,
    );
  }
  let text = change.after;
  const userEdited = decision.action === "apply-edited";
  if (decision.action === "apply-edited") {
    text = inFileEols(decision.content, change.before ? dominantEol(splitWithEols(change.before.text).eols) : "\n");
    if (text.startsWith(BOM)) text = text.slice(1);
    if (change.before && text === change.before.text) {
      return fail("REJECTED", `The user edited your change back to the original; ${rel} was not changed. Do not repeat the same change.`);
    }
  }
  if (ctx.signal?.aborted) return fail("CANCELLED", `cancelled before writing ${rel}; nothing was written`);

  // The user may take a while to decide: the disk must still be what the change was built on.
  if ((await diskHash(abs)) !== (change.before?.hash ?? null)) {
    // Auto-apply and --yes wait for nobody: then the file changed while the change was being made.
    const waited = decision.action === "apply" && decision.auto ? "was being made" : "waited for confirmation";
    return fail("CONFLICT", `${rel} changed on disk while the change ${waited}; nothing was written. Read the file again and redo the change.`);
  }
  // The path is judged again: a folder of it swapped for a symlink while the user decided.
  const again = resolveWriteTarget(ctx.root, rel);
  if ("ok" in again) return fail(again.code, `${again.message} (it changed while the change waited); nothing was written`);
  const bom = change.before?.bom ?? false;
  const bytes = text === null ? null : Buffer.from(`${bom ? BOM : ""}${text}`, "utf8");
  const newHash = bytes ? await hashContent(bytes) : null;
  const previousMode = bytes === null ? await fsp.lstat(abs).then((st) => st.mode & 0o7777, () => undefined) : undefined;
  const createdFolder = change.before === null ? topMissingFolder(ctx.root, rel) : undefined;
  const record: EditRecord = {
    filePath: rel,
    previousContent: undoLines(change.before?.text ?? null, bom),
    newContent: undoLines(text, bom),
    description: change.description ?? defaultDescription(change.tool, rel, change.range),
    tool: change.tool,
    ...(previousMode !== undefined ? { previousMode } : {}),
    ...(createdFolder !== undefined ? { createdFolder } : {}),
  };
  // Checkpoints (issue 8): the file's content before its first write in this turn is backed up first.
  await checkpoints?.beforeWrite(rel);
  await ctx.services.recordEdit(record);
  ctx.services.registerOwnWrite(rel, newHash);
  // resolveWriteTarget made sure no folder of the path was a symlink; one swapped in since (while the
  // user decided) must not carry the write out of the project.
  const realParent = path.join(fs.realpathSync.native(ctx.root), ...rel.split("/").slice(0, -1));
  try {
    if (bytes === null) await deleteFileAtomic(abs, { realParent });
    else await writeFileAtomic(abs, bytes, { exclusive: change.before === null, createParents: change.before === null, realParent });
  } catch (error) {
    if (!(error instanceof AtomicWriteError)) throw error;
    if (error.reason === "EXISTS") return fail("CONFLICT", `${rel} appeared on disk while the change waited; nothing was written. Read it and use edit_lines.`);
    if (error.reason === "PARENT_MOVED") return fail("PATH_OUTSIDE_ROOT", `a folder of ${rel} changed while the change waited (${error.message}); nothing was written`);
    return fail("INTERNAL", `could not ${bytes === null ? "delete" : "write"} ${rel} (${error.message}); the file was left unchanged`);
  }
  await checkpoints?.afterWrite(rel, bytes);
  await ctx.services.refreshIndex([rel]);
  const finalLines = text === null ? null : textLines(text);
  await ctx.services.analytics?.editApplied({ sessionId: ctx.sessionId ?? null, file: rel, before: beforeLines, after: finalLines, tool: change.tool });
  if (text === null || newHash === null) forgetRead(ctx.session, rel);
  else rememberRead(ctx.session, rel, newHash, finalLines!);
  // What the model now knows of the file's lines: a file it created, all of them; one the user changed
  // in the dialog, nothing for sure (edit_lines notes what its own result shows).
  if (finalLines && change.before === null) noteSeen(ctx.session, rel, 1, finalLines.length, ctx.reply);
  else if (userEdited) forgetSeen(ctx.session, rel);
  if (text !== null) ctx.session.writtenFiles.add(rel);
  else ctx.session.writtenFiles.delete(rel);
  if (isTaintingWrite(rel)) ctx.session.taintedFiles.add(rel);
  const notes = [...(warning ? [warning.message] : []), ...(generated ? [generated] : [])];
  return { ok: true, userEdited, afterLines: finalLines, text, ...(notes.length ? { warning: notes.join(" ") } : {}) };
}

/** The edited file is generated code (the index's complexity says so): the next generation undoes the change. */
async function generatedWarning(ctx: ToolContext, rel: string): Promise<string | null> {
  const meta = await ctx.store.getMeta(rel).catch(() => null);
  return meta?.complexity?.generated ? `${rel} is generated code: regenerating it will undo this change; change what it is generated from if you can.` : null;
}

function defaultDescription(tool: string, rel: string, range?: LineRange): string {
  return range ? `${tool} ${rel} ${range.start}-${range.end}` : `${tool} ${rel}`;
}

/** The user's own version was written: the model is told where the file now differs from before. */
export function describeUserEdit(rel: string, before: readonly string[], after: readonly string[]): string {
  const r = changedRegion(before, after);
  const from = Math.max(1, r.newStart - RESULT_CONTEXT_LINES);
  const to = Math.min(after.length, Math.max(r.newEnd, r.newStart) + RESULT_CONTEXT_LINES);
  return `The user edited your change before applying it. ${rel} now has ${after.length} lines; lines ${from}-${to} read:\n${showLines(after, from, to)}`;
}
