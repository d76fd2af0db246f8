// `ipuaro decisions [path] [--status S] [--limit N] [--id N] [--json]`: the project's architecture decisions
// (recorded by the model's decide tool), newest first.
import type { Command } from "commander";
import { decisionsList } from "../../shadow/code-errors.js";
import { DECISION_STATUSES, listDecisions } from "../../shadow/memory-store.js";
import { processIo, reportShadowError, withShadowScope, type ShadowCliIo } from "../../shadow/open-shadow.js";
import { decisionDetail, decisionsTable } from "../../shadow/report-tables.js";
import { isShadowError, ShadowError } from "../../shadow/shadow-errors.js";
import { parseChoice, parseLimit } from "../../shadow/shadow-validate.js";
import { resolveProjectRoot } from "../project-root.js";

interface DecisionsOptions {
  status?: string;
  limit?: string;
  id?: string;
  json?: boolean;
}

export function registerDecisionsCommand(program: Command, io: ShadowCliIo = processIo): void {
  program
    .command("decisions")
    .description("the project's architecture decisions (ADRs), newest first")
    .argument("[path]", "project root", ".")
    .option("--status <status>", DECISION_STATUSES.join(" | "))
    .option("--limit <n>", "most decisions to show (1-100)", "100")
    .option("--id <n>", "show this decision in full: context, decision, alternatives, related files")
    .option("--json", 'print {"decisions": [...], "total": n}')
    .action(async (target: string, opts: DecisionsOptions) => {
      const root = resolveProjectRoot(target);
      await withShadowScope(
        root,
        async (scope) => {
          try {
            const status = opts.status ? parseChoice(opts.status, DECISION_STATUSES, "status", "SHADOW_ERR_INVALID_STATUS") : null;
            const all = await listDecisions(scope);
            if (opts.id !== undefined) {
              if (!/^#?[1-9]\d*$/.test(opts.id)) throw new ShadowError("SHADOW_ERR_INVALID_QUERY", `--id takes a decision number (e.g. --id 3); got ${JSON.stringify(opts.id)}.`, { id: opts.id });
              const one = decisionsList(all, null, all.length || 1).decisions.find((d) => String(d.id) === opts.id!.replace(/^#/, ""));
              // As the other errors here: a line on stderr, or the error object with --json.
              if (!one) throw new ShadowError("SHADOW_ERR_NO_DECISIONS", `no decision ${opts.id}; \`ipuaro decisions\` lists them.`, { id: opts.id });
              return io.out(opts.json ? JSON.stringify(one) : decisionDetail(one));
            }
            const result = decisionsList(all, status, parseLimit(opts.limit, 100));
            // "no decisions match" read as if a filter had hidden them when none was ever recorded.
            if (!opts.json && all.length === 0) return io.out("no decisions recorded yet: the agent records one (decide) when you settle a design question with it");
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
