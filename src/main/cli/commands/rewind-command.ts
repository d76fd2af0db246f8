// `ipuaro rewind [N] [path] [--session ID] [--list] [--mode both|conversation|code] [--dry-run]
// [--on-conflict skip|overwrite] [--json]`: back to the state just before user message N of a session
// (default: the project's last), without the TUI. `--list` shows the points with `N files +x −y`.
// Git is never touched; when HEAD moved since the checkpoint the commands a user could run are shown.
// Exit 0 for a clean rewind (and --list, --dry-run), REWIND_FILES_LEFT_EXIT when it was done but some
// files were left as conflicts or could not be restored, 1 on an error, 2 on bad arguments.
import { analyticsEventsFor } from "../../shadow/events-recorder.js";
import type { Command } from "commander";
import { createSessionCheckpoints, describeSkip, type RewindPointStats, type RewindResult } from "../../checkpoints/index.js";
import { loadConfig } from "../../config/loader.js";
import { FatalError } from "../../errors.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { findSession } from "../../session/open-session.js";
import { leaseForChange } from "../../session/session-lease.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { resolveProjectRoot } from "../project-root.js";

type CliMode = "both" | "conversation" | "code";

/**
 * The rewind was done but left files as they are (conflicts, or not restorable): a script must not take
 * it for a clean rewind (0) nor for a failure that changed nothing (1: the conversation may have moved).
 */
export const REWIND_FILES_LEFT_EXIT = 3;
const CLI_MODES: readonly CliMode[] = ["both", "conversation", "code"];

interface RewindOptions {
  session?: string;
  list?: boolean;
  mode: string;
  dryRun?: boolean;
  onConflict: string;
  json?: boolean;
}

function firstLine(text: string, max = 60): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function pointStatsText(p: Pick<RewindPointStats, "hasCheckpoint" | "files" | "insertions" | "deletions" | "unrestorable">): string {
  if (!p.hasCheckpoint) return "no checkpoint (conversation only)";
  if (p.files === 0) return "no code changes";
  const files = `${p.files} file${p.files === 1 ? "" : "s"}`;
  const unrestorable = p.unrestorable ?? 0;
  if (unrestorable === p.files) return `${files} it cannot restore`;
  return `${files} +${p.insertions} −${p.deletions}${unrestorable ? `, ${unrestorable} it cannot restore` : ""}`;
}

function listText(points: RewindPointStats[]): string {
  if (points.length === 0) return "No user messages in this session: nothing to rewind.";
  const rows = points.map((p) => `${String(p.n).padStart(3)}  ${new Date(p.at).toISOString().replace("T", " ").slice(0, 16)}  ${firstLine(p.message).padEnd(60)}  ${pointStatsText(p)}`);
  return [...rows, "", "`ipuaro rewind N` goes back to just before message N (--mode both|conversation|code, --dry-run to preview)."].join("\n");
}

/** Files of each kind (restored, conflicts, not restored) named one per line; the rest are counted. */
const LISTED_PER_KIND = 50;

const DONE: Record<RewindResult["changes"][number]["action"], string> = { restore: "restored", create: "recreated", delete: "deleted" };

/** One line with the counts: what a long list of files came to, as seed 002 §4's result notice. */
function summaryLine(r: RewindResult): string | null {
  const count = (action: string) => r.changes.filter((c) => c.action === action).length;
  const done = (["restore", "create", "delete"] as const).filter((a) => count(a) > 0).map((a) => `${count(a)} ${DONE[a]}`);
  const left: string[] = [];
  if (r.conflicts.length) left.push(`${r.conflicts.length} conflict${r.conflicts.length === 1 ? "" : "s"} left as ${r.conflicts.length === 1 ? "it is" : "they are"}`);
  if (r.skipped.length) left.push(`${r.skipped.length} not restored`);
  if (done.length + left.length === 0) return null;
  const head = done.length ? `${r.dryRun ? "Would be" : "Files"} ${done.join(", ")}` : r.dryRun ? "No file would change" : "No file changed";
  return `${head}${left.length ? `; ${left.join("; ")}` : ""}.`;
}

