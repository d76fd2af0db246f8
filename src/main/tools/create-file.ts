// create_file: writes a new text file (parent folders included) after the user confirms. It never
// replaces a file: an existing path is edit_lines' job, so nothing the model has not read is overwritten.
// No prior read is needed (there is nothing to read); if the file appears meanwhile, the write fails.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { confirmAndWrite, withRiskNote, resolveWriteTarget, showLines } from "./edit-support.js";
import { looksLineNumbered, textLines } from "./edit-text.js";

/** How much of the user's version of a new file the model is shown. */
const SHOWN_NEW_FILE_LINES = 200;

export const createFile = defineTool({
  name: "create_file",
  category: "edit",
  description:
    "Create a new file with the given content (missing folders are created); the user confirms. Fails if the file exists: change existing files with edit_lines. A final newline is added when content lacks one.",
  parameters: z
    .object({
      path: z.string().min(1).describe("New file path relative to the project root"),
      content: z.string().describe("The whole file content"),
      description: z.string().optional().describe("Why: shown to the user with the diff"),
    })
    .strict(),
  requiresConfirmation: true,
  title: (a) => `create_file ${a.path}`,
  async execute(args, ctx) {
    const target = resolveWriteTarget(ctx.root, args.path);
    if ("ok" in target) return target;
    let existing: fs.Stats | null = null;
    try {
      existing = fs.lstatSync(target.abs);
    } catch (error) {
      // Does not exist: the normal case. A file where a folder of the path should be is not.
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
        const file = fileOnTheWay(target.rel, ctx.root);
        return { ok: false, code: "PATH_INVALID", message: `${file ?? "a part of the path"} is a file, so ${target.rel} cannot be created under it; choose another path` };
      }
    }
    if (existing) {
      return {
        ok: false,
        code: "CONFLICT",
        message: existing.isDirectory()
          ? `${target.rel} is a folder; choose a file path inside it`
          : `${target.rel} already exists; to change it, read it with get_lines and use edit_lines`,
      };
    }
    const lines = textLines(args.content);
    if (looksLineNumbered(lines)) {
      return { ok: false, code: "INVALID_ARGS", message: "content starts every line with a line number (`12│ `) copied from get_lines; send only the code" };
    }
    const content = args.content === "" || /\n$/.test(args.content) ? args.content : `${args.content}${args.content.includes("\r\n") ? "\r\n" : "\n"}`;

    const applied = await confirmAndWrite(ctx, { tool: "create_file", target, before: null, after: content, description: args.description });
    if (!applied.ok) return applied;
    const written = applied.afterLines ?? [];
    const count = args.content === "" && !applied.userEdited ? 0 : written.length;
    const headline = `created ${target.rel} (${count} line${count === 1 ? "" : "s"})`;
    if (!applied.userEdited) return withRiskNote(applied, { ok: true, llm: headline, data: { path: target.rel, lines: count }, display: { summary: `+${count}` } });
    return withRiskNote(applied, {
      ok: true,
      llm: `${headline}. The user edited the content before creating it; it reads:\n${showLines(written, 1, SHOWN_NEW_FILE_LINES)}`,
      data: { path: target.rel, lines: count, userEdited: true },
      display: { summary: `+${count} (edited by the user)` },
    });
  },
});

/** The first folder of `rel`'s path that is a file on disk (why the path cannot be created), if any. */
function fileOnTheWay(rel: string, root: string): string | null {
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    try {
      if (!fs.lstatSync(path.join(root, prefix)).isDirectory()) return prefix;
    } catch {
      return null;
    }
  }
  return null;
}
