// Parse vs extraction time of extractFile over a directory: `npx tsx bench/ast-accuracy/speed.ts DIR`.
// "parse" runs the same parsers alone; "extractFile" is the whole call; the difference is extraction.
// Reports the fastest of 5 runs as wall time and as process CPU time (user + system, so V8's GC threads
// count: what a worker pool pays; also less disturbed on a shared machine). A full GC runs before each
// run so that one run's dead trees (freed by finalisers) are not charged to the next.
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { extractFile, languageForPath } from "../../src/workers/extract/index.js";
import { parseSource } from "../../src/workers/extract/parsers.js";
import { collectSourceFiles } from "./files.js";

const RUNS = 5;

const dir = process.argv[2];
if (!dir) {
  console.error("usage: speed.ts DIR");
  process.exit(2);
}
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const files = collectSourceFiles(dir).map((path) => ({ source: readFileSync(path, "utf8"), language: languageForPath(path)! }));
const chars = files.reduce((sum, f) => sum + f.source.length, 0);

/** Fastest wall time and fastest process CPU time over RUNS runs. */
function fastest(run: () => void): { wall: number; cpu: number } {
  let wall = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < RUNS; i++) {
    gc();
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    run();
    wall = Math.min(wall, performance.now() - wallStart);
    const used = process.cpuUsage(cpuStart);
    cpu = Math.min(cpu, (used.user + used.system) / 1000);
  }
  return { wall, cpu };
}

// Warm up the grammars and the JIT.
for (const f of files.slice(0, 50)) extractFile(f.source, f.language);
const parse = fastest(() => files.forEach((f) => parseSource(f.source, f.language)));
const full = fastest(() => files.forEach((f) => extractFile(f.source, f.language)));
const row = (label: string, ms: number, base: number): string =>
  `${label.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms${base > 0 ? `  (extraction ${(ms - base).toFixed(0)} ms = ${((100 * (ms - base)) / base).toFixed(0)}% of parse)` : ""}`;
console.log(`${files.length} files, ${(chars / 1e6).toFixed(2)} M chars; parse ${(chars / 1e3 / parse.wall).toFixed(1)} M chars/s`);
console.log(row("parse wall", parse.wall, 0));
console.log(row("full wall", full.wall, parse.wall));
console.log(row("parse CPU", parse.cpu, 0));
console.log(row("full CPU", full.cpu, parse.cpu));
