// `ipuaro tool NAME '<json args>' [path]`: runs one registered tool directly, with the same validation
// and security as when the model calls it. Edits and commands ask on a terminal; --yes applies.
import type { Command } from "commander";
import { loadConfig } from "../../config/loader.js";
import { FatalError } from "../../errors.js";
import { escapeForDisplay } from "../../security/hidden-characters.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { refuseFirstIndexOfHome } from "../../indexing/index-root.js";
import { openSession, transientSession } from "../../session/open-session.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { createSessionCheckpoints } from "../../checkpoints/index.js";
import { markReadAsOnDisk } from "../../tools/edit-support.js";
import { ToolRegistry } from "../../tools/registry.js";
import type { ToolPorts } from "../../tools/tool-types.js";
import { askChoice } from "../prompt.js";
import { resolveProjectRoot } from "../project-root.js";
import { firstIndexNote, withSlowIndexNote } from "./first-index-note.js";
import { toolArgsProblem } from "./tool-args-check.js";

interface ToolOptions {
  json?: boolean;
  yes?: boolean;
}

function cliPorts(yes: boolean): ToolPorts {
  const interactive = !!process.stdin.isTTY;
  return {
    async confirmEdit(p) {
      if (yes) return { action: "apply", auto: true };
      if (!interactive) return { action: "reject", unattended: true, reason: "to apply it without a terminal to confirm on, pass --yes" };
      process.stderr.write(`${p.backupWarning ? `warning: ${p.backupWarning}\n` : ""}${p.generatedWarning ? `warning: ${p.generatedWarning}\n` : ""}${p.description ? `${p.description}\n` : ""}${p.diff}\n`);
      const c = await askChoice(`apply this change to ${p.path}?`, { y: "apply", n: "reject" });
      return c === "y" ? { action: "apply" } : { action: "reject", reason: "rejected by the user" };
    },
    async confirmCommand(p) {
      if (yes) return "once";
      if (!interactive) {
        process.stderr.write(`ipuaro: '${escapeForDisplay(p.command)}' needs confirmation and there is no terminal to ask on; pass --yes to run it\n`);
        return "unattended";
      }
      const c = await askChoice(`run '${escapeForDisplay(p.command)}'? (${p.reason})`, { y: "once", n: "no" });
      return c === "y" ? "once" : "no";
    },
    async resolveConflict(p) {
      // A direct tool run has no model to regenerate; apply only when told to.
      if (yes) return "apply";
      if (!interactive) return "skip";
      process.stderr.write(`${p.path} changed on disk since it was read:\n${p.diff}\n`);
      const c = await askChoice(`apply on top of the change to ${p.path}?`, { a: "apply", s: "skip" });
      return c === "a" ? "apply" : "skip";
    },
  };
}

