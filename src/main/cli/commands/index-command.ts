// `ipuaro index [path]`: declared here, done in index-action.ts (loaded when the command runs, so
// ipuaro's own redis-server can start meanwhile, and --help does not load the indexer).
import { InvalidArgumentError, type Command } from "commander";
import { FatalError } from "../../errors.js";
import { startRedisEarly } from "../early-redis.js";
import type { IndexOptions } from "./index-action.js";

/** Options that index, which `--drop` (deleting the index) cannot go with. */
const INDEXING_OPTIONS = ["bench", "force", "watch"] as const;

/** `true`/`false` (also yes/no, 1/0); anything else is a usage error rather than quietly true. */
function parseBool(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (["true", "yes", "1"].includes(v)) return true;
  if (["false", "no", "0"].includes(v)) return false;
  throw new InvalidArgumentError(`expected true or false, got "${value}"`);
}

export function registerIndexCommand(program: Command): void {
  program
    .command("index")
    .description("index a project into Redis (structure, AST, metrics, dependency graph)")
    .argument("[path]", "project root", ".")
    .option("--bench", "print per-stage timings, throughput, memory, event-loop delay and a parse-only baseline")
    .option("--json", "print the result as one JSON object")
    .option("-y, --yes", "do not ask before indexing more than limits.maxFilesWarning files")
    .option("--parse-only-baseline <bool>", "with --bench, also time a parse-only run of the same files", parseBool, true)
    .option("--force", "re-parse every file, whatever the index already holds (rebuilds a damaged index)")
    .option("-w, --watch", "after indexing, keep the index live (file changes are applied as they happen) until Ctrl+C")
    .option("--drop", "delete the project's index from Redis instead (its sessions and memory are kept)")
    .action(async (target: string, opts: IndexOptions & { drop?: boolean }) => {
      if (opts.drop) {
        const clash = INDEXING_OPTIONS.find((o) => opts[o]);
        if (clash) throw new FatalError(`--drop deletes the index; it cannot go with --${clash}`, 2);
        await startRedisEarly(target);
        const { dropIndexAction } = await import("./index-drop-action.js");
        return dropIndexAction(target, opts);
      }
      await startRedisEarly(target);
      const { indexAction } = await import("./index-action.js");
      await indexAction(target, opts);
    });
}