/** One line per outermost removed folder (everything inside it went too). */
function removedFolderLines(removed: readonly string[]): string[] {
  const set = new Set(removed);
  const tops = removed.filter((d) => !d.includes("/") || !set.has(d.slice(0, d.lastIndexOf("/"))));
  return tops.map((top) => {
    const inside = removed.filter((d) => d.startsWith(`${top}/`)).length;
    return `removed empty folder ${top}/${inside ? ` and the ${inside} inside it` : ""} (the files created there were deleted)`;
  });
}

export function rewindResultText(r: RewindResult): string {
  const lines: string[] = [];
  if (r.mode !== "conversation") {
    // A rewind of thousands of files (a command's output) lists the first ones; the summary counts all.
    const listed = <T>(items: readonly T[], line: (item: T) => string) => {
      for (const item of items.slice(0, LISTED_PER_KIND)) lines.push(line(item));
      if (items.length > LISTED_PER_KIND) lines.push(`  … and ${(items.length - LISTED_PER_KIND).toLocaleString("en-US")} more (--json lists every one)`);
    };
    listed(r.changes, (c) => `${r.dryRun ? `would ${c.action}` : DONE[c.action]} ${c.path} (+${c.insertions} −${c.deletions})`);
    lines.push(...removedFolderLines(r.removedFolders ?? []));
    const skips = new Set(r.skipped.map(describeSkip));
    const warnings = r.warnings.filter((w) => !skips.has(w));
    // With conflicts or skips the summary line says that nothing changed.
    if (r.changes.length === 0 && !r.conflicts.length && !r.skipped.length && !warnings.length) lines.push("The files already are as they were: no code changes.");
    for (const w of warnings) lines.push(`warning: ${w}`);
    listed(r.conflicts, (p) => `conflict: ${p} changed since by you, another program or a command ipuaro ran; left as it is (--on-conflict overwrite to restore it anyway)`);
    listed(r.skipped, (s) => `not restored: ${describeSkip(s)}`);
    const summary = summaryLine(r);
    if (summary) lines.push(summary);
  }
  if (r.mode !== "code") lines.push(r.dryRun ? `Would rewind the conversation to before message ${r.point.n}.` : `Conversation rewound to before message ${r.point.n}.`);
  if (r.draft !== null) lines.push(`Your message, to edit and send again:\n${r.draft}`);
  if (r.git) lines.push(`git HEAD moved since this checkpoint (ipuaro does not change git). You could run:\n${r.git.commands.map((c) => `  ${c}`).join("\n")}`);
  return lines.join("\n");
}

function parseArgs(n: string | undefined, target: string | undefined, opts: RewindOptions): { n: number | null; target: string | undefined; mode: CliMode; onConflict: "skip" | "overwrite" } {
  // `ipuaro rewind --list path` puts the path where N goes.
  if (n !== undefined && !/^\d+$/.test(n)) {
    if (target !== undefined) throw new FatalError(`N must be a whole number, got ${JSON.stringify(n)}`, 2);
    target = n;
    n = undefined;
  }
  if (!CLI_MODES.includes(opts.mode as CliMode)) throw new FatalError(`--mode must be one of ${CLI_MODES.join(", ")}, got ${JSON.stringify(opts.mode)}`, 2);
  if (opts.onConflict !== "skip" && opts.onConflict !== "overwrite") throw new FatalError(`--on-conflict must be skip or overwrite, got ${JSON.stringify(opts.onConflict)}`, 2);
  const parsed = n === undefined ? null : Number(n);
  if (parsed !== null && parsed < 1) throw new FatalError("N starts at 1 (see --list)", 2);
  if (!opts.list && parsed === null) throw new FatalError("give the message number N to rewind to (see `ipuaro rewind --list`)", 2);
  return { n: parsed, target, mode: opts.mode as CliMode, onConflict: opts.onConflict };
}

