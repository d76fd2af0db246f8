// TuiBackend over the real services: the agent runtime (orchestrator + session recorder), the session
// store, the indexer and its watcher, the model client. Loading or starting a session rebuilds the
// runtime around it; everything else is a thin call through.
import { createAgentRuntime, type AgentRuntime } from "../../main/agent/agent-runtime.js";
import { collectGarbage } from "../../main/checkpoints/index.js";
import type { UiPort } from "../../main/agent/ports.js";
import { summaryText } from "../../main/cli/index-report.js";
import type { ReadyModel } from "../../main/cli/model-setup.js";
import type { IpuaroConfig } from "../../main/config/schema.js";
import { errorMessage } from "../../main/errors.js";
import type { ProjectIndexer } from "../../main/indexing/project-indexer.js";
import { waitingForRunText, type IndexStats } from "../../pipeline/index-pipeline.js";
import { ProjectWatcher, type ProjectWatchEvent } from "../../main/indexing/project-watcher.js";
import { readGitHead } from "../../main/checkpoints/git-head.js";
import type { LiveSession } from "../../main/session/live-session.js";
import { openSession, sessionStoreFor, type SessionChoice } from "../../main/session/open-session.js";
import { describeHolder, SessionLease } from "../../main/session/session-lease.js";
import { indexReaderOf, scanSymbols } from "../../main/store/index-queries.js";
import type { OpenedProjectStore } from "../../main/store/open-project-store.js";
import type { ToolRegistry } from "../../main/tools/registry.js";
import type { IndexState, ListedSession, ReindexProgress, RewindPort, SessionView, StatusReport, TuiBackend } from "../app/tui-backend.js";
import type { AnalyzeRequest } from "../app/analyze-command.js";
import { liveIndexServices } from "./live-index-services.js";
import { statusRows } from "./status-report.js";
import { runAnalyze } from "../../main/shadow/analyze.js";
import { formatAnalyze } from "../../main/shadow/report-tables.js";
import { shadowScope } from "../../main/shadow/shadow-scope.js";

/** A watcher batch this large shows "updating N files" in the status bar while it runs. */
const UPDATING_SHOWN_FROM = 20;

/** Completion lists are re-read at most this often (and after every watcher batch). */
const COMPLETION_TTL_MS = 30_000;

export interface RuntimeBackendOptions {
  root: string;
  config: IpuaroConfig;
  opened: OpenedProjectStore;
  indexer: ProjectIndexer;
  watcher: ProjectWatcher | null;
  model: ReadyModel;
  ui: UiPort;
  session: LiveSession;
  /** The session's lease (session-lease.ts), released on close or when another session is opened. */
  lease?: SessionLease | null;
  /** The model's tools; default: the registry's TOOLS. */
  registry?: ToolRegistry;
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/** The first words of an error, for the status bar (a long one pushed the branch and index out of it). */
function shortReason(message: string): string {
  return message.length <= 32 ? message : `${message.slice(0, 31).trimEnd()}…`;
}

export class RuntimeBackend implements TuiBackend {
  private lease: SessionLease | null;
  /** Paths of the large watcher batch being taken in, or null. */
  private updating: number | null = null;
  /** The index was dropped under the watcher (`ipuaro index --drop`) and is being built again. */
  private rebuilding = false;
  readonly projectName: string;
  readonly root: string;
  readonly model: string;
  readonly restoreOnCancel: boolean;
  private runtime: AgentRuntime;
  private auto: boolean;
  private watcherError: string | null = null;
  private paths: Cached<readonly string[]> | null = null;
  private symbols: Cached<readonly string[]> | null = null;
  private readonly listeners = new Set<(s: IndexState) => void>();
  private watcher: ProjectWatcher | null;
  private offWatcher: (() => void) | null;

