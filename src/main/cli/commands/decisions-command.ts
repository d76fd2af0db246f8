// `ipuaro decisions [path] [--status S] [--limit N] [--json]`: the project's architecture decisions
// (recorded by the model's decide tool), newest first.
import type { Command } from "commander";
import { decisionsList } from "../../shadow/code-errors.js";
import { DECISION_STATUSES, listDecisions } from "../../shadow/memory-store.js";
import { processIo, reportShadowError, withShadowScope, type ShadowCliIo } from "../../shadow/open-shadow.js";
import { decisionsTable } from "../../shadow/report-tables.js";
import { isShadowError } from "../../shadow/shadow-errors.js";
import { parseChoice, parseLimit } from "../../shadow/shadow-validate.js";
import { resolveProjectRoot } from "../project-root.js";

interface DecisionsOptions {
  status?: string;
  limit?: string;
  json?: boolean;
}

export function registerDecisionsCommand(program: Command, io: ShadowCliIo = processIo): void {
  program
    .command("decisions")
    .description("the project's architecture decisions (ADRs), newest first")
    .argument("[path]", "project root", ".")
    .option("--status <status>", DECISION_STATUSES.join(" | "))
    .option("--limit <n>", "most decisions to show (1-100)", "100")
    .option("--json", 'print {"decisions": [...], "total": n}')
    .action(async (target: string, opts: DecisionsOptions) => {
      const root = resolveProjectRoot(target);
      await withShadowScope(
        root,
        async (scope) => {
          try {
            const status = opts.status ? parseChoice(opts.status, DECISION_STATUSES, "status", "SHADOW_ERR_INVALID_STATUS") : null;
            const result = decisionsList(await listDecisions(scope), status, parseLimit(opts.limit, 100));
            io.out(opts.json ? JSON.stringify(result) : decisionsTable(result));
          } catch (error) {
            if (!isShadowError(error)) throw error;
            reportShadowError(io, error, !!opts.json);
          }
        },
        io.env ? { env: io.env } : {},
      );
    });
}
