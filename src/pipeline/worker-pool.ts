// The Piscina pool that runs src/workers/index.worker. Under tsx/vitest the worker is the .ts source,
// loaded through a small JS entry that registers tsx in the thread; from dist it is plain JS.
//
// A thread is never ended while it runs a task: terminating a thread inside tree-sitter (or with its
// finalizers still queued) makes node-addon-api throw where nothing can catch it, and the whole process
// aborts. So tasks wait in this module's own queue and go to Piscina a couple per thread; cancelling
// drops queued tasks and lets a running one finish (its result is discarded); destroy() drops the
// queue, waits for the running tasks, lets every thread run its finalizers, and only then ends them.
import os from "node:os";
import { Piscina } from "piscina";
import type { IndexTask, IndexTaskResult } from "../workers/protocol.js";
import { packageFile, RUNNING_FROM_SOURCE } from "./package-files.js";

export interface IndexWorkerPool {
  /** `signal`: drops the task if it has not started; a started one finishes and is then rejected. */
  run(task: IndexTask, signal?: AbortSignal): Promise<IndexTaskResult>;
  readonly size: number;
  /** Tasks the threads hold at once (running or waiting at a thread); more wait in the pool's queue. */
  readonly capacity: number;
  /** Tasks waiting for a thread. */
  readonly queued: number;
  /** Kernel ids of the threads that have answered a task (Linux), for per-thread CPU accounting. */
  readonly threadIds: ReadonlySet<number>;
  destroy(): Promise<void>;
}

interface Job {
  task: IndexTask;
  signal: AbortSignal | undefined;
  resolve(result: IndexTaskResult): void;
  reject(error: unknown): void;
}

/** The queued jobs of one signal, and its one abort listener (a signal may serve hundreds of jobs). */
interface SignalWatch {
  jobs: Set<Job>;
  onAbort: () => void;
}

export function defaultPoolSize(): number {
  return Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
}

/**
 * Tasks handed to each thread at once. A thread runs them one after the other (the worker yields to
 * its event loop before each, so finalizers still run), but the next one is already waiting in its
 * port when it finishes: with one, a thread sat idle until a busy main thread (graph, Redis replies,
 * GC) got round to its result — a tenth of the hand-overs waited over 13 ms, ~0.4 s per thread on a
 * 12K-file index.
 */
export const TASKS_PER_THREAD = 2;

const cancelled = (signal: AbortSignal): unknown => signal.reason ?? new Error("the task was cancelled");

export function createIndexWorkerPool(size: number | null = null, opts: { niceness?: number } = {}): IndexWorkerPool {
  const threads = size ?? defaultPoolSize();
  const pool = new Piscina({
    // Each thread lowers its own priority (Linux: per thread) when asked: see ProjectIndexer's background.
    ...(opts.niceness ? { workerData: { niceness: opts.niceness } } : {}),
    filename: RUNNING_FROM_SOURCE ? packageFile("src", "workers", "dev-worker-loader.mjs") : packageFile("dist", "workers", "index.worker.js"),
    minThreads: threads,
    maxThreads: threads,
    // Threads stay warm across batches: each holds its own parsers and the xxhash wasm instance.
    idleTimeout: 60_000,
    // tree-sitter frees a native tree in an N-API finalizer, which runs on the thread's event loop. With
    // Piscina's default ("sync": a thread blocks in Atomics.wait between tasks) that loop never turns and
    // every parsed tree stays in memory: ~1.3 GB per 12K files, for as long as the pool lives.
    atomics: "disabled",
    concurrentTasksPerWorker: TASKS_PER_THREAD,
  });
  let queue: Job[] = [];
  const running = new Set<Promise<unknown>>();
  const watches = new Map<AbortSignal, SignalWatch>();
  /** Queued jobs are dropped when their signal aborts; a started one finishes and is then rejected. */
  const watch = (job: Job, signal: AbortSignal) => {
    let w = watches.get(signal);
    if (!w) {
      const jobs = new Set<Job>();
      const onAbort = () => {
        watches.delete(signal);
        queue = queue.filter((j) => !jobs.has(j));
        for (const j of jobs) j.reject(cancelled(signal));
      };
      watches.set(signal, (w = { jobs, onAbort }));
      signal.addEventListener("abort", onAbort, { once: true });
    }
    w.jobs.add(job);
  };
  const unwatch = (job: Job) => {
    const w = job.signal && watches.get(job.signal);
    if (!w || !job.signal) return;
    w.jobs.delete(job);
    if (w.jobs.size) return;
    job.signal.removeEventListener("abort", w.onAbort);
    watches.delete(job.signal);
  };
  const threadIds = new Set<number>();
  let closed = false;

  const pump = () => {
    while (running.size < threads * TASKS_PER_THREAD && queue.length) {
      const job = queue.shift() as Job;
      unwatch(job);
      const started = pool.run(job.task) as Promise<IndexTaskResult>;
      running.add(started);
      // The next task goes out before the caller sees this result: its handling (graph, writes) can take
      // a while, and a thread should not sit idle through it.
      const next = () => {
        running.delete(started);
        pump();
      };
      started.then(
        (result) => {
          if (result.thread !== undefined) threadIds.add(result.thread);
          next();
          if (job.signal?.aborted) job.reject(cancelled(job.signal));
          else job.resolve(result);
        },
        (error: unknown) => {
          next();
          job.reject(error);
        },
      );
    }
  };

  return {
    size: threads,
    capacity: threads * TASKS_PER_THREAD,
    get queued() {
      return queue.length;
    },
    threadIds,
    run: (task, signal) =>
      new Promise<IndexTaskResult>((resolve, reject) => {
        if (closed) return reject(new Error("the worker pool is closed"));
        if (signal?.aborted) return reject(cancelled(signal));
        const job: Job = { task, signal, resolve, reject };
        if (signal) watch(job, signal);
        queue.push(job);
        pump();
      }),
    destroy: async () => {
      if (closed) return;
      closed = true;
      for (const job of queue) {
        unwatch(job);
        job.reject(new Error("the worker pool is closed"));
      }
      queue = [];
      await Promise.allSettled([...running]);
      // Every thread is idle now, so each takes one settle task (Piscina gives a task to an idle thread
      // before doubling up on a busy one): no finalizer is left queued at the end.
      await Promise.allSettled(Array.from({ length: threads }, () => pool.run({ root: "", paths: [], binaryExtensions: [], mode: "settle" } satisfies IndexTask)));
      await pool.destroy();
    },
  };
}
