// edit_lines: replaces a line range of a text file the model has read, after the user confirms the diff
// (or auto-apply). The file must not have changed since the read; if it has, the user decides.
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { askAboutStaleRead, confirmAndWrite, withRiskNote, describeUserEdit, readDiskText, regenerateConflict, resolveWriteTarget, RESULT_CONTEXT_LINES, showLines, skippedAfterConflict } from "./edit-support.js";
import { contentLines, lineChangeCounts, looksLineNumbered, mapRange, spliceText, type LineRange } from "./edit-text.js";
import { noteReplyBase, replyBase } from "./reply-edits.js";
import { firstUnseenLine, hasSeenRecord, noteSeen, shiftSeen } from "./seen-ranges.js";
import { isRepeatOfLastEdit, noteAppliedEdit } from "./repeated-edits.js";
import type { ToolOutcome } from "./tool-types.js";
import { counted } from "../plural.js";

/** Problem with the range against a file of `total` lines, or null. An empty file is one empty line. */
function rangeProblem(rel: string, total: number, { start, end }: LineRange): string | null {
  if (start > total + 1) return `${rel} has ${total} lines; start ${start} is past the end (use start=${total + 1} end=${total} to append)`;
  if (end > total) return `${rel} has ${total} lines; end ${end} is past the end`;
  return null;
}

const changeSummary = (c: { added: number; removed: number }) => `+${c.added} -${c.removed}`;

function changeHeadline(rel: string, range: LineRange, added: number, total: number): string {
  const { start, end } = range;
  const removed = end - start + 1;
  const delta = added - removed;
  const signed = `${delta >= 0 ? "+" : ""}${delta}`;
  if (removed === 0) {
    const where = start > total ? "at the end" : `before line ${start}`;
    return `edited ${rel}: inserted ${added} line${added === 1 ? "" : "s"} ${where} → lines ${start}-${start + added - 1} (${signed})`;
  }
  if (added === 0) return `edited ${rel}: deleted lines ${start}-${end} (${signed})`;
  return `edited ${rel} lines ${start}-${end} → ${start}-${start + added - 1} (${signed})`;
}

