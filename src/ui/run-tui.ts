// `ipuaro [path]`: the full-screen session. Before the screen: config, Redis and the model check (which
// may ask to pull the model on the plain terminal). Then the UI comes up at once and the project is
// indexed inside it (progress bar; the size question above limits.maxFilesWarning), the watcher starts,
// the project's last session (or a new one) is opened, and the app runs until the user leaves.
import fs from "node:fs";
import path from "node:path";
import { resolveProjectRoot } from "../main/cli/project-root.js";
import { prepareModel, type ReadyModel } from "../main/cli/model-setup.js";
import { indexProblems } from "../main/cli/index-report.js";
import { loadConfig } from "../main/config/loader.js";
import type { IpuaroConfig } from "../main/config/schema.js";
import { errorMessage, FatalError, type IpuaroError } from "../main/errors.js";
import { counted } from "../main/plural.js";
import type { ReadyCheck } from "../main/llm/deferred-model-check.js";
import { ProjectIndexer } from "../main/indexing/project-indexer.js";
import { homeFolderWarning, isHomeFolder } from "../main/indexing/index-root.js";
import { ProjectWatcher } from "../main/indexing/project-watcher.js";
import { openSession, type SessionChoice } from "../main/session/open-session.js";
import { describeHolder } from "../main/session/session-lease.js";
import { openProjectStore, type OpenedProjectStore } from "../main/store/open-project-store.js";
import type { ToolRegistry } from "../main/tools/registry.js";
import { TuiApp } from "./app/tui-app.js";
import type { TerminalStreams } from "./app/screen-setup.js";
import { askChoice } from "./dialogs/choice-dialog.js";
import { askText } from "./dialogs/text-prompt.js";
import { commonPrefix, pathMatches } from "./input/completion.js";
import { formatFolderSizes, largestFolders } from "../main/indexing/folder-sizes.js";
import { RuntimeBackend } from "./runtime/runtime-backend.js";
import { installTerminalGuard } from "./terminal-guard.js";
import { waitingForRunText } from "../pipeline/index-pipeline.js";

export interface RunTuiOptions {
  /** Start a new session instead of the project's last one. */
  new?: boolean;
  session?: string;
  /** Do not ask before indexing more than limits.maxFilesWarning files. */
  yes?: boolean;
  streams?: TerminalStreams;
  /** The model's tools (tests); default: the registry's TOOLS. */
  registry?: ToolRegistry;
  /** Tests that answer a dialog at once: see TuiAppOptions.typeAheadGuardMs. */
  typeAheadGuardMs?: number;
}

interface Project {
  root: string;
  config: IpuaroConfig;
  opened: OpenedProjectStore;
  indexer: ProjectIndexer;
}

function sessionChoice(opts: RunTuiOptions): SessionChoice {
  if (opts.new && opts.session !== undefined) throw new FatalError("--new and --session exclude each other", 2);
  if (opts.session !== undefined) return { kind: "id", id: opts.session };
  return opts.new ? { kind: "new" } : { kind: "last" };
}

async function openProject(root: string): Promise<Project> {
  const { config } = loadConfig({ projectRoot: root });
  const opened = await openProjectStore(config, root);
  return { root, config, opened, indexer: new ProjectIndexer(root, config, opened.store, { background: true }) };
}

async function closeProject(p: Project, watcher: ProjectWatcher | null): Promise<void> {
  await watcher?.stop().catch(() => {});
  await p.indexer.close().catch(() => {});
  await p.opened.release().catch(() => {});
}

/** Above the size limit: continue, narrow to a subfolder (it becomes the project), or stop. */
async function confirmSize(app: TuiApp, p: Project, paths: readonly string[]): Promise<string | null> {
  const count = paths.length;
  const limit = p.config.limits.maxFilesWarning;
  const choice = await askChoice(app, {
    title: "A large project",
    body: `${count.toLocaleString("en-US")} files to index (more than limits.maxFilesWarning = ${limit.toLocaleString("en-US")}). The first index of a project this size takes a while.`,
    choices: [
      { key: "c", label: "continue", value: "continue" as const },
      { key: "s", label: "choose a subdirectory", value: "sub" as const },
      { key: "x", label: "cancel", value: "cancel" as const },
    ],
    escape: "cancel" as const,
    titleRole: "warn",
  });
  if (choice === "cancel") return null;
  if (choice === "continue") return p.root;
  const sub = await askText(app, {
    title: "Index a subdirectory",
    question: `A folder inside ${p.root} (it becomes the project; Tab completes). The largest:`,
    details: formatFolderSizes(largestFolders(paths)),
    complete: (text) => {
      const folders = pathMatches(text, paths).filter((m) => m.endsWith("/"));
      // Candidates by their own names: they share the folder already typed.
      const parent = text.slice(0, text.lastIndexOf("/") + 1);
      return { text: folders.length === 1 ? folders[0]! : commonPrefix(folders) || text, candidates: folders.map((f) => f.slice(parent.length)) };
    },
    validate: (text) => {
      const abs = path.resolve(p.root, text);
      const ok = abs.startsWith(p.root + path.sep) && fs.existsSync(abs) && fs.statSync(abs).isDirectory();
      return ok ? null : `not a folder inside ${p.root}: ${text || "(empty)"}`;
    },
  });
  return sub === null ? null : fs.realpathSync(path.resolve(p.root, sub));
}

