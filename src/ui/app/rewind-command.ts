// `/rewind` (and Esc Esc): the list of points → the confirm panel → the rewind; `/rewind N [mode]` goes
// straight to the confirm panel with that mode preselected. The outcome is a notice in the chat and the
// rewound message becomes the input's draft. Git is never touched: HEAD-moved commands are only shown.
import { REWIND_MODES, describeSkip, type RewindMode, type RewindResult } from "../../main/checkpoints/index.js";
import { confirmRewind, firstLine, pickRewindPoint } from "../dialogs/rewind-dialogs.js";
import type { CommandHost } from "./slash-commands.js";

/** Short names accepted after `/rewind N`. */
const MODE_ALIASES: Record<string, RewindMode> = {
  both: "both",
  conversation: "conversation",
  code: "code",
  "summarize-from-here": "summarize-from-here",
  "summarize-up-to-here": "summarize-up-to-here",
};

export function parseRewindArgs(args: string): { n: number | null; mode: RewindMode | null } {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return { n: null, mode: null };
  if (words.length > 2 || !/^\d+$/.test(words[0]!)) throw new Error(`usage: /rewind [N] [${REWIND_MODES.join("|")}] (got "${args.trim()}")`);
  const n = Number(words[0]);
  if (!words[1]) return { n, mode: null };
  const mode = MODE_ALIASES[words[1].toLowerCase()];
  if (!mode) throw new Error(`unknown rewind mode "${words[1]}" (use ${REWIND_MODES.join(", ")})`);
  return { n, mode };
}

export async function runRewindCommand(host: CommandHost, args: string): Promise<void> {
  const service = host.backend.rewind;
  if (!service) return host.notice("info", "Rewind is not available in this session.");
  const { n, mode } = parseRewindArgs(args);
  let target = n;
  if (target === null) {
    const points = await service.pointsWithStats();
    if (!points.length) return host.notice("info", "Nothing to rewind yet: this conversation has no messages.");
    const picked = await pickRewindPoint(host.modals, points);
    if (!picked) return;
    target = picked.n;
  }
  const preview = await service.preview(target);
  const choice = await confirmRewind(host.modals, { preview, ...(mode ? { mode } : {}) });
  if (!choice) return;
  const result = await service.rewind({ point: target, mode: choice.mode, onConflict: choice.onConflict });
  host.clearChat();
  host.sessionChanged();
  const problems = result.conflicts.length > 0 || result.skipped.length > 0 || otherWarnings(result).length > 0;
  host.notice(problems ? "warn" : "info", rewindReport(result));
  if (result.draft !== null) host.setDraft(result.draft);
}

/** Warnings other than the files not restored (those are listed on their own). */
export function otherWarnings(r: RewindResult): string[] {
  const skips = new Set(r.skipped.map(describeSkip));
  return r.warnings.filter((w) => !skips.has(w));
}

/** The notice after a rewind: what was restored, deleted, left alone, and the notes for the model. */
export function rewindReport(r: RewindResult): string {
  const lines = [`Rewound ${r.mode} to before message ${r.point.n}: ${firstLine(r.point.message)}`];
  const list = (label: string, items: readonly string[]) => items.length && lines.push(`${label}: ${items.join(", ")}`);
  list("Restored", r.restored);
  list("Deleted", r.deleted);
  list("Removed empty folders (their created files were deleted)", (r.removedFolders ?? []).map((d) => `${d}/`));
  list("Conflicts left as they are (changed outside ipuaro since)", r.conflicts);
  if (r.skipped.length) lines.push("Not restored:", ...r.skipped.map((s) => `- ${describeSkip(s)}`));
  const warnings = otherWarnings(r);
  for (const w of warnings) lines.push(`Warning: ${w}`);
  if ((r.mode === "both" || r.mode === "code") && !r.changes.length && !r.conflicts.length && !r.skipped.length && !warnings.length) lines.push("The files were already as they were then.");
  // The notes are in the conversation, shown there: repeated here they read twice.
  if (r.notes.length) lines.push("A note in the conversation tells the model what changed.");
  if (r.git) lines.push("Git HEAD moved since then; ipuaro does not touch git. You could run:", ...r.git.commands.map((c) => `    ${c}`));
  if (r.draft !== null) lines.push("The message is back in the input.");
  return lines.join("\n");
}
