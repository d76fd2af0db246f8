// One project's indexing service: owns the ignore rules and the worker pool, and runs scans and index
// runs against a store port. The CLI, the TUI and the watcher all drive indexing through it.
import fs from "node:fs";
import path from "node:path";
import type { IpuaroConfig } from "../config/schema.js";
import { entryKindOf, isIndexedEntry } from "../../pipeline/file-kinds.js";
import { IgnoreRules } from "../../pipeline/ignore-rules.js";
import { RunDeclined, runIndex, type IndexProgress, type IndexStats } from "../../pipeline/index-pipeline.js";
import type { IndexStorePort } from "../../pipeline/index-store-port.js";
import { scanProject, startScan, type TimedScan } from "../../pipeline/scanner.js";
import { releasedWhenIdle } from "../../pipeline/idle-release-pool.js";
import { reclaimHeap } from "./heap-reclaim.js";
import { createIndexWorkerPool, defaultPoolSize, TASKS_PER_THREAD, type IndexWorkerPool } from "../../pipeline/worker-pool.js";
import { refuseUnindexableRoot } from "./index-root.js";

export type { TimedScan };

export interface IndexRunHooks {
  /** Files found so far, while walking. */
  onFound?: (n: number) => void;
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  force?: boolean;
  /** Asked when the walk ends, before anything is stored: false ends the run with nothing written. */
  proceed?: (found: number) => boolean | Promise<boolean>;
}

/**
 * Niceness of the UI's index threads. With two cores and two index threads busy, keys waited up to
 * 0.3–0.6 s for the main thread during an index; at a lower priority the scheduler runs it first.
 */
const BACKGROUND_NICENESS = 5;
/** How long the UI's index stays quiet before its worker threads are let go (IPUARO_POOL_IDLE_MS for tests). */
const POOL_IDLE_RELEASE_MS = Number(process.env.IPUARO_POOL_IDLE_MS) || 20_000;

export class ProjectIndexer {
  readonly rules: IgnoreRules;
  readonly binaryExtensions: string[];
  private poolInstance: IndexWorkerPool | null = null;
  private rootChecked = false;

  constructor(
    readonly root: string,
    readonly config: IpuaroConfig,
    readonly store: IndexStorePort,
    /**
     * background: the UI's indexer, whose threads yield the CPU to the thread that draws the screen and
     * reads keys. by: what runs it, as another process waiting for its index runs is told.
     */
    private readonly opts: { background?: boolean; by?: string } = {},
  ) {
    this.rules = new IgnoreRules(root, config.project.ignorePatterns);
    this.binaryExtensions = config.project.binaryExtensions.map((e) => e.toLowerCase());
  }

  /**
   * Whether the index holds an entry at `rel` (relative to the root), or would once a change there is
   * taken in, by the rules the scan and the watcher apply. A path with nothing on it is judged as the
   * file it was: a deleted notes.md never was indexed, a deleted money.ts was.
   */
  tracks(rel: string): boolean {
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(path.join(this.root, rel));
    } catch {
      // Nothing there (deleted, or never written).
    }
    return isIndexedEntry(rel, st ? entryKindOf(st) : "file", this.rules, new Set(this.binaryExtensions));
  }

  get pool(): IndexWorkerPool {
    if (!this.poolInstance) {
      const size = this.config.indexing.workers ?? defaultPoolSize();
      // The UI lives for hours: its threads go when the index is quiet (idle-release-pool.ts).
      this.poolInstance = this.opts.background
        ? releasedWhenIdle(() => createIndexWorkerPool(size, { niceness: BACKGROUND_NICENESS }), { size, capacity: size * TASKS_PER_THREAD }, POOL_IDLE_RELEASE_MS, reclaimHeap)
        : createIndexWorkerPool(size);
    }
    return this.poolInstance;
  }

  /** `startPool`: start the worker threads now, so they load their parsers while this thread walks. */
  /** `listUnsupported`: also list the files of types the index does not hold (.md, .css). */
  async scan(onFound?: (n: number) => void, opts: { startPool?: boolean; listUnsupported?: boolean } = {}): Promise<TimedScan> {
    this.refuseRoot();
    if (opts.startPool ?? true) void this.pool;
    const t = performance.now();
    const scan = await scanProject(this.root, { rules: this.rules, binaryExtensions: new Set(this.binaryExtensions), onProgress: onFound, listUnsupported: !!opts.listUnsupported });
    return { scan, walkSeconds: (performance.now() - t) / 1000 };
  }

  /**
   * Walks the project and indexes it, parsing the first files while the walk goes on. Resolves to null
   * when `proceed` declined the run.
   */
  async scanAndIndex(hooks: IndexRunHooks = {}): Promise<IndexStats | null> {
    this.refuseRoot();
    void this.pool; // threads load their parsers while this thread starts walking
    const walk = () => startScan(this.root, { rules: this.rules, binaryExtensions: new Set(this.binaryExtensions), onProgress: hooks.onFound, signal: hooks.signal });
    try {
      return await runIndex({
        root: this.root,
        walk,
        proceed: hooks.proceed,
        store: this.store,
        pool: this.pool,
        binaryExtensions: this.binaryExtensions,
        onProgress: hooks.onProgress,
        signal: hooks.signal,
        force: !!hooks.force,
        by: this.by,
      });
    } catch (err) {
      if (err instanceof RunDeclined) return null;
      throw err;
    }
  }

  index(timed: TimedScan, onProgress?: (p: IndexProgress) => void, signal?: AbortSignal, opts: { force?: boolean } = {}): Promise<IndexStats> {
    return runIndex({
      root: this.root,
      walk: timed,
      store: this.store,
      pool: this.pool,
      binaryExtensions: this.binaryExtensions,
      onProgress,
      signal,
      force: !!opts.force,
      by: this.by,
    });
  }

  /**
   * Every walk starts here, in the CLI, the UI and the tools alike: the filesystem root (or a virtual
   * filesystem) is refused before a thread starts or a folder is read. Checked once: the root never changes.
   */
  private refuseRoot(): void {
    if (this.rootChecked) return;
    refuseUnindexableRoot(this.root);
    this.rootChecked = true;
  }

  private get by(): string {
    return this.opts.by ?? (this.opts.background ? "the UI" : "ipuaro");
  }

  async close(): Promise<void> {
    const pool = this.poolInstance;
    this.poolInstance = null;
    await pool?.destroy();
  }
}