/** Opened without Ollama: what is wrong, what to do, and what works meanwhile. */
function notRunningNotice(error: IpuaroError): string {
  const suggestion = error.suggestion ? ` ${error.suggestion}` : "";
  return `${error.message}${suggestion}\nipuaro opened anyway: sessions, /undo, /rewind and /help work; each message checks for Ollama again.`;
}

/** Says when the deferred model check passes, with the window it settled on. */
function modelWatch(tell: (level: "info" | "warn", text: string) => void): { onReady(check: ReadyCheck): void } {
  return {
    onReady: (check) => {
      const ready = `Ollama answered: ${check.model} is ready (context window ${check.contextWindow.toLocaleString("en-US")} tokens).`;
      tell("info", check.notice ? `${ready} ${check.notice}` : ready);
    },
  };
}

interface PrepareContext {
  app: TuiApp;
  project: Project;
  model: ReadyModel;
  opts: RunTuiOptions;
  choice: SessionChoice;
  setProject(p: Project): void;
  setWatcher(w: ProjectWatcher | null): void;
}

async function prepare(ctx: PrepareContext): Promise<RuntimeBackend | null> {
  const { app, opts, choice, setProject, setWatcher } = ctx;
  let p = ctx.project;
  let model = ctx.model;
  const progress = (label: string, done = 0, total = 0) => app.showProgress({ label, done, total, unit: "files" });
  progress("scanning…");
  // The home folder holds every project and dotfile: asked about before its first index, as `index` does.
  if (isHomeFolder(p.root) && !opts.yes && (await p.opened.store.fileCount()) === 0) {
    const go = await askChoice(app, {
      title: "Your home folder",
      body: `${homeFolderWarning(p.root)} Start ipuaro in a project folder instead, or index it anyway.`,
      choices: [
        { key: "c", label: "index it anyway", value: true },
        { key: "x", label: "cancel", value: false },
      ],
      escape: false,
      titleRole: "warn",
    });
    if (!go) return null;
  }
  let timed = await p.indexer.scan((n) => progress(`scanning… ${n} files`));
  // Asked before a first index only: a project already indexed starts in a fraction of that time.
  if (timed.scan.entries.length > p.config.limits.maxFilesWarning && !opts.yes && (await p.opened.store.fileCount()) === 0) {
    // Said on the progress line too: "scanning… 11426 files" under the question looked stuck.
    progress(`found ${timed.scan.entries.length.toLocaleString("en-US")} files; waiting for your answer`);
    const chosen = await confirmSize(app, p, timed.scan.entries.map((e) => e.path));
    if (chosen === null) return null;
    if (chosen !== p.root) {
      await closeProject(p, null);
      p = await openProject(chosen);
      setProject(p);
      app.state.project = p.opened.store.projectName;
      // The subfolder may have its own config (another model or host).
      model = await prepareModel(p.config, { interactive: false, log: (line) => app.notice("info", line), deferWhenNotRunning: modelWatch((level, text) => app.notice(level, text)) });
      if (model.notRunning) app.notice("warn", notRunningNotice(model.notRunning));
      timed = await p.indexer.scan((n) => progress(`scanning… ${n} files`));
    }
  }
  // Subscribed before the run, so files changed while it indexes are caught up afterwards.
  let watcher: ProjectWatcher | null = new ProjectWatcher({ indexer: p.indexer, redis: p.opened.redis });
  try {
    await watcher.listen();
  } catch (error) {
    app.notice("warn", `The file watcher could not start (${errorMessage(error)}); the index is refreshed after ipuaro's own edits only. /reindex picks up other changes.`);
    watcher = null;
  }
  setWatcher(watcher);
  const stats = await app.cancellable(async (signal) => {
    try {
      return await p.indexer.index(
        timed,
        (e) => (e.phase === "index" ? progress("indexing", e.done, e.total) : e.phase === "graph" ? progress("building the dependency graph…") : e.phase === "waiting" ? progress(waitingForRunText(e.holder)) : undefined),
        signal,
      );
    } catch (error) {
      // Ctrl+C during the first index: leave quietly (the next start carries on from what was written).
      if (signal.aborted) return null;
      throw error;
    }
  });
  app.showProgress(null);
  if (!stats) return null;
  if (stats.parsed > 0 || stats.removed > 0) {
    const removed = stats.removed ? `, ${stats.removed.toLocaleString("en-US")} removed` : "";
    app.notice("info", `Indexed ${counted(stats.files, "file")} (${stats.parsed.toLocaleString("en-US")} parsed${removed}) in ${stats.totalSeconds.toFixed(1)} s.`);
  }
  // What could not be indexed cleanly is said at once, not only on /reindex.
  const problems = indexProblems(stats);
  if (problems.length) app.notice(stats.errors.length ? "warn" : "info", problems.join("\n"));
  // Loading the graph into memory takes a second or two on a large project: said, and painted at once
  // (the status bar was blank meanwhile, and Enter only answered that the project was being prepared).
  app.showProgress({ label: watcher ? "loading the index into memory for the watcher…" : "opening the session…", done: 0, total: 0, unit: "files", status: "starting…" });
  app.flush();
  try {
    await watcher?.start();
  } catch (error) {
    app.notice("warn", `The file watcher stopped: ${errorMessage(error)}`);
  }
  const { session, repairedCalls, lease, lastOpenElsewhere } = await openSession({ redis: p.opened.redis, projectName: p.opened.store.projectName, root: p.root, config: p.config, choice, lease: "the UI", earlierInputs: true });
  app.showProgress(null);
  if (lastOpenElsewhere) app.notice("info", `The project's last session (${lastOpenElsewhere.id}) is open in another ipuaro, ${describeHolder(lastOpenElsewhere.holder)}: this is a new session.`);
  if (repairedCalls) app.notice("info", `${repairedCalls} call(s) the last run left unfinished were marked cancelled.`);
  return new RuntimeBackend({ root: p.root, config: p.config, opened: p.opened, indexer: p.indexer, watcher, model, ui: app.uiPort, session, lease, ...(opts.registry ? { registry: opts.registry } : {}) });
}