  constructor(private readonly opts: RuntimeBackendOptions) {
    this.projectName = opts.opened.store.projectName;
    this.root = opts.root;
    this.model = opts.config.llm.model;
    this.auto = opts.config.edit.autoApply;
    this.restoreOnCancel = opts.config.ui.restoreOnCancel;
    this.watcher = opts.watcher;
    this.lease = opts.lease ?? null;
    this.runtime = this.build(opts.session);
    this.offWatcher = this.watcher?.on((e) => this.onWatch(e)) ?? null;
  }

  private build(session: LiveSession): AgentRuntime {
    const { root, config, opened, model, ui, indexer } = this.opts;
    return createAgentRuntime({
      root,
      config,
      store: opened.store,
      ui,
      llm: model.llm,
      estimator: model.estimator,
      autoApply: () => this.auto,
      session,
      index: liveIndexServices(indexer, () => this.watcher),
      ...(this.opts.registry ? { registry: this.opts.registry } : {}),
    });
  }

  /** The current runtime's rewind service (it changes with the session). */
  get rewind(): RewindPort {
    return this.runtime.checkpoints.rewind;
  }

  /** The old runtime's checkpoint hooks are detached from its tools before the new one takes over. */
  private replaceRuntime(session: LiveSession): void {
    const old = this.runtime;
    this.runtime = this.build(session);
    old.checkpoints.close();
  }

  private onWatch(e: ProjectWatchEvent): void {
    // Shown as "watcher ✗ …" and "The watcher stopped: …": the error's own "watcher: " would say it twice.
    if (e.type === "error") this.watcherError = e.error.message.replace(/^watcher: /, "");
    else if (e.type === "ready" || e.type === "recovered") this.watcherError = null;
    if (e.type === "batch" || e.type === "reloaded") {
      this.paths = null;
      this.symbols = null;
    }
    // The index dropped by another ipuaro: said in the chat, and the bar says it is built again until it is.
    if (e.type === "dropped") {
      this.rebuilding = true;
      this.opts.ui.notify("warn", `The index of ${this.projectName} was dropped by another ipuaro (ipuaro index --drop); indexing the project again. Until it is done, find_definition, get_structure and other index tools find less.`);
      this.emitIndexState();
    } else if (e.type === "reloaded" && e.rebuilt) {
      this.rebuilding = false;
      this.opts.ui.notify("info", `The index is built again: ${e.files.toLocaleString("en-US")} files.`);
      this.emitIndexState();
    }
    // A large batch (a branch switch) is said while it is taken in: answers from the index lag behind it.
    if (e.type === "updating" && e.paths >= UPDATING_SHOWN_FROM) this.updating = e.paths;
    const ended = (e.type === "batch" || e.type === "error") && this.updating !== null;
    if (ended) this.updating = null;
    if (e.type === "error" || e.type === "ready" || e.type === "recovered" || ended || (e.type === "updating" && this.updating !== null)) this.emitIndexState();
  }

  indexState(): IndexState {
    if (!this.watcher?.running) return { text: "not watching", level: "error" };
    if (this.watcherError) return { text: `watcher ✗ ${shortReason(this.watcherError)}`, level: "error", detail: `The watcher stopped: ${this.watcherError}.` };
    if (this.rebuilding) return { text: "re-indexing (index dropped)", level: "busy" };
    if (this.updating !== null) return { text: `updating ${this.updating.toLocaleString("en-US")} files`, level: "busy" };
    return { text: "watching", level: "ok" };
  }

  private emitIndexState(): void {
    const s = this.indexState();
    for (const l of this.listeners) l(s);
  }

  onIndexState(listener: (s: IndexState) => void): () => void {
    this.listeners.add(listener);
    listener(this.indexState());
    return () => this.listeners.delete(listener);
  }

  /** Read every few seconds for the status bar: HEAD only (`git status` would scan the work tree). */
  async branch(): Promise<string | null> {
    const head = await readGitHead(this.root).catch(() => null);
    return head === null ? null : (head.branch ?? "detached");
  }

