// Child-process entry of the parse-only baseline (parse-baseline.ts says why it runs apart).
import { runParseOnly, warmPool, type ParseOnlyRequest } from "./parse-baseline.js";
import { readThreadCpu, splitThreadCpu } from "./thread-cpu.js";
import { createIndexWorkerPool } from "./worker-pool.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input) as ParseOnlyRequest;
const pool = createIndexWorkerPool(request.workers);
try {
  await warmPool(pool, request.root);
  const cpu = process.cpuUsage();
  const threads = readThreadCpu();
  const result = await runParseOnly(request.root, request.paths, pool, request.binaryExtensions);
  const used = process.cpuUsage(cpu);
  const threadCpuSeconds = splitThreadCpu(threads, readThreadCpu(), pool.threadIds);
  process.stdout.write(`${JSON.stringify({ ...result, cpuSeconds: (used.user + used.system) / 1e6, ...(threadCpuSeconds ? { threadCpuSeconds } : {}) })}\n`);
} finally {
  await pool.destroy();
}