export async function runTui(target: string, opts: RunTuiOptions = {}): Promise<number> {
  const choice = sessionChoice(opts);
  const streams = opts.streams ?? { input: process.stdin, output: process.stdout };
  if (!opts.streams && (!process.stdin.isTTY || !process.stdout.isTTY)) {
    throw new FatalError("the full-screen UI needs a terminal; for scripts use `ipuaro run -p \"…\" [path]`", 2);
  }
  let project = await openProject(resolveProjectRoot(target));
  let watcher: ProjectWatcher | null = null;
  let model: ReadyModel;
  const startNotes: string[] = [];
  // The model check may pass later, once the screen is up (see DeferredModelCheck).
  let tell: ((level: "info" | "warn", text: string) => void) | null = null;
  try {
    // Checked on the plain terminal: a missing model may be pulled here, with its own progress bar. Its
    // notes (a smaller context window than configured) are shown in the UI, not left behind on exit.
    model = await prepareModel(project.config, {
      interactive: true,
      log: (line) => startNotes.push(line.replace(/^ipuaro: /, "")),
      deferWhenNotRunning: modelWatch((level, text) => tell?.(level, text)),
    });
  } catch (error) {
    await closeProject(project, null);
    throw error;
  }
  const { config } = project;
  const app = new TuiApp({
    streams,
    theme: config.display.theme,
    project: project.opened.store.projectName,
    display: config.display,
    edit: {
      syntaxHighlight: config.edit.syntaxHighlight,
      inlineHighlights: config.edit.diffFormat === "inline-highlights",
      showDescription: config.edit.showDescription,
      showDiff: config.edit.showDiff,
      wrapLongLines: config.edit.wrapLongLines,
    },
    multiline: config.input.multiline,
    ...(opts.typeAheadGuardMs !== undefined ? { typeAheadGuardMs: opts.typeAheadGuardMs } : {}),
  });
  app.state.autoApply = config.edit.autoApply;
  for (const note of startNotes) app.notice("info", note);
  if (model.notRunning) app.notice("warn", notRunningNotice(model.notRunning));
  tell = (level, text) => app.notice(level, text);
  let backend: RuntimeBackend | null = null;
  const guard = installTerminalGuard({
    output: streams.output,
    input: streams.input,
    leaveScreen: () => app.destroy(),
    onSignal: async () => {
      if (backend) await backend.close();
      else await closeProject(project, watcher);
    },
  });
  try {
    const ready = prepare({ app, project, model, opts, choice, setProject: (p) => (project = p), setWatcher: (w) => (watcher = w) });
    const first = await Promise.race([ready.then((b) => ({ backend: b })), app.done.then((code) => ({ exited: code }))]);
    if ("exited" in first) {
      // Left while the project was being prepared: whatever was opened is closed here.
      ready.then((b) => b?.close(), () => {}).catch(() => {});
      await closeProject(project, watcher);
      return first.exited;
    }
    if (!first.backend) {
      await app.exit(1);
      await closeProject(project, watcher);
      return 1;
    }
    backend = first.backend;
    app.attach(backend);
    return await app.done;
  } catch (error) {
    guard.restore();
    if (!backend) await closeProject(project, watcher);
    throw error;
  } finally {
    guard.restore();
    guard.uninstall();
  }
}
