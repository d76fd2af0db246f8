// delete_file: removes a text file after the user confirms (the dialog shows its whole content as a
// diff, and the undo entry keeps it). A prior read is not required — the model often deletes a file it
// knows from the structure — but if it did read the file and the file changed since, the user decides.
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { askAboutStaleRead, confirmAndWrite, withRiskNote, readDiskText, regenerateConflict, resolveWriteTarget, skippedAfterConflict } from "./edit-support.js";

export const deleteFile = defineTool({
  name: "delete_file",
  category: "edit",
  description: "Delete a text file; the user confirms. Folders, binary files and symlinks are not deleted.",
  parameters: z
    .object({
      path: z.string().min(1).describe("File path relative to the project root"),
      description: z.string().optional().describe("Why: shown to the user with the diff"),
    })
    .strict(),
  requiresConfirmation: true,
  title: (a) => `delete_file ${a.path}`,
  async execute(args, ctx) {
    const target = resolveWriteTarget(ctx.root, args.path);
    if ("ok" in target) return target;
    const current = await readDiskText(target);
    if ("ok" in current) return current;
    const seenHash = ctx.session.readLedger.get(target.rel);
    if (seenHash !== undefined && seenHash !== current.hash) {
      const stale = await askAboutStaleRead(ctx, target, seenHash, current);
      if (stale.decision === "skip") return skippedAfterConflict(target.rel);
      if (stale.decision === "regenerate") {
        return regenerateConflict(ctx, target.rel, current, { start: 1, end: current.lines.length }, `${target.rel} changed on disk since you read it; decide again whether to delete it`);
      }
    }

    const applied = await confirmAndWrite(ctx, { tool: "delete_file", target, before: current, after: null, description: args.description });
    if (!applied.ok) return applied;
    if (applied.text !== null) {
      const n = applied.afterLines?.length ?? 0;
      return {
        ok: true,
        llm: `The user kept ${target.rel} and replaced its content instead of deleting it; it now has ${n} lines. Read it with get_lines if you need it.`,
        data: { path: target.rel, deleted: false, userEdited: true },
        display: { summary: "kept with the user's content" },
      };
    }
    const n = current.lines.length;
    return withRiskNote(applied, { ok: true, llm: `deleted ${target.rel} (${n} line${n === 1 ? "" : "s"})`, data: { path: target.rel, deleted: true }, display: { summary: `-${n}` } });
  },
});