  session(): SessionView {
    const s = this.runtime.session;
    return {
      id: s.id,
      createdAt: s.state.meta.createdAt,
      messages: () => s.messages(),
      inputHistory: () => s.inputs(),
      contextPercent: () => (s.state.context.tokensLimit > 0 && s.state.context.tokensUsed > 0 ? (s.state.context.tokensUsed / s.state.context.tokensLimit) * 100 : null),
    };
  }

  runTurn(text: string, signal: AbortSignal) {
    return this.runtime.orchestrator.runTurn(text, signal);
  }

  evaluate(signal: AbortSignal) {
    return this.runtime.evaluate(signal);
  }

  undo() {
    return this.runtime.undo();
  }

  compact(focus: string | undefined, signal: AbortSignal) {
    return this.runtime.compact({ ...(focus ? { focus } : {}), signal });
  }

  addInput(text: string): Promise<void> {
    return this.runtime.session.addInput(text);
  }

  private sessions() {
    return sessionStoreFor(this.opts.opened.redis, this.projectName, this.opts.config);
  }

  async sessionHolder(id: string): Promise<string | null> {
    const holder = await SessionLease.holder(this.opts.opened.redis, id);
    return holder ? describeHolder(holder) : null;
  }

  async listSessions(): Promise<ListedSession[]> {
    const list = await this.sessions().list();
    const holders = await Promise.all(list.map((s) => (s.id === this.runtime.session.id ? null : SessionLease.holder(this.opts.opened.redis, s.id).catch(() => null))));
    return list.map((s, i) => (holders[i] ? { ...s, openElsewhere: describeHolder(holders[i]) } : s));
  }

  private async switchTo(choice: SessionChoice): Promise<void> {
    // A session open in another ipuaro is refused with who has it (openSession says).
    const { session, lease } = await openSession({ redis: this.opts.opened.redis, projectName: this.projectName, root: this.root, config: this.opts.config, choice, lease: "the UI", earlierInputs: true });
    await this.runtime.session.saveState({ touch: false }).catch(() => {});
    const left = this.runtime.session;
    this.replaceRuntime(session);
    const old = this.lease;
    this.lease = lease;
    await this.dropIfEmpty(left).catch(() => {});
    await old?.release();
  }

  /**
   * A session opened and left with no message and no edit would stay behind, empty, as the project's
   * last one (a second UI on the project starts one): it goes. Called while its lease is still held.
   */
  private async dropIfEmpty(session: LiveSession): Promise<void> {
    if (session.state.entries.size > 0 || (await session.undoStack.peek()) !== null) return;
    await this.sessions().delete(session.id);
  }

  loadSession(id: string): Promise<void> {
    return this.switchTo({ kind: "id", id });
  }

  newSession(): Promise<void> {
    return this.switchTo({ kind: "new" });
  }

  async deleteSession(id: string): Promise<void> {
    if (id === this.runtime.session.id) throw new Error("the current session cannot be deleted");
    const holder = await SessionLease.holder(this.opts.opened.redis, id);
    if (holder) throw new Error(`that session is open in another ipuaro: ${describeHolder(holder)}`);
    await this.sessions().delete(id);
    // Backups only the deleted session referenced go (once older than a day); a failure only costs disk.
    await collectGarbage(this.opts.opened.redis).catch(() => {});
  }

  /**
   * A full (warm) index run. The live index keeps the graph in memory, so the watcher is stopped for the
   * run and a fresh one, subscribed before it, takes over afterwards (it catches what changed meanwhile).
   */
  async analyze(request: AnalyzeRequest, width?: number): Promise<string> {
    const { query, target, timeframe, limit, depth } = request;
    // A person waits for a first import of a long history; the model's 5 s limit is not theirs.
    const outcome = await runAnalyze(shadowScope(this.opts.opened.store, this.root), { query, target, timeframe, limit, depth }, { timeoutMs: 120_000 });
    if (request.json) return JSON.stringify(outcome.result, null, 2);
    return formatAnalyze(outcome.query, outcome.result, width ? { width } : {});
  }

