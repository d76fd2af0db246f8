// What `ipuaro index [path]` does (index-command.ts declares it): index a project into Redis, with a
// progress bar, a size check, and --bench. Loaded when the command runs, not when --help lists it.
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../../config/loader.js";
import { BenchProbe } from "../../indexing/bench-probe.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import type { IpuaroConfig } from "../../config/schema.js";
import { waitingForRunText, type IndexProgress, type IndexStats } from "../../../pipeline/index-pipeline.js";
import { ProjectWatcher } from "../../indexing/project-watcher.js";
import { watchUntilInterrupted } from "../watch-log.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { formatFolderSizes, largestFolders } from "../../indexing/folder-sizes.js";
import { runParseOnlyInChild, warmPool, type ParseOnlyResult } from "../../../pipeline/parse-baseline.js";
import { minorFaultsOf, readThreadCpu, splitThreadCpu } from "../../../pipeline/thread-cpu.js";
import { guardInterrupts, Interrupted, stoppedNote, stoppingNote } from "../interrupts.js";
import { askChoice, askLine } from "../prompt.js";
import { TtyProgress } from "../progress-bar.js";
import { benchText, indexJson, summaryText, type BenchExtras } from "../index-report.js";
import { resolveProjectRoot } from "../project-root.js";
import { counted } from "../../plural.js";
import { FatalError } from "../../errors.js";
import { homeFolderWarning, isHomeFolder, refuseUnindexableRoot } from "../../indexing/index-root.js";

export interface IndexOptions {
  bench?: boolean;
  json?: boolean;
  yes?: boolean;
  parseOnlyBaseline: boolean;
  watch?: boolean;
  force?: boolean;
}

/** Above the configured size, ask before a long first index: continue, narrow to a subfolder, or stop. */
async function confirmSize(root: string, count: number, limit: number, yes: boolean, listPaths: () => Promise<readonly string[]>): Promise<string | null> {
  if (count <= limit || yes) return root;
  const warning = `${counted(count, "file")} to index (more than limits.maxFilesWarning = ${limit}).`;
  if (!process.stdin.isTTY) {
    process.stderr.write(`ipuaro: ${warning} Continuing (no terminal to ask; pass --yes to silence this).\n`);
    return root;
  }
  const choice = await askChoice(warning, { c: "continue", s: "choose a subdirectory", x: "cancel" });
  if (choice === "x") return null;
  if (choice === "c") return root;
  // Walked again only for this answer: the question may have come from a count alone (the bench's).
  const folders = formatFolderSizes(largestFolders(await listPaths()));
  process.stderr.write(`the largest folders:\n${folders.map((l) => `  ${l}\n`).join("")}`);
  for (;;) {
    const sub = await askLine("subdirectory (relative to the project): ");
    const abs = path.resolve(root, sub);
    if (abs.startsWith(root + path.sep) && fs.existsSync(abs) && fs.statSync(abs).isDirectory()) return fs.realpathSync(abs);
    process.stderr.write(`not a folder inside ${root}: ${sub}\n`);
  }
}

/**
 * The home folder is a project only when the user says so: it holds every project, cache and dotfile
 * (config files with tokens among them). Asked on a terminal; without one, refused unless --yes.
 */
async function confirmHomeFolder(root: string): Promise<boolean> {
  const warning = homeFolderWarning(root);
  if (!process.stdin.isTTY) throw new FatalError(`${warning} Give a project folder, or pass --yes to index it anyway.`, 2);
  return (await askChoice(`${warning} Index it anyway?`, { c: "continue", x: "cancel" })) === "c";
}

/** One parse-only run of the project's files in a fresh process (parse-baseline.ts says why). */
function parseOnlyBaseline(root: string, config: IpuaroConfig, indexer: ProjectIndexer): Promise<ParseOnlyResult> {
  return runParseOnlyInChild({ root, ignorePatterns: config.project.ignorePatterns, binaryExtensions: indexer.binaryExtensions, workers: config.indexing.workers });
}