export function registerToolCommand(program: Command): void {
  const registry = new ToolRegistry();
  program
    .command("tool")
    .description(`run one model tool directly: ${registry.names().join(", ")}`)
    .argument("<name>", "tool name")
    .argument("[args]", "arguments as a JSON object", "{}")
    .argument("[path]", "project root", ".")
    .option("--json", "print the full result as JSON")
    .option("-y, --yes", "apply edits and run asked-for commands without asking")
    .action(async (name: string, rawArgs: string, target: string, opts: ToolOptions) => {
      const tool = registry.get(name);
      if (!tool) throw new FatalError(`unknown tool ${name}; available: ${registry.names().join(", ")}`, 2);
      let args: unknown;
      try {
        args = JSON.parse(rawArgs);
      } catch (err) {
        throw new FatalError(`arguments must be a JSON object, e.g. '{"path": "src/index.ts"}': ${(err as Error).message}`, 2);
      }
      // Checked before the store is opened and the project indexed: a wrong argument is said at once.
      const problem = toolArgsProblem(tool, args);
      if (problem) throw new FatalError(problem, 2);
      const root = resolveProjectRoot(target);
      const { config } = loadConfig({ projectRoot: root });
      const opened = await openProjectStore(config, root);
      const indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro tool" });
      let releaseLease: () => Promise<void> | undefined = () => undefined;
      try {
        // The tool reads the index: bring it up to date first (a warm run parses only what changed).
        await refuseFirstIndexOfHome(root, opened.store);
        await withSlowIndexNote("the tool runs", () => indexer.scanAndIndex({ proceed: firstIndexNote(opened.store, config.limits.maxFilesWarning, "the tool runs") }));
        // Edits and commands run here join the project's last session, so `ipuaro undo` and `rewind` can
        // take them back (a new session's, when the last one is open in the UI). A read needs none: it
        // left an empty session behind that then passed for the project's last one.
        const sessionOpts = { redis: opened.redis, projectName: opened.store.projectName, root, config };
        let session;
        let createdSession = false;
        if (changesFiles(tool)) {
          const taken = await openSession({ ...sessionOpts, choice: { kind: "last" }, lease: "ipuaro tool" });
          session = taken.session;
          createdSession = taken.created;
          releaseLease = () => taken.lease?.release();
        } else session = transientSession(sessionOpts);
        const services = session.toolServices({
          refreshIndex: async () => void (await indexer.scanAndIndex()),
          // No watcher runs during a one-off tool call, so there is nobody to tell about our own writes.
          registerOwnWrite: () => {},
        });
        const ctx = { root, config, store: opened.store, ports: cliPorts(!!opts.yes), session: session.toolState, services };
        // Whoever runs an edit here sees the file as it is on disk; the read-first rule is for the model.
        const editPath = tool.category === "edit" && args && typeof args === "object" ? (args as { path?: unknown }).path : undefined;
        if (typeof editPath === "string") await markReadAsOnDisk(ctx, editPath);
        // Writes are recorded as ipuaro's own, as in a session's turns, so a later rewind does not take
        // them for changes made by hand.
        const checkpoints = changesFiles(tool) ? createSessionCheckpoints({ session, root, config, store: opened.store, index: { refreshIndex: async () => void (await indexer.scanAndIndex()) } }) : null;
        let result;
        try {
          result = await tool.run("cli", args, ctx);
        } finally {
          checkpoints?.close();
        }
        // A session started for an edit or command that then did nothing (declined, refused, a wrong
        // range) would pass for the project's last one, empty: it goes again.
        if (createdSession && !result.success && didNothing(tool, result.code)) await session.store.delete(session.id).catch(() => false);
        if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
        else if (result.success) process.stdout.write(`${result.display.details ?? result.data ?? ""}\n`);
        else process.stderr.write(`${result.code}: ${readableError(result.error ?? "")}\n`);
        process.exitCode = result.success ? 0 : 1;
      } finally {
        await releaseLease();
        await indexer.close();
        await opened.release();
      }
    });
}

/** Tools whose effects a session records for undo and rewind: edits, commands, commits. */
function changesFiles(tool: { name: string; category: string }): boolean {
  return tool.category === "edit" || tool.category === "run" || tool.name === "git_commit";
}

/**
 * A failed edit writes nothing (edits are applied whole or not at all); a command or commit that was
 * refused or declined never ran. Any other failed command may have run and changed files.
 */
function didNothing(tool: { category: string }, code: string | undefined): boolean {
  return tool.category === "edit" || code === "DENIED" || code === "REJECTED";
}

/**
 * The memory and analytics tools answer the model with the design's JSON error envelope; a person reads
 * its message (and its code, for looking it up).
 */
function readableError(error: string): string {
  if (!error.startsWith("{")) return error;
  try {
    const envelope = JSON.parse(error) as { code?: unknown; message?: unknown };
    if (typeof envelope.message === "string") return typeof envelope.code === "string" ? `${envelope.message} (${envelope.code})` : envelope.message;
  } catch {
    // Not JSON after all: shown as it is.
  }
  return error;
}
