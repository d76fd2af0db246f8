// `ipuaro sessions [list | show ID | delete ID | prune] [path] [--json]`: the project's saved conversations
// (prune: the checkpoint backups and shadow-git snapshots no session needs any more).
import { describeHolder, leaseForChange, SessionLease } from "../../session/session-lease.js";
import type { Command } from "commander";
import { collectGarbage, collectShadowGarbage, formatBytes, type GcReport, type ShadowGcReport } from "../../checkpoints/index.js";
import { ipuaroHome } from "../../config/paths.js";
import { counted } from "../../plural.js";
import { loadConfig } from "../../config/loader.js";
import { sessionNotFound, sessionStoreFor } from "../../session/open-session.js";
import { formatSession, formatSessionList, sessionJson } from "../../session/session-report.js";
import { isValidSessionId, type SessionStore } from "../../session/session-store.js";
import { UndoStack } from "../../session/undo-stack.js";
import { openProjectStore, type OpenedProjectStore } from "../../store/open-project-store.js";
import { resolveProjectRoot } from "../project-root.js";

interface JsonOption {
  json?: boolean;
}

async function withSessions<T>(
  target: string | undefined,
  fn: (sessions: SessionStore, opened: OpenedProjectStore, config: ReturnType<typeof loadConfig>["config"], root: string) => Promise<T>,
): Promise<T> {
  const root = resolveProjectRoot(target);
  const { config } = loadConfig({ projectRoot: root });
  const opened = await openProjectStore(config, root);
  try {
    return await fn(sessionStoreFor(opened.redis, opened.store.projectName, config), opened, config, root);
  } finally {
    await opened.release();
  }
}

/** Backups no session refers to, then (unless another Redis shares the file history) the project's shadow-git snapshots of gone sessions. */
async function freeFileHistory(redis: OpenedProjectStore["redis"], root: string): Promise<{ blobs: GcReport; shadow: ShadowGcReport | null }> {
  const home = ipuaroHome();
  const blobs = await collectGarbage(redis, { home });
  const shadow = blobs.sharedWith?.length ? null : await collectShadowGarbage(redis, { home, root });
  return { blobs, shadow };
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function registerSessionsCommand(program: Command): void {
  const sessions = program.command("sessions").description("list, show, delete or prune the project's saved sessions");

  sessions
    .command("list", { isDefault: true })
    .description("the project's sessions, most recently active first")
    .argument("[path]", "project root", ".")
    .option("--json", 'print {"sessions": [{id, createdAt, lastActivityAt, messages, title, openIn?}]}')
    .action(async (target: string, opts: JsonOption) => {
      await withSessions(target, async (store, opened) => {
        // A session another ipuaro has open is named with who has it: show, undo and rewind of it are refused.
        const list = await Promise.all(
          (await store.list()).map(async (s) => {
            const holder = await SessionLease.holder(opened.redis, s.id).catch(() => null);
            return holder ? { ...s, openIn: describeHolder(holder) } : s;
          }),
        );
        print(opts.json ? JSON.stringify({ sessions: list }) : formatSessionList(store.projectName, list));
      });
    });

  sessions
    .command("show")
    .description("one session's conversation (active branch), stats and context")
    .argument("<id>", "session id (see `ipuaro sessions list`)")
    .argument("[path]", "project root", ".")
    .option("--json", "print the session as JSON")
    .action(async (id: string, target: string, opts: JsonOption) => {
      await withSessions(target, async (store, opened, config) => {
        const state = await store.load(id);
        if (!state) throw sessionNotFound(id, store.projectName);
        const undo = await new UndoStack(opened.redis, id, config.undo.stackSize).list();
        const json = sessionJson(state, undo);
        print(opts.json ? JSON.stringify(json) : formatSession(json));
      });
    });

  sessions
    .command("delete")
    .description("delete a session, its history and its undo stack (files on disk are not touched)")
    .argument("<id>", "session id")
    .argument("[path]", "project root", ".")
    .option("--json", 'print {"deleted": id}')
    .action(async (id: string, target: string, opts: JsonOption) => {
      await withSessions(target, async (store, opened, _config, root) => {
        // An id no session can have ("x y", "*") is not one to lock, only one that is not there.
        if (!isValidSessionId(id)) throw sessionNotFound(id, store.projectName);
        const lease = await leaseForChange(opened.redis, id, "ipuaro sessions delete", "Close it there first.");
        try {
          if (!(await store.delete(id))) throw sessionNotFound(id, store.projectName);
        } finally {
          await lease.release();
        }
        // Checkpoint backups and shadow-git snapshots only this session needed go too (after a day's
        // grace, see blob-gc.ts and shadow-gc.ts).
        await freeFileHistory(opened.redis, root).catch(() => null);
        print(opts.json ? JSON.stringify({ deleted: id }) : `deleted session ${id}`);
      });
    });

  sessions
    .command("prune")
    .description("free the file history: delete checkpoint backups no session refers to (older than a day) and the shadow-git snapshots of deleted or expired sessions")
    .argument("[path]", "project root", ".")
    .option("--json", 'print {"removedBlobs", "freedBytes", "keptBlobs", "keptBytes", "sharedWith"?, "shadow"?: {"removedSessions", "keptSessions", "freedBytes"}}')
    .action(async (target: string, opts: JsonOption) => {
      await withSessions(target, async (_store, opened, _config, root) => {
        const { blobs: r, shadow } = await freeFileHistory(opened.redis, root);
        if (opts.json) return print(JSON.stringify(shadow ? { ...r, shadow } : r));
        if (r.sharedWith?.length) {
          // Nothing removed, on purpose: another Redis's checkpoints may need these backups.
          return print(
            [
              `removed nothing: this file history is shared with ${counted(r.sharedWith.length, "other Redis database")}, whose checkpoints may still need its ${counted(r.keptBlobs, "backup")} (${formatBytes(r.keptBytes)}).`,
              "Once that Redis is gone for good, delete its marker and prune again:",
              ...r.sharedWith.map((m) => `  ${m}`),
            ].join("\n"),
          );
        }
        print(`removed ${counted(r.removedBlobs, "backup")}, freed ${formatBytes(r.freedBytes)}; ${r.keptBlobs} kept (${formatBytes(r.keptBytes)})`);
        if (shadow) {
          const kept = `snapshots of ${counted(shadow.keptSessions, "session")} kept`;
          print(shadow.removedSessions ? `shadow-git: dropped the snapshots of ${counted(shadow.removedSessions, "deleted session")}, freed ${formatBytes(shadow.freedBytes)}; ${kept}` : `shadow-git: ${kept}`);
        }
      });
    });
}