export function registerRewindCommand(program: Command): void {
  program
    .command("rewind")
    .description("go back to just before user message N of a session: code, conversation or both (git is never touched)")
    .argument("[n]", "the user message to go back before (see --list)")
    // No default: a lone positional that is not a number is the path (`ipuaro rewind --list .`).
    .argument("[path]", "project root (default: .)")
    .option("--session <id>", "the session (default: the project's last)")
    .option("--list", "list the rewind points with what a code rewind to each would change")
    .option("--mode <mode>", "both | conversation | code", "both")
    .option("--dry-run", "show what would be restored, change nothing")
    .option("--on-conflict <what>", "files changed since by anything but ipuaro's edits (you, another program, a command it ran): skip (default) or overwrite", "skip")
    .option("--json", "print JSON")
    .action(async (nArg: string | undefined, targetArg: string | undefined, opts: RewindOptions) => {
      const args = parseArgs(nArg, targetArg, opts);
      const root = resolveProjectRoot(args.target);
      const { config } = loadConfig({ projectRoot: root });
      const opened = await openProjectStore(config, root);
      const indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro rewind" });
      try {
        const session = await findSession({ redis: opened.redis, projectName: opened.store.projectName, root, config, id: opts.session ?? null });
        if (!session) throw new FatalError(`no sessions in project ${opened.store.projectName}: nothing to rewind`, 1);
        const checkpoints = createSessionCheckpoints({
          session,
          root,
          config,
          store: opened.store,
          // A warm re-index is cheap: only the restored files are parsed again.
          index: { refreshIndex: async () => void (await indexer.scanAndIndex()) },
          onNotice: (m) => process.stderr.write(`ipuaro: ${m}\n`),
          onFilesReverted: async (paths) => {
            const analytics = analyticsEventsFor(opened.store, root);
            for (const file of paths) await analytics.editReverted({ sessionId: session.id, file, via: "rewind" });
          },
        });
        if (opts.list) {
          const points = await checkpoints.rewind.pointsWithStats();
          if (opts.json) {
            const out = points.map((p) => ({ n: p.n, entryId: p.entryId, message: p.message, at: p.at, files: p.files, unrestorable: p.unrestorable ?? 0, insertions: p.insertions, deletions: p.deletions }));
            process.stdout.write(`${JSON.stringify({ points: out })}\n`);
          } else process.stdout.write(`session ${session.id}\n${listText(points)}\n`);
          return;
        }
        // A real rewind waits for no one: the UI or a run with the session open would put its own
        // conversation head back over it.
        const lease = opts.dryRun ? null : await leaseForChange(opened.redis, session.id, "ipuaro rewind", "Rewind it there (double Esc or /rewind in the UI), or close it first.");
        let result;
        try {
          result = await checkpoints.rewind.rewind({ point: args.n!, mode: args.mode, dryRun: !!opts.dryRun, onConflict: args.onConflict });
        } finally {
          await lease?.release();
        }
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ restored: result.restored, deleted: result.deleted, conflicts: result.conflicts, skipped: result.skipped, warnings: result.warnings })}\n`);
          // What JSON leaves out still matters to a person reading the terminal.
          if (result.git) process.stderr.write(`ipuaro: git HEAD moved since this checkpoint; you could run: ${result.git.commands.join(" ; ")}\n`);
        } else process.stdout.write(`${rewindResultText(result)}\n`);
        // A preview changes nothing, so it is never "left" anything: 0, whatever it lists.
        const leftFiles = !result.dryRun && (result.conflicts.length > 0 || result.skipped.length > 0);
        process.exitCode = leftFiles ? REWIND_FILES_LEFT_EXIT : 0;
      } finally {
        await indexer.close();
        await opened.release();
      }
    });
}
