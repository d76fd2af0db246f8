// One project's indexing service: owns the ignore rules and the worker pool, and runs scans and index
// runs against a store port. The CLI, the TUI and the watcher all drive indexing through it.
import type { IpuaroConfig } from "../config/schema.js";
import { IgnoreRules } from "../../pipeline/ignore-rules.js";
import { runIndex, type IndexProgress, type IndexStats } from "../../pipeline/index-pipeline.js";
import type { IndexStorePort } from "../../pipeline/index-store-port.js";
import { scanProject, type ScanResult } from "../../pipeline/scanner.js";
import { createIndexWorkerPool, type IndexWorkerPool } from "../../pipeline/worker-pool.js";

export interface TimedScan {
  scan: ScanResult;
  walkSeconds: number;
}

export class ProjectIndexer {
  readonly rules: IgnoreRules;
  readonly binaryExtensions: string[];
  private poolInstance: IndexWorkerPool | null = null;

  constructor(
    readonly root: string,
    readonly config: IpuaroConfig,
    readonly store: IndexStorePort,
  ) {
    this.rules = new IgnoreRules(root, config.project.ignorePatterns);
    this.binaryExtensions = config.project.binaryExtensions.map((e) => e.toLowerCase());
  }

  get pool(): IndexWorkerPool {
    this.poolInstance ??= createIndexWorkerPool(this.config.indexing.workers);
    return this.poolInstance;
  }

  /** `startPool`: start the worker threads now, so they load their parsers while this thread walks. */
  async scan(onFound?: (n: number) => void, opts: { startPool?: boolean } = {}): Promise<TimedScan> {
    if (opts.startPool ?? true) void this.pool;
    const t = performance.now();
    const scan = await scanProject(this.root, { rules: this.rules, binaryExtensions: new Set(this.binaryExtensions), onProgress: onFound });
    return { scan, walkSeconds: (performance.now() - t) / 1000 };
  }

  index(timed: TimedScan, onProgress?: (p: IndexProgress) => void, signal?: AbortSignal, opts: { force?: boolean } = {}): Promise<IndexStats> {
    return runIndex({
      root: this.root,
      scan: timed.scan,
      walkSeconds: timed.walkSeconds,
      store: this.store,
      pool: this.pool,
      binaryExtensions: this.binaryExtensions,
      onProgress,
      signal,
      force: !!opts.force,
    });
  }

  async close(): Promise<void> {
    const pool = this.poolInstance;
    this.poolInstance = null;
    await pool?.destroy();
  }
}
