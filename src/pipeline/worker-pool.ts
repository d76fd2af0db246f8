// The Piscina pool that runs src/workers/index.worker. Under tsx/vitest the worker is the .ts source,
// loaded through a small JS entry that registers tsx in the thread; from dist it is plain JS.
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { IndexTask, IndexTaskResult } from "../workers/protocol.js";

export interface IndexWorkerPool {
  run(task: IndexTask, signal?: AbortSignal): Promise<IndexTaskResult>;
  readonly size: number;
  destroy(): Promise<void>;
}

export function defaultPoolSize(): number {
  return Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
}

export function createIndexWorkerPool(size: number | null = null): IndexWorkerPool {
  const fromSource = import.meta.url.endsWith(".ts");
  const workerUrl = new URL(fromSource ? "../workers/dev-worker-loader.mjs" : "../workers/index.worker.js", import.meta.url);
  const threads = size ?? defaultPoolSize();
  const pool = new Piscina({
    filename: fileURLToPath(workerUrl),
    minThreads: threads,
    maxThreads: threads,
    // Threads stay warm across batches: each holds its own parsers and the xxhash wasm instance.
    idleTimeout: 60_000,
    // tree-sitter frees a native tree in an N-API finalizer, which runs on the thread's event loop. With
    // Piscina's default ("sync": a thread blocks in Atomics.wait between tasks) that loop never turns and
    // every parsed tree stays in memory: ~1.3 GB per 12K files, for as long as the pool lives.
    atomics: "disabled",
  });
  return {
    size: threads,
    run: (task, signal) => pool.run(task, signal ? { signal } : {}) as Promise<IndexTaskResult>,
    destroy: () => pool.destroy(),
  };
}
