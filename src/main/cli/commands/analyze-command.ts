// `ipuaro analyze QUERY [path] [--target P] [--timeframe 30d] [--limit N] [--depth N] [--json]`: the
// model's analyze tool for people — the same analyses, as readable tables or the tool's JSON.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { ANALYZE_QUERIES, runAnalyze } from "../../shadow/analyze.js";
import { processIo, reportShadowError, withShadowScope, type ShadowCliIo } from "../../shadow/open-shadow.js";
import { formatAnalyze } from "../../shadow/report-tables.js";
import { isIpuaroError } from "../../errors.js";
import { toShadowError } from "../../shadow/shadow-errors.js";
import { TIMEFRAMES } from "../../shadow/shadow-validate.js";
import { resolveProjectRoot } from "../project-root.js";
import { isFolder } from "../../security/path-guard.js";

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Queries about one file: `ipuaro analyze predict_change src/pay.ts` means that file of its project. */
const FILE_QUERIES = new Set(["predict_change", "file_history", "dependency_graph"]);

interface AnalyzeOptions {
  target?: string;
  timeframe?: string;
  limit?: string;
  depth?: string;
  json?: boolean;
}

export function registerAnalyzeCommand(program: Command, io: ShadowCliIo = processIo): void {
  program
    .command("analyze")
    .description(`project analytics from git history, agent edits and errors: ${ANALYZE_QUERIES.join(", ")}`)
    .argument("<query>", ANALYZE_QUERIES.join(" | "))
    .argument("[path]", "project root (or, for predict_change, file_history and dependency_graph, the file itself)", ".")
    .option("-t, --target <target>", "file or folder (predict_change, file_history, dependency_graph), search text (knowledge_search), status (decisions_list)")
    .option("--timeframe <window>", TIMEFRAMES.join(" | "))
    .option("--limit <n>", "most results (1-100)")
    .option("--depth <n>", "dependency_graph levels (1-3)")
    .option("--json", "print the result (or the error envelope) as JSON")
    .action(async (query: string, given: string, opts: AnalyzeOptions) => {
      let root: string;
      if (!opts.target && FILE_QUERIES.has(query) && isFile(given)) {
        // The project around the file: the one ipuaro is run in when the file is inside it (without git,
        // the file's own folder was taken for the project and nothing of it was found in the index).
        const file = fs.realpathSync(given);
        const here = fs.realpathSync(process.cwd());
        root = resolveProjectRoot(file.startsWith(here + path.sep) ? here : path.dirname(given));
        opts.target = path.relative(root, file).split(path.sep).join("/");
      } else root = resolveProjectRoot(given);
      await withShadowScope(
        root,
        async (scope) => {
          try {
            const outcome = await runAnalyze(
              scope,
              { query, target: opts.target, timeframe: opts.timeframe, limit: opts.limit, depth: opts.depth },
              // A person waits for a first import of a long history; the model's 5 s limit is not theirs.
              { timeoutMs: 120_000 },
            );
            // On a terminal the tables fit its width (long paths keep their file names).
            const width = io === processIo && process.stdout.isTTY ? process.stdout.columns : undefined;
            io.out(opts.json ? JSON.stringify(outcome.result) : formatAnalyze(outcome.query, outcome.result, width ? { width } : {}));
          } catch (error) {
            // Redis outages keep their own message and exit code (runCli); everything else is the seed's envelope.
            if (isIpuaroError(error)) throw error;
            const shadow = toShadowError(error, "analyze");
            reportShadowError(io, shadow, !!opts.json);
            // `ipuaro analyze .` or `ipuaro analyze ~/shop`: the folder went where the analysis goes.
            if (!opts.json && shadow.code === "SHADOW_ERR_INVALID_QUERY" && isFolder(query)) {
              io.err(`  the analysis comes first, then the folder: ipuaro analyze hotspots ${query}`);
            }
            if (!opts.json && shadow.code === "SHADOW_ERR_MISSING_TARGET") {
              io.err(`  give it with --target: ipuaro analyze ${query} --target ${query === "knowledge_search" ? '"retry policy"' : "src/index.ts"}`);
            }
          }
        },
        io.env ? { env: io.env } : {},
      );
    });
}
