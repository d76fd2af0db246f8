// What `ipuaro run` does (run-command.ts declares it and checks its options): one agent turn without the
// TUI, the answer streamed to stdout, tool calls and stats to stderr (or one JSON object).
import { createAgentRuntime } from "../../agent/agent-runtime.js";
import type { AgentEvent, TurnStats } from "../../agent/events.js";
import type { CompactionReport } from "../../context/compression/compact-conversation.js";
import { findSession, openSession, type SessionChoice } from "../../session/open-session.js";
import type { RunOptions } from "./run-command.js";
import { HeadlessUi } from "../../agent/headless-ui.js";
import type { IpuaroError } from "../../errors.js";
import { loadConfig } from "../../config/loader.js";
import { guardInterrupts, Interrupted, INTERRUPTED_EXIT_CODE } from "../interrupts.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { prepareModel } from "../model-setup.js";
import { formatTurnStats } from "../turn-format.js";
import { resolveProjectRoot } from "../project-root.js";
import { firstIndexNote } from "./first-index-note.js";

export async function runAction(target: string, opts: RunOptions, choice: SessionChoice): Promise<number> {
  const root = resolveProjectRoot(target);
  const { config } = loadConfig({ projectRoot: root });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openProjectStore(config, root);
  const indexer = new ProjectIndexer(root, config, opened.store);
  // Ctrl+C ends the turn as the TUI's Esc does: the session keeps what was done, Redis is released.
  const stop = new AbortController();
  let releaseLease: () => Promise<void> | undefined = () => undefined;
  const guard = guardInterrupts(() => {
    log("stopping… (Ctrl+C again to quit at once)");
    stop.abort(new Interrupted());
  });
  try {
    // What can refuse the run (no Ollama or model, a --session that does not exist) is checked before
    // the index: said at once, not after indexing the folder. The session itself is opened after it, so
    // an index stopped by Ctrl+C leaves no empty session behind.
    const model = await prepareModel(config, { interactive: !!process.stdin.isTTY && !opts.json, log, sayDefaultWindowCut: false });
    if (choice.kind === "id") await findSession({ redis: opened.redis, projectName: opened.store.projectName, root, config, id: choice.id });
    // A warm re-index costs little and means the model never reads a stale copy.
    await indexer.scanAndIndex({ signal: stop.signal, proceed: firstIndexNote(opened.store, config.limits.maxFilesWarning, "the agent runs") });
    await indexer.close();
    const ui = new HeadlessUi(!!opts.autoApply, log, !!opts.allowCommands);
    const { session, created, repairedCalls, lease } = await openSession({ redis: opened.redis, projectName: opened.store.projectName, root, config, choice, lease: "ipuaro run", ifLastOpenElsewhere: "refuse" });
    releaseLease = () => lease?.release();
    if (!opts.json) {
      const note = created ? (choice.kind === "last" ? " (new: the project had none)" : " (new)") : "";
      log(`session ${session.id}${note}${repairedCalls ? `; ${repairedCalls} call(s) the last run left unfinished were marked cancelled` : ""}`);
    }
    const runtime = createAgentRuntime({
      root,
      config,
      store: opened.store,
      ui,
      llm: model.llm,
      estimator: model.estimator,
      autoApply: () => !!opts.autoApply,
      session,
      index: {
        // A warm re-index is cheap and needs no watcher: only the changed files are parsed again.
        refreshIndex: async () => void (await indexer.scanAndIndex()),
        registerOwnWrite: () => {},
      },
    });
    if (opts.prompt !== undefined) await session.addInput(opts.prompt);
    const calls: { name: string; title: string; success?: boolean; error?: string }[] = [];
    const compactions: CompactionReport[] = [];
    let final: Extract<AgentEvent, { type: "finished" }> | null = null;
    // The headless port prints an error (with its fix) when it happens: the turn's end need not repeat it.
    let errorShown = false;
    let lastError: IpuaroError | null = null;
    let streamed = false;
    let toolsSinceText = false;
    const warnings: string[] = [];
    let lastText = "";
    const turn = opts.eval ? runtime.evaluate(stop.signal) : runtime.orchestrator.runTurn(opts.prompt!, stop.signal);
    for await (const event of turn) {
      if (event.type === "text" && !opts.json) {
        // A round after tool calls starts on a line of its own ("Reading.slugify is on line 2.").
        if (toolsSinceText && streamed && !lastText.endsWith("\n")) process.stdout.write("\n");
        toolsSinceText = false;
        process.stdout.write(event.text);
        if (event.text) lastText = event.text;
        streamed ||= event.text.length > 0;
      } else if (event.type === "error") {
        if (!opts.json) ui.sayError(event.error);
        lastError = event.error;
        errorShown = true;
      }
      else if (event.type === "tool-call") {
        toolsSinceText = true;
        calls.push({ name: event.name, title: event.title });
        if (!opts.json) log(`[${event.title}]`);
      } else if (event.type === "tool-result") {
        const c = calls[calls.length - 1];
        if (c) Object.assign(c, { success: event.result.success, ...(event.result.error ? { error: event.result.error } : {}) });
        // What the TUI shows beside the call: "12 lines", "+1 -1", "3 references in 2 files".
        const said = event.result.success ? event.result.display.summary : `✗ ${event.result.error}`;
        if (!opts.json && said) log(`  ${said}`);
      } else if (event.type === "loop-detected" && !opts.json) log(`ipuaro: ${event.reason}`);
      else if (event.type === "retry" && !opts.json) log(`ipuaro: retrying: ${event.reason}`);
      else if (event.type === "warning") {
        warnings.push(event.message);
        if (!opts.json) log(`ipuaro: ${event.message}`);
      }
      else if (event.type === "compacted") {
        compactions.push(event.report);
        if (!opts.json) log(`ipuaro: context ${event.report.percentBefore}% → ${event.report.percentAfter}% (compressed)`);
      } else if (event.type === "compaction-failed" && !opts.json) log(`ipuaro: ${event.message}`);
      else if (event.type === "finished") final = event;
    }
    if (!final) return 1;
    const stats: TurnStats = final.stats;
    if (opts.json) {
      const out = {
        // A loop guard's stop still has the model's closing answer; its reason is in `error`/`reason`.
        answer: final.answer ?? final.text,
        reason: final.reason,
        // Why the tools were stopped when the answer above came after a loop guard's stop.
        ...(final.answer !== undefined ? { stopped: final.text } : {}),
        toolCalls: calls,
        stats: { ...stats, timeMs: Math.round(stats.timeMs) },
        session: session.id,
        context: { tokensUsed: session.state.context.tokensUsed, tokensLimit: session.state.context.tokensLimit },
        compactions,
        warnings,
        // What ended a turn without an answer (null otherwise), with the fix when there is one.
        error: final.reason !== "answer" && lastError ? { type: lastError.type, ...(lastError.code ? { code: lastError.code } : {}), message: lastError.message, ...(lastError.suggestion ? { suggestion: lastError.suggestion } : {}) } : null,
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
    } else {
      // The streamed part of an answer cut short still ends its line on stdout.
      if (final.reason === "answer" || streamed) process.stdout.write("\n");
      // An interrupted answer is on stdout already: only that it was cut short is said.
      if (final.reason !== "answer" && !errorShown) log(final.reason === "cancelled" && streamed ? "[interrupted]" : final.text);
      if (config.display.showStats) log(formatTurnStats(stats));
    }
    if (guard.interrupted) return INTERRUPTED_EXIT_CODE;
    // An empty answer is no answer to a script.
    return final.reason === "answer" && final.text.trim() ? 0 : 1;
  } catch (err) {
    if (!guard.interrupted && !(err instanceof Interrupted)) throw err;
    log("ipuaro: cancelled (Ctrl+C)");
    return INTERRUPTED_EXIT_CODE;
  } finally {
    guard.detach();
    await releaseLease();
    await indexer.close();
    await opened.release();
  }
}
