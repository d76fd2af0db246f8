// What `ipuaro run` does (run-command.ts declares it and checks its options): one agent turn without the
// TUI, the answer streamed to stdout, tool calls and stats to stderr (or one JSON object).
import { createAgentRuntime } from "../../agent/agent-runtime.js";
import type { AgentEvent, TurnStats } from "../../agent/events.js";
import type { CompactionReport } from "../../context/compression/compact-conversation.js";
import { findSession, openSession, type SessionChoice } from "../../session/open-session.js";
import { lastAnswer, noSessionToEvaluate, nothingToEvaluate } from "../../session/eval-prompt.js";
import type { RunOptions } from "./run-command.js";
import { HeadlessUi } from "../../agent/headless-ui.js";
import { LiveOutputLines } from "../live-output.js";
import type { IpuaroError } from "../../errors.js";
import { loadConfig } from "../../config/loader.js";
import type { IpuaroConfig } from "../../config/schema.js";
import { guardInterrupts, Interrupted, stoppedNote, stoppingNote } from "../interrupts.js";
import { ProjectIndexer } from "../../indexing/project-indexer.js";
import { refuseFirstIndexOfHome } from "../../indexing/index-root.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { prepareModel } from "../model-setup.js";
import { formatTurnStats } from "../turn-format.js";
import { resolveProjectRoot } from "../project-root.js";
import { firstIndexNote, withSlowIndexNote } from "./first-index-note.js";

