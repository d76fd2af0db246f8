// Child-process entry of the parse-only baseline (parse-baseline.ts says why it runs apart).
import { runParseOnly, warmPool, type ParseOnlyRequest } from "./parse-baseline.js";
import { IgnoreRules } from "./ignore-rules.js";
import { scanProject } from "./scanner.js";
import { readThreadCpu, splitThreadCpu } from "./thread-cpu.js";
import { createIndexWorkerPool } from "./worker-pool.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input) as ParseOnlyRequest;
const scan = await scanProject(request.root, { rules: new IgnoreRules(request.root, request.ignorePatterns), binaryExtensions: new Set(request.binaryExtensions) });
const paths = scan.entries.filter((e) => e.kind === "file").map((e) => e.path);
const pool = createIndexWorkerPool(request.workers);
try {
  await warmPool(pool, request.root);
  const faults = process.resourceUsage().minorPageFault;
  const cpu = process.cpuUsage();
  const threads = readThreadCpu();
  const result = await runParseOnly(request.root, paths, pool, request.binaryExtensions);
  const used = process.cpuUsage(cpu);
  const minorPageFaults = process.resourceUsage().minorPageFault - faults;
  const threadCpuSeconds = splitThreadCpu(threads, readThreadCpu(), pool.threadIds);
  process.stdout.write(`${JSON.stringify({ ...result, found: scan.entries.length, cpuSeconds: (used.user + used.system) / 1e6, minorPageFaults, ...(threadCpuSeconds ? { threadCpuSeconds } : {}) })}\n`);
} finally {
  await pool.destroy();
}
