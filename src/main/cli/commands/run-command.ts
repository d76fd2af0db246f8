// `ipuaro run -p PROMPT [path]`: one agent turn without the TUI. The answer streams to stdout, tool calls
// and stats go to stderr (or everything as one JSON object with --json).
import type { Command } from "commander";
import { createAgentRuntime } from "../../agent/agent-runtime.js";
import type { AgentEvent, TurnStats } from "../../agent/events.js";
import { HeadlessUi } from "../../agent/headless-ui.js";
import { loadConfig } from "../../config/loader.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { prepareModel } from "../model-setup.js";
import { formatTurnStats } from "../turn-format.js";
import { resolveProjectRoot } from "./index-command.js";

interface RunOptions {
  prompt: string;
  autoApply?: boolean;
  json?: boolean;
}

export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("run one agent turn headless: stream the answer to stdout, then the stats")
    .requiredOption("-p, --prompt <text>", "the message to the agent")
    .argument("[path]", "project root", ".")
    .option("--auto-apply", "apply edits and run asked-for commands without confirmation (default: reject them)")
    .option("--json", "print one JSON object with the answer, tool calls and stats")
    .action(async (target: string, opts: RunOptions) => {
      process.exitCode = await runAction(target, opts);
    });
}

async function runAction(target: string, opts: RunOptions): Promise<number> {
  const root = resolveProjectRoot(target);
  const { config } = loadConfig({ projectRoot: root });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openProjectStore(config, root);
  const indexer = new ProjectIndexer(root, config, opened.store);
  try {
    // A warm re-index costs little and means the model never reads a stale copy.
    await indexer.index(await indexer.scan());
    await indexer.close();
    const model = await prepareModel(config, { interactive: !!process.stdin.isTTY && !opts.json, log });
    const ui = new HeadlessUi(!!opts.autoApply, log);
    const runtime = createAgentRuntime({
      root,
      config,
      store: opened.store,
      ui,
      llm: model.llm,
      estimator: model.estimator,
      autoApply: () => !!opts.autoApply,
    });
    const calls: { name: string; title: string; success?: boolean; error?: string }[] = [];
    let final: Extract<AgentEvent, { type: "finished" }> | null = null;
    for await (const event of runtime.orchestrator.runTurn(opts.prompt)) {
      if (event.type === "text" && !opts.json) process.stdout.write(event.text);
      else if (event.type === "tool-call") {
        calls.push({ name: event.name, title: event.title });
        if (!opts.json) log(`[${event.title}]`);
      } else if (event.type === "tool-result") {
        const c = calls[calls.length - 1];
        if (c) Object.assign(c, { success: event.result.success, ...(event.result.error ? { error: event.result.error } : {}) });
        if (!opts.json && !event.result.success) log(`  ✗ ${event.result.error}`);
      } else if (event.type === "loop-detected" && !opts.json) log(`ipuaro: ${event.reason}`);
      else if (event.type === "finished") final = event;
    }
    if (!final) return 1;
    const stats: TurnStats = final.stats;
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ answer: final.text, reason: final.reason, toolCalls: calls, stats: { ...stats, timeMs: Math.round(stats.timeMs) } })}\n`);
    } else {
      if (final.reason !== "answer") log(final.text);
      else process.stdout.write("\n");
      if (config.display.showStats) log(formatTurnStats(stats));
    }
    return final.reason === "answer" ? 0 : 1;
  } finally {
    await indexer.close();
    await opened.release();
  }
}
