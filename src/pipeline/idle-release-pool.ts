// The UI's worker pool lets its threads go once the index has been idle a while, and starts them again
// for the next change. A thread keeps what parsing a batch took — its V8 heap, tree-sitter's native
// buffers, its malloc arena — and a long-lived UI grew by 100–300 MB with every large change on disk
// (a branch switch, a restored package) without ever giving it back. Ending the threads through the
// pool's own destroy() (finalizers first, see worker-pool.ts) returns it; the cost is a fresh start of
// the threads (their parsers, the xxhash instance) on the next change after a quiet spell.
import type { IndexTask, IndexTaskResult } from "../workers/protocol.js";
import type { IndexWorkerPool } from "./worker-pool.js";

/** `onRelease`: called once the threads have ended (the main thread's garbage of the batch can go too). */
export function releasedWhenIdle(create: () => IndexWorkerPool, shape: { size: number; capacity: number }, idleMs: number, onRelease?: () => void): IndexWorkerPool {
  let inner: IndexWorkerPool | null = null;
  /** A release under way: a task that comes meanwhile waits for it, then starts new threads. */
  let releasing: Promise<void> | null = null;
  let active = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const threadIds = new Set<number>();

  const release = () => {
    timer = null;
    if (active > 0 || !inner || releasing) return;
    const old = inner;
    inner = null;
    releasing = old
      .destroy()
      .then(() => onRelease?.())
      .catch(() => undefined)
      .finally(() => {
        releasing = null;
      });
  };
  const idle = () => {
    if (active > 0 || closed) return;
    timer = setTimeout(release, idleMs);
    // The timer alone never keeps the process alive.
    timer.unref();
  };

  return {
    size: shape.size,
    capacity: shape.capacity,
    get queued() {
      return inner?.queued ?? 0;
    },
    threadIds,
    async run(task: IndexTask, signal?: AbortSignal): Promise<IndexTaskResult> {
      if (closed) throw new Error("the worker pool is closed");
      if (timer) clearTimeout(timer);
      timer = null;
      active++;
      try {
        while (releasing) await releasing;
        if (closed) throw new Error("the worker pool is closed");
        inner ??= create();
        const pool = inner;
        try {
          return await pool.run(task, signal);
        } finally {
          for (const id of pool.threadIds) threadIds.add(id);
        }
      } finally {
        active--;
        idle();
      }
    },
    async destroy() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await releasing;
      const last = inner;
      inner = null;
      await last?.destroy();
    },
  };
}
