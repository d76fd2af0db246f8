// `ipuaro undo [path] [--session ID] [--json]`: takes back the newest edit of a session (default: the
// project's last session) without the TUI. A file changed since the edit is left alone and the diff shown.
import { analyticsEventsFor } from "../../shadow/events-recorder.js";
import type { Command } from "commander";
import { loadConfig } from "../../config/loader.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { findSession } from "../../session/open-session.js";
import { leaseForChange } from "../../session/session-lease.js";
import type { UndoOutcome } from "../../session/undo-edit.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { resolveProjectRoot } from "../project-root.js";
import { createSessionCheckpoints } from "../../checkpoints/index.js";

interface UndoOptions {
  session?: string;
  json?: boolean;
}

function outcomeJson(outcome: UndoOutcome, sessionId: string | null): object {
  const entry =
    "entry" in outcome
      ? { id: outcome.entry.id, filePath: outcome.entry.filePath, description: outcome.entry.description, tool: outcome.entry.tool, timestamp: outcome.entry.timestamp }
      : undefined;
  return {
    status: outcome.status,
    session: sessionId,
    message: outcome.message,
    ...(entry ? { entry } : {}),
    ...(outcome.status === "undone" ? { action: outcome.action } : {}),
    ...(outcome.status === "refused" ? { diff: outcome.diff } : {}),
  };
}

export function registerUndoCommand(program: Command): void {
  program
    .command("undo")
    .description("undo the newest edit ipuaro applied in a session (default: the project's last session)")
    .argument("[path]", "project root", ".")
    .option("--session <id>", "the session whose edit to undo")
    .option("--json", "print the outcome as JSON")
    .action(async (target: string, opts: UndoOptions) => {
      const root = resolveProjectRoot(target);
      const { config } = loadConfig({ projectRoot: root });
      const opened = await openProjectStore(config, root);
      const indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro undo" });
      try {
        const session = await findSession({ redis: opened.redis, projectName: opened.store.projectName, root, config, id: opts.session ?? null });
        const refreshIndex = async () => void (await indexer.scanAndIndex());
        // Attached so the content undo writes is recorded as ipuaro's own: a later rewind must not take
        // it for a change made by hand (the TUI's /undo has them attached already).
        const checkpoints = session ? createSessionCheckpoints({ session, root, config, store: opened.store, index: { refreshIndex }, onNotice: (m) => process.stderr.write(`ipuaro: ${m}\n`) }) : null;
        let outcome: UndoOutcome;
        try {
          const lease = session ? await leaseForChange(opened.redis, session.id, "ipuaro undo", "Undo it there (Ctrl+Z or /undo in the UI), or close it first.") : null;
          try {
            outcome = session ? await session.undo({ refreshIndex }) : { status: "empty", message: `No sessions in project ${opened.store.projectName}: nothing to undo.` };
          } finally {
            await lease?.release();
          }
        } finally {
          checkpoints?.close();
        }
        if (session && outcome.status === "undone") {
          await analyticsEventsFor(opened.store, root).editReverted({ sessionId: session.id, file: outcome.entry.filePath, via: "undo" });
        }
        if (opts.json) process.stdout.write(`${JSON.stringify(outcomeJson(outcome, session?.id ?? null))}\n`);
        else if (outcome.status === "undone" || outcome.status === "already-undone") process.stdout.write(`${outcome.message}\n`);
        else process.stderr.write(`ipuaro: ${outcome.message}\n${outcome.status === "refused" && outcome.diff ? `${outcome.diff}\n` : ""}`);
        process.exitCode = outcome.status === "undone" || outcome.status === "already-undone" ? 0 : 1;
      } finally {
        await indexer.close();
        await opened.release();
      }
    });
}
