// The bench's yardstick: the same files through the same kind of pool doing only read + parse + extract,
// with nothing hashed, serialised or stored. `cold index / parse-only` shows what storage costs on top.
import type { IndexWorkerPool } from "./worker-pool.js";
import { FILES_PER_TASK } from "./index-pipeline.js";

export async function runParseOnly(root: string, paths: string[], pool: IndexWorkerPool, binaryExtensions: string[]): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < paths.length; i += FILES_PER_TASK) {
    const group = paths.slice(i, i + FILES_PER_TASK);
    tasks.push(pool.run({ root, paths: group, binaryExtensions, mode: "parse-only" }).then((r) => void (bytes += r.bytes)));
  }
  await Promise.all(tasks);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Starts every thread and loads its modules, so neither measured run pays for warm-up. */
export async function warmPool(pool: IndexWorkerPool, root: string): Promise<void> {
  await Promise.all(Array.from({ length: pool.size * 2 }, () => pool.run({ root, paths: [], binaryExtensions: [], mode: "parse-only" })));
}