export async function indexAction(target: string, opts: IndexOptions): Promise<void> {
  let root = resolveProjectRoot(target);
  // Before Redis or a thread: `/` (or /proc) is no project (ProjectIndexer refuses it too).
  refuseUnindexableRoot(root);
  let { config } = loadConfig({ projectRoot: root });
  const tty = process.stderr.isTTY && !opts.json && config.display.progressBar;
  const progress = tty ? new TtyProgress(process.stderr) : null;

  // --force also rebuilds an index a newer ipuaro wrote (refused otherwise: schema-version.ts).
  const storeOptions = { replaceNewerSchema: !!opts.force };
  const opened = await openProjectStore(config, root, {}, storeOptions);
  let indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro index" });
  // Assigned in the closures below (TypeScript would otherwise narrow it to null for good).
  let watcher = null as ProjectWatcher | null;
  /** Narrowed to a subfolder: it becomes the project (its own name, config and index). */
  const narrowTo = async (sub: string) => {
    await watcher?.stop();
    watcher = null;
    await indexer.close();
    await opened.release();
    root = sub;
    config = loadConfig({ projectRoot: root }).config;
    Object.assign(opened, await openProjectStore(config, root, {}, storeOptions));
    indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro index" });
    schemaBefore = await opened.store.getConfigField("schemaVersion");
  };
  /** Which schema the index had before this run: the summary says what a reset replaced. */
  let schemaBefore = await opened.store.getConfigField("schemaVersion");
  // Subscribed before the run, so files changed while it indexes are caught up afterwards.
  const listen = async () => {
    watcher = opts.watch ? new ProjectWatcher({ indexer, redis: opened.redis }) : null;
    await watcher?.listen();
  };
  // Ctrl+C stops the run cleanly: what was parsed is stored, ipuaro's own Redis is released.
  const stop = new AbortController();
  const guard = guardInterrupts((signal) => {
    progress?.end();
    process.stderr.write(`${stoppingNote(signal)}\n`);
    stop.abort(new Interrupted());
  });
  let chosen: string | null = root;
  // Only a first index is long: a project already in the index is re-indexed in a fraction of that, and
  // asking before every run of it would only be in the way. (--force re-parses everything: asked.)
  const ask = async (count: number) => {
    const indexedBefore = !opts.force && (await opened.store.fileCount()) > 0;
    const listPaths = async () => (await indexer.scan(undefined, { startPool: false })).scan.entries.map((e) => e.path);
    return (chosen = await confirmSize(root, count, config.limits.maxFilesWarning, !!opts.yes || indexedBefore, listPaths)) === root;
  };
  const cancelled = () => {
    process.stderr.write("cancelled\n");
    process.exitCode = 1;
  };
  try {
    // Asked before a first index (or --force), as the size question is: an index already there was agreed to.
    if (isHomeFolder(root) && !opts.yes && (opts.force || (await opened.store.fileCount()) === 0) && !(await confirmHomeFolder(root))) return cancelled();
    const probe = opts.bench ? new BenchProbe() : null;
    probe?.start();
    // The baseline runs once before the cold run and once after; the faster one is the yardstick, so
    // noise on this shared machine can only make the ratio look worse, never better. It walks the project
    // in its own process, so this one's walk (inside the cold run) is as cold as a user's.
    const baseline = opts.bench && opts.parseOnlyBaseline ? () => parseOnlyBaseline(root, config, indexer) : null;
    const parseOnlyRuns: ParseOnlyResult[] = [];
    if (opts.bench) {
      // The size question comes before anything is timed. The threads start (and warm) just before the
      // cold run: threads that sat idle through the baseline measured slower (≈ 1.38 against 1.35).
      const found = async () => {
        if (!baseline) return (await indexer.scan(undefined, { startPool: false })).scan.entries.length;
        parseOnlyRuns.length = 0;
        progress?.text("timing the parse-only baseline…");
        const run = await baseline();
        progress?.end();
        parseOnlyRuns.push(run);
        return run.found ?? 0;
      };
      if (!(await ask(await found()))) {
        if (chosen === null) return cancelled();
        await narrowTo(chosen);
        await found();
      }
      await warmPool(indexer.pool, root);
    }
    await listen();
    const redisCpuBefore = probe ? await opened.store.cpuSeconds() : 0;
    const redisPid = probe ? await opened.store.serverProcessId() : 0;
    const redisFaultsBefore = redisPid ? minorFaultsOf(redisPid, "redis-server") : null;
    const faultsBefore = process.resourceUsage().minorPageFault;
    const cpuBefore = process.cpuUsage();
    const threadsBefore = probe ? readThreadCpu() : null;
    const hooks = {
      onFound: (n: number) => progress?.text(`scanning… ${counted(n, "file")}`),
      onProgress: (p: IndexProgress) => {
        if (p.phase === "index") progress?.update("indexing", p.done, p.total);
        else if (p.phase === "graph") progress?.text("building the dependency graph…");
        else if (p.phase === "waiting") {
          // Said without a TTY too: a silent wait looks like a hang.
          if (progress) progress.text(waitingForRunText(p.holder));
          else process.stderr.write(`${waitingForRunText(p.holder)}\n`);
        }
      },
      force: !!opts.force,
      signal: stop.signal,
    };
    // Files are parsed while the walk goes on; the size question (not asked again by the bench) comes when
    // it ends, before anything is stored.
    const first = await indexer.scanAndIndex({
      ...hooks,
      proceed: opts.bench
        ? undefined
        : (count) => {
            progress?.end();
            return ask(count);
          },
    });
    if (first === null && chosen === null) return cancelled();
    if (first === null) {
      await narrowTo(chosen as string);
      await listen();
    }
    // Without a `proceed` question a run is never declined.
    const stats = first ?? ((await indexer.scanAndIndex(hooks)) as IndexStats);
    progress?.end();
    let bench: BenchExtras | null = null;
    if (probe) {
      const measured = probe.stop();
      const cpu = process.cpuUsage(cpuBefore);
      const faults = process.resourceUsage().minorPageFault - faultsBefore;
      const threadCpuSeconds = splitThreadCpu(threadsBefore, readThreadCpu(), indexer.pool.threadIds);
      const redisUsedMb = (await opened.store.memoryUsedBytes()) / 1024 / 1024;
      // An AOF rewrite the run started finishes first: its CPU is the run's, and the baseline then gets
      // the machine to itself.
      await opened.store.waitForPersistenceIdle(30_000);
      const redisCpuSeconds = (await opened.store.cpuSeconds()) - redisCpuBefore;
      const redisFaultsAfter = redisFaultsBefore === null ? null : minorFaultsOf(redisPid, "redis-server");
      const minorPageFaults = { process: faults, redis: redisFaultsAfter === null ? null : redisFaultsAfter - (redisFaultsBefore ?? 0) };
      if (baseline) parseOnlyRuns.push(await baseline());
      bench = { ...measured, redisUsedMb, cpuSeconds: (cpu.user + cpu.system) / 1e6, threadCpuSeconds, redisCpuSeconds, minorPageFaults, parseOnlyRuns };
    }
    const json = indexJson(opened.store.projectName, stats, bench);
    if (opts.json) process.stdout.write(`${JSON.stringify(json)}\n`);
    else {
      process.stdout.write(`${summaryText(opened.store.projectName, stats, schemaBefore)}\n`);
      if (bench) process.stdout.write(`\n${benchText(json)}\n`);
    }
    guard.detach();
    if (watcher) await watchUntilInterrupted(watcher, { json: !!opts.json, out: process.stdout, err: process.stderr });
  } catch (err) {
    // Whatever the interrupted work threw (an aborted walk or task, a baseline child that got the
    // terminal's Ctrl+C too), the user asked to stop.
    if (!guard.interrupted && !(err instanceof Interrupted)) throw err;
    progress?.end();
    // SIGTERM (a supervisor, `timeout`) is told apart from Ctrl+C in the note and the exit code (143).
    process.stderr.write(`ipuaro: ${stoppedNote(guard.signal ?? "SIGINT")}; the next run carries on from what was stored\n`);
    process.exitCode = guard.exitCode;
  } finally {
    guard.detach();
    await watcher?.stop();
    await indexer.close();
    await opened.release();
  }
}
