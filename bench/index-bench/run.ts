// `npm run bench`: generates the deterministic 12K-file monorepo, then runs `ipuaro index --bench`
// cold (fresh Redis) and warm (nothing changed), and checks the targets as ratios measured in the
// same run: cold / parse-only ≤ 1.3, warm / cold ≤ 0.10, event-loop p99 ≤ 50 ms.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runIpuaroJson, runTsxScript } from "../lib/run-cli.js";

const TARGETS = { coldToParseOnly: 1.3, warmToCold: 0.1, eventLoopP99Ms: 50 };

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "12000" },
    out: { type: "string" },
    seed: { type: "string", default: "1" },
    "keep-home": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});

const repo = values.out ?? path.join(os.tmpdir(), `ipuaro-bench-${values.files}-${values.seed}`);
const home = fs.mkdtempSync(path.join(os.tmpdir(), "ipuaro-bench-home-"));
const env = { IPUARO_HOME: home, IPUARO_REDIS_URL: "", XDG_CONFIG_HOME: path.join(home, "xdg") };

process.stderr.write(`generating ${values.files} files into ${repo}…\n`);
runTsxScript("bench/generate/cli.ts", ["--files", String(values.files), "--out", repo, "--seed", String(values.seed)]);

process.stderr.write("cold index (fresh Redis) with a parse-only baseline…\n");
const cold = runIpuaroJson(["index", repo, "--bench", "--json", "--yes"], env);
process.stderr.write("warm index (nothing changed)…\n");
const warm = runIpuaroJson(["index", repo, "--bench", "--json", "--yes", "--parse-only-baseline=false"], env);
if (!values["keep-home"]) fs.rmSync(home, { recursive: true, force: true });

const num = (o: Record<string, unknown>, k: string) => Number(o[k]);
const coldTotal = num(cold, "totalSeconds");
const warmTotal = num(warm, "totalSeconds");
const ratioCold = num(cold, "ratioToParseOnly");
const warmToCold = warmTotal / coldTotal;
const p99 = Math.max((cold.eventLoopDelayMs as { p99: number }).p99, (warm.eventLoopDelayMs as { p99: number }).p99);
const checks = {
  coldToParseOnly: { value: ratioCold, target: TARGETS.coldToParseOnly, ok: ratioCold <= TARGETS.coldToParseOnly },
  warmToCold: { value: Math.round(warmToCold * 1000) / 1000, target: TARGETS.warmToCold, ok: warmToCold <= TARGETS.warmToCold },
  eventLoopP99Ms: { value: p99, target: TARGETS.eventLoopP99Ms, ok: p99 <= TARGETS.eventLoopP99Ms },
};
const summary = { repo, cold, warm, checks };
if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
else {
  const s = (o: Record<string, unknown>) => o.stages as Record<string, number>;
  process.stdout.write(
    [
      `files ${cold.files} (${(num(cold, "bytes") / 1024 / 1024).toFixed(1)} MB), parsed cold ${cold.parsed}, warm ${warm.parsed}`,
      `cold   ${coldTotal.toFixed(2)} s  walk ${s(cold).walk} read+hash ${s(cold).readHash} parse ${s(cold).parse} write ${s(cold).write} graph ${s(cold).graph}`,
      `parse-only ${num(cold, "parseOnlySeconds").toFixed(2)} s (fastest of ${(cold.parseOnlyRuns as number[]).join(" / ")} s, before and after the cold run)`,
      `warm   ${warmTotal.toFixed(2)} s  walk ${s(warm).walk} read+hash ${s(warm).readHash} graph ${s(warm).graph}`,
      `peak RSS ${cold.peakRssMb} MB, Redis ${cold.redisUsedMb} MB, event loop p50 ${(cold.eventLoopDelayMs as { p50: number }).p50} ms p99 ${p99} ms`,
      "",
      ...Object.entries(checks).map(([k, c]) => `${c.ok ? "PASS" : "FAIL"}  ${k} = ${c.value} (target ≤ ${c.target})`),
    ].join("\n") + "\n",
  );
}
process.exitCode = Object.values(checks).every((c) => c.ok) ? 0 : 1;