  async reindex(onProgress: (p: ReindexProgress) => void, signal: AbortSignal): Promise<string> {
    const { indexer, opened } = this.opts;
    const old = this.watcher;
    this.offWatcher?.();
    this.offWatcher = null;
    this.watcher = null;
    await old?.stop();
    const fresh = old ? new ProjectWatcher({ indexer, redis: opened.redis }) : null;
    try {
      await fresh?.listen();
      onProgress({ phase: "scanning", done: 0, total: 0 });
      // No question here, so the run is never declined (null).
      const stats = (await indexer.scanAndIndex({
        onFound: (n) => onProgress({ phase: `scanning… ${n} files`, done: 0, total: 0 }),
        onProgress: (p) =>
          onProgress(
            p.phase === "graph" ? { phase: "building the dependency graph…", done: 0, total: 0 } : p.phase === "waiting" ? { phase: waitingForRunText(p.holder), done: 0, total: 0 } : { phase: "indexing", done: p.done, total: p.total },
          ),
        signal,
      })) as IndexStats;
      this.paths = null;
      this.symbols = null;
      return summaryText(this.projectName, stats);
    } finally {
      if (fresh) {
        this.watcher = fresh;
        this.offWatcher = fresh.on((e) => this.onWatch(e));
        await fresh.start().catch((error: unknown) => (this.watcherError = errorMessage(error)));
      }
      this.emitIndexState();
    }
  }

  async status(): Promise<StatusReport> {
    return { rows: await statusRows({ backend: this, opened: this.opts.opened, config: this.opts.config, model: this.opts.model, session: this.runtime.session, watcherState: this.indexState() }) };
  }

  autoApply(): boolean {
    return this.auto;
  }

  setAutoApply(on: boolean): void {
    this.auto = on;
  }

  toolHelp() {
    return this.runtime.registry.tools.map((t) => ({ name: t.name, description: t.description }));
  }

  toolTitle(name: string, args: Record<string, unknown>): string {
    return this.runtime.registry.get(name)?.titleFor(args) ?? name;
  }

  private cached<T>(slot: "paths" | "symbols", load: () => Promise<T>): Promise<T> {
    const hit = this[slot] as Cached<T> | null;
    if (hit && performance.now() - hit.at < COMPLETION_TTL_MS) return hit.value;
    const value = load();
    (this as unknown as Record<string, Cached<T>>)[slot] = { at: performance.now(), value };
    value.catch(() => (this[slot] = null));
    return value;
  }

  completionPaths(): Promise<readonly string[]> {
    // The index's files, and the project's others (README.md, docs) a mention or a path may name too.
    return this.cached("paths", async () => {
      const [indexed, walked] = await Promise.all([this.opts.opened.store.listPaths(), this.opts.indexer.scan(undefined, { startPool: false, listUnsupported: true })]);
      return [...new Set([...indexed, ...(walked.scan.unsupportedPaths ?? [])])].sort();
    });
  }

  completionSymbols(): Promise<readonly string[]> {
    return this.cached("symbols", async () => {
      const names = new Set<string>();
      for await (const chunk of scanSymbols(indexReaderOf(this.opts.opened.store))) for (const [name] of chunk) names.add(name);
      return [...names].sort();
    });
  }

  async close(): Promise<void> {
    this.offWatcher?.();
    const steps: Array<[string, () => Promise<unknown>]> = [
      ["saving the session", () => this.runtime.session.saveState({ touch: false })],
      ["closing the checkpoints", async () => this.runtime.checkpoints.close()],
      ["dropping the empty session", () => this.dropIfEmpty(this.runtime.session)],
      ["leaving the session", async () => this.lease?.release()],
      ["stopping the watcher", async () => this.watcher?.stop()],
      ["stopping the index workers", () => this.opts.indexer.close()],
      ["closing Redis", () => this.opts.opened.release()],
    ];
    const failures: string[] = [];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (error) {
        failures.push(`${what}: ${errorMessage(error)}`);
      }
    }
    if (failures.length) throw new Error(failures.join("; "));
  }
}
