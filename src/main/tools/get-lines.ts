// get_lines: a file's lines from the index's copy in Redis (kept fresh by the watcher, and checked against
// the disk first), numbered.
import { z } from "zod";
import { defineTool, MAX_TOOL_OUTPUT_CHARS } from "./define-tool.js";
import { notTextFailure, readToolFile } from "./disk-read.js";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { freshStoredFile } from "./fresh-file.js";
import { rememberRead } from "./read-snapshots.js";
import { noteSeen } from "./seen-ranges.js";
import { numberLines, toolPath } from "./tool-paths.js";
import { textLines } from "./edit-text.js";
import { counted } from "../plural.js";

/** Lines returned in one call when no end is given; the model can page with start/end. */
export const DEFAULT_LINE_WINDOW = 400;

/** Room for the header and the paging line within the output cap. */
const OUTPUT_MARGIN = 300;

/**
 * The last line of start..end that still fits the output cap, whole lines only (at least one): cut by
 * the cap, the last line came out half and the paging hint was lost.
 */
function linesThatFit(lines: readonly string[], start: number, end: number): number {
  const width = String(end).length + 2;
  let used = 0;
  for (let n = start; n <= end; n++) {
    used += width + (lines[n - 1] as string).length + 1;
    if (used > MAX_TOOL_OUTPUT_CHARS - OUTPUT_MARGIN && n > start) return n - 1;
  }
  return end;
}

export const getLines = defineTool({
  name: "get_lines",
  category: "read",
  description:
    "Read lines of a file, numbered. Without start/end it returns the first 400 lines; pass start and end (1-based, inclusive) to read a range. Paths are relative to the project root.",
  parameters: z
    .object({
      path: z.string().min(1).describe("File path relative to the project root"),
      start: z.number().int().min(1).optional().describe("First line (1-based)"),
      end: z.number().int().min(1).optional().describe("Last line (inclusive)"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `get_lines ${a.path}${a.start || a.end ? ` ${a.start ?? 1}-${a.end ?? ""}` : ""}`,
  async execute(args, ctx) {
    const p = toolPath(ctx.root, args.path, { mustExist: false });
    if (!p.ok) return p;
    if (args.start && args.end && args.end < args.start) {
      return { ok: false, code: "INVALID_ARGS", message: `end (${args.end}) is before start (${args.start})` };
    }
    const start = args.start ?? 1;
    let lines: string[];
    let total: number;
    const stored = await freshStoredFile(ctx, p.rel, p.abs);
    if (stored?.kind === "binary") return { ok: false, code: "NOT_TEXT", message: `${p.rel} is a binary file (${stored.size} bytes); it has no lines to read` };
    if (stored?.kind === "symlink") return { ok: false, code: "NOT_TEXT", message: `${p.rel} is a symlink to ${stored.target}; read the target instead` };
    if (stored?.kind === "text") {
      lines = stored.lines;
      total = lines.length;
      rememberRead(ctx.session, p.rel, stored.hash, lines); // edits compare the file against what the model saw
    } else {
      // Not in the index (e.g. README.md, an ignored file): read it from disk if it is a regular text file.
      // p.real: the path with its symlinks resolved (and checked to stay inside the root).
      const read = await readToolFile(p.rel, p.real, {
        missing: `${p.rel} does not exist. Use get_structure to see the files.`,
        folder: `${p.rel} is a folder; give a file path (get_structure ${p.rel} lists its files)`,
        tooLarge: `read part of it with run_command, e.g. \`sed -n '1,200p' ${p.rel}\` or \`tail -n 200 ${p.rel}\``,
      });
      if (!read.ok) return read;
      const buf = read.bytes;
      const notText = notTextFailure(p.rel, buf, "; get_lines reads UTF-8 text only");
      if (notText) return notText;
      try {
        lines = textLines(new TextDecoder("utf-8", { fatal: true }).decode(buf));
      } catch {
        return { ok: false, code: "NOT_TEXT", message: `${p.rel} is not UTF-8 text` };
      }
      total = lines.length;
      rememberRead(ctx.session, p.rel, await hashContent(buf), lines);
    }
    if (total === 0) return { ok: true, llm: `${p.rel} is empty (0 lines)`, display: { summary: "empty file" } };
    if (start > total) return { ok: false, code: "INVALID_ARGS", message: `${p.rel} has ${total} lines; start ${start} is past the end` };
    const asked = Math.min(args.end ?? start + DEFAULT_LINE_WINDOW - 1, total);
    const end = linesThatFit(lines, start, asked);
    noteSeen(ctx.session, p.rel, start, end, ctx.reply);
    const body = numberLines(lines.slice(start - 1, end), start);
    const more = end < total ? `\n[lines ${start}-${end} of ${total}${end < asked ? " (as much of the range as fits in one answer)" : ""}; ask for start=${end + 1} to read on]` : "";
    return {
      ok: true,
      llm: `${p.rel} (lines ${start}-${end} of ${total})\n${body}${more}`,
      data: { path: p.rel, start, end, total },
      display: { summary: counted(end - start + 1, "line") },
    };
  },
});