export const editLines = defineTool({
  name: "edit_lines",
  category: "edit",
  description:
    "Replace lines start..end (1-based, inclusive) of a file with content; the user confirms the diff. Read the lines first with get_lines, get_function or get_class, and use the line numbers you saw. content is the new code only (no line numbers); an empty content deletes the lines. To insert without replacing, pass end = start - 1 (the new lines go before line start; start = last line + 1 appends). Line endings and the final newline of the file are kept.",
  parameters: z
    .object({
      path: z.string().min(1).describe("File path relative to the project root"),
      start: z.number().int().min(1).describe("First line to replace (1-based)"),
      end: z.number().int().min(0).describe("Last line to replace (inclusive); start - 1 to insert before start"),
      content: z.string().describe("The new lines; empty to delete the range"),
      description: z.string().optional().describe("Why: shown to the user with the diff"),
    })
    .strict(),
  requiresConfirmation: true,
  title: (a) => `edit_lines ${a.path} ${a.start}-${a.end}`,
  async execute(args, ctx): Promise<ToolOutcome> {
    if (args.end < args.start - 1) {
      return { ok: false, code: "INVALID_ARGS", message: `end (${args.end}) is before start (${args.start}); to insert before line ${args.start} pass end=${args.start - 1}` };
    }
    const inserted = contentLines(args.content);
    if (looksLineNumbered(inserted)) {
      return { ok: false, code: "INVALID_ARGS", message: "content starts every line with a line number (`12│ `) copied from get_lines; send only the code" };
    }
    if (inserted.length === 0 && args.end === args.start - 1) {
      return { ok: false, code: "INVALID_ARGS", message: "nothing to do: content is empty and the range replaces no lines" };
    }
    const target = resolveWriteTarget(ctx.root, args.path);
    if ("ok" in target) return target;
    const current = await readDiskText(target);
    if ("ok" in current) return current;
    const seenHash = ctx.session.readLedger.get(target.rel);
    if (seenHash === undefined) {
      return { ok: false, code: "CONFLICT", message: `you have not read ${target.rel} yet; read the lines you want to change with get_lines (or get_function / get_class) first, then edit them by the line numbers you saw` };
    }

    if (isRepeatOfLastEdit(ctx.session, target.rel, args.start, args.end, args.content, current.hash)) {
      return { ok: false, code: "INVALID_ARGS", message: `this exact edit of ${target.rel} was just applied and the file still has it; nothing was changed again. Read the lines (get_lines) if you are unsure what the file holds now` };
    }
    let range: LineRange = { start: args.start, end: args.end };
    // The lines the model's numbers count in: what it read (when kept) if the file changed since.
    let numbered: readonly string[] = current.lines;
    const base = replyBase(ctx.session, ctx.reply, target.rel);
    // The lines must have been shown by a read in an earlier reply (a later edit of this reply counts as
    // its first did). Reads from before ranges were kept (an earlier run) count as whole-file reads.
    if (!base && hasSeenRecord(ctx.session, target.rel) && current.hash === seenHash) {
      const unseen = firstUnseenLine(ctx.session, target.rel, range.start, range.end, ctx.reply);
      if (unseen !== null) {
        const sameReply = firstUnseenLine(ctx.session, target.rel, range.start, range.end, undefined) === null;
        const from = Math.max(1, Math.min(range.start, range.end) - 2);
        const to = Math.min(current.lines.length, Math.max(range.start, range.end) + 2);
        const why = sameReply
          ? `you read those lines in this same reply, so your line numbers could not come from that read`
          : `line ${unseen} of ${target.rel} has not been shown to you`;
        return { ok: false, code: "CONFLICT", message: `${why}; read lines ${from}-${to} first (get_lines path=${target.rel} start=${from} end=${to}), then edit by the numbers you see` };
      }
    }
    if (base) {
      // An earlier call of this reply changed the file; the model's numbers are from before it.
      if (current.hash !== seenHash) return regenerateConflict(ctx, target.rel, current, range, `${target.rel} changed on disk after your earlier edit in this reply`);
      const moved = mapRange(base, current.lines, range.start, range.end);
      if (!moved) return regenerateConflict(ctx, target.rel, current, range, `lines ${range.start}-${range.end} of ${target.rel} (as you read them) overlap what an earlier edit in this reply changed`);
      range = moved;
    } else if (current.hash !== seenHash) {
      const stale = await askAboutStaleRead(ctx, target, seenHash, current);
      if (stale.decision === "skip") return skippedAfterConflict(target.rel);
      if (stale.seen) numbered = stale.seen;
      const moved = stale.seen ? mapRange(stale.seen, current.lines, range.start, range.end) : range;
      if (stale.decision === "regenerate") return regenerateConflict(ctx, target.rel, current, moved ?? range, `${target.rel} changed on disk since you read it`);
      if (!moved) return regenerateConflict(ctx, target.rel, current, range, `${target.rel} changed on disk since you read it and the lines you meant to replace were changed too`);
      range = moved;
    }
    const problem = rangeProblem(target.rel, current.lines.length, range);
    if (problem) return { ok: false, code: "INVALID_ARGS", message: problem };
    const after = spliceText(current.text, range.start, range.end, inserted);
    if (after === current.text) {
      return { ok: false, code: "INVALID_ARGS", message: `lines ${range.start}-${range.end} of ${target.rel} already read exactly like content; nothing to change` };
    }

    const applied = await confirmAndWrite(ctx, { tool: "edit_lines", target, before: current, after, description: args.description, range });
    if (!applied.ok) return applied;
    noteReplyBase(ctx.session, ctx.reply, target.rel, numbered);
    noteAppliedEdit(ctx.session, target.rel, args.start, args.end, args.content, applied.userEdited ? null : (ctx.session.readLedger.get(target.rel) ?? null));
    if (!applied.userEdited) {
      // A whole-file read from before ranges were kept stays a whole-file read, shifted by this edit.
      if (!hasSeenRecord(ctx.session, target.rel)) noteSeen(ctx.session, target.rel, 1, current.lines.length, undefined);
      shiftSeen(ctx.session, target.rel, range.start, range.end, inserted.length);
    }
    const lines = applied.afterLines ?? [];
    if (applied.userEdited) {
      return withRiskNote(applied, { ok: true, llm: describeUserEdit(target.rel, current.lines, lines), data: { path: target.rel, userEdited: true }, display: { summary: "applied with the user's changes" } });
    }
    const headline = changeHeadline(target.rel, range, inserted.length, current.lines.length);
    const from = range.start - RESULT_CONTEXT_LINES;
    const to = range.start + Math.max(inserted.length, 1) - 1 + RESULT_CONTEXT_LINES;
    // The result shows these lines of the new file.
    noteSeen(ctx.session, target.rel, Math.max(1, from), Math.min(lines.length, to), ctx.reply);
    return withRiskNote(applied, {
      ok: true,
      llm: `${headline}; the file now has ${counted(lines.length, "line")}:\n${showLines(lines, from, to)}`,
      data: { path: target.rel, start: range.start, end: range.end, added: inserted.length, total: lines.length },
      // What the diff shows (a replaced range that keeps some lines changes fewer than it spans).
      display: { summary: changeSummary(lineChangeCounts(current.lines, lines)) },
    });
  },
});