export async function runAction(target: string, opts: RunOptions, choice: SessionChoice): Promise<number> {
  const root = resolveProjectRoot(target);
  const { config } = loadConfig({ projectRoot: root });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Whatever ends the run, the answer's last line on stdout is ended (a reply cut short included).
  let lineOpen = false;
  const out = (text: string) => {
    if (!text) return;
    process.stdout.write(text);
    lineOpen = !text.endsWith("\n");
  };
  const opened = await openProjectStore(config, root);
  const indexer = new ProjectIndexer(root, config, opened.store, { by: "ipuaro run" });
  // Ctrl+C ends the turn as the TUI's Esc does: the session keeps what was done, Redis is released.
  const stop = new AbortController();
  let releaseLease: () => Promise<void> | undefined = () => undefined;
  const guard = guardInterrupts((signal) => {
    log(stoppingNote(signal));
    // Whatever the run waits for (the model check, a request the model has not answered yet) ends now.
    stop.abort(new Interrupted());
  });
  try {
    // What can refuse the run (a --session that does not exist, nothing for --eval to check, no Ollama or
    // model) is checked before the index: said at once, not after indexing the folder. The session itself
    // is opened after it, so an index stopped by Ctrl+C leaves no empty session behind.
    if (choice.kind === "id" || opts.eval) {
      const projectName = opened.store.projectName;
      const found = await findSession({ redis: opened.redis, projectName, root, config, id: choice.kind === "id" ? choice.id : null });
      if (opts.eval && !found) throw noSessionToEvaluate(projectName);
      if (opts.eval && found && !lastAnswer(found.messages())) throw nothingToEvaluate(found.id);
    }
    await refuseFirstIndexOfHome(root, opened.store);
    const model = await prepareModel(config, { interactive: !!process.stdin.isTTY && !opts.json, log, signal: stop.signal });
    // A warm re-index costs little and means the model never reads a stale copy.
    await withSlowIndexNote("the agent runs", () => indexer.scanAndIndex({ signal: stop.signal, proceed: firstIndexNote(opened.store, config.limits.maxFilesWarning, "the agent runs") }), (line) => log(line.trimEnd()));
    await indexer.close();
    // On a terminal a command's output shows as it comes; in a log or a pipe only its result line does.
    const live = process.stderr.isTTY && !opts.json ? new LiveOutputLines(log) : null;
    const ui = new HeadlessUi(!!opts.autoApply, log, !!opts.allowCommands, live ? (chunk) => live.push(chunk) : undefined);
    const { session, created, repairedCalls, lease } = await openSession({
      redis: opened.redis,
      projectName: opened.store.projectName,
      root,
      config,
      choice,
      lease: "ipuaro run",
      ifLastOpenElsewhere: "refuse",
      openElsewhereHint: openElsewhereHint(opts, choice),
    });
    releaseLease = () => lease?.release();
    if (!opts.json) {
      const note = created ? (choice.kind === "last" ? " (new: the project had none)" : " (new)") : "";
      log(`session ${session.id}${note}${repairedCalls ? `; ${repairedCalls} call(s) the last run left unfinished were marked cancelled` : ""}`);
    }
    const runtime = createAgentRuntime({
      root,
      config: headlessConfig(config),
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
        // No watcher here: before a search answers from the index, what a command (or the user) changed
        // during the turn is taken in — find_definition gave the lines from before a `sed -i`.
        indexSettled: async () => {
          await indexer.scanAndIndex({ signal: stop.signal });
          return { settled: true, backlog: 0 };
        },
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
        if (toolsSinceText && streamed && !lastText.endsWith("\n")) out("\n");
        toolsSinceText = false;
        out(event.text);
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
        live?.flush();
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
    // A turn an error or a signal ended has no answer: what the model had written when it broke off is
    // kept, marked `cutOff`, and why it broke off is in `error` (or `reason`: cancelled).
    const cutShort = final.reason === "cancelled" || (final.reason !== "answer" && lastError !== null);
    if (opts.json) {
      const result = {
        // A loop guard's stop still has the model's closing answer; its reason is in `error`/`reason`.
        answer: cutShort ? (final.partial ?? "") : (final.answer ?? final.text),
        ...(cutShort && final.partial ? { cutOff: true } : {}),
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
      out(`${JSON.stringify(result)}\n`);
    } else {
      // The streamed part of an answer cut short still ends its line on stdout.
      if (final.reason === "answer" || streamed) out("\n");
      // An interrupted answer is on stdout already: only that it was cut short is said.
      if (final.reason === "cancelled") {
        if (streamed) log("[interrupted]");
      } else if (final.reason !== "answer" && !errorShown) log(final.text);
      if (config.display.showStats) log(formatTurnStats(stats));
    }
    if (guard.interrupted) {
      if (!opts.json) log(`ipuaro: ${stoppedNote(guard.signal ?? "SIGINT")}`);
      return guard.exitCode;
    }
    // An empty answer is no answer to a script.
    return final.reason === "answer" && final.text.trim() ? 0 : 1;
  } catch (err) {
    if (!guard.interrupted && !(err instanceof Interrupted)) throw err;
    const note = stoppedNote(guard.signal ?? "SIGINT");
    log(`ipuaro: ${note}`);
    // As for any failure with --json (program.ts): a script reading stdout still gets one object.
    if (opts.json) out(`${JSON.stringify({ error: { type: "interrupted", message: note } })}\n`);
    return guard.exitCode;
  } finally {
    if (lineOpen) out("\n");
    guard.detach();
    await releaseLease();
    await indexer.close();
    await opened.release();
  }
}

/** The fix for a session refused as open in another ipuaro, in options `run` has (it has no --new). */
function openElsewhereHint(opts: RunOptions, choice: SessionChoice): string {
  if (opts.eval) return "Close it there first, or check another session's last answer with --eval --session ID.";
  if (choice.kind === "id") return "Close it there first, or leave out --session to start a new session.";
  return "Close it there first, or leave out --continue to start a new session.";
}

/**
 * A command that never ends by itself (a dev server, a watch mode) has nobody to stop it in `ipuaro run`,
 * in a script or CI above all: with no commands.timeout set, run bounds commands at this.
 */
export const HEADLESS_COMMAND_TIMEOUT_MS = 10 * 60_000;

/** The config a headless run works with: the user's, with commands bounded when they set no timeout. */
export function headlessConfig(config: IpuaroConfig): IpuaroConfig {
  if (config.commands.timeout !== null) return config;
  return { ...config, commands: { ...config.commands, timeout: HEADLESS_COMMAND_TIMEOUT_MS } };
}
