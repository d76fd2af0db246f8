// The rows of `/status`: Redis, index size, watcher, model, context and the session's stats. Each row
// is measured on its own, so one failing source (Redis gone) shows as that row's error, not a failure.
import type { ReadyModel } from "../../main/cli/model-setup.js";
import type { IpuaroConfig } from "../../main/config/schema.js";
import { DeferredModelCheck } from "../../main/llm/deferred-model-check.js";
import { errorMessage } from "../../main/errors.js";
import type { LiveSession } from "../../main/session/live-session.js";
import type { ChatMessage, ContextState, SessionStats } from "../../main/session/session-types.js";
import type { OpenedProjectStore } from "../../main/store/open-project-store.js";
import type { IndexState, TuiBackend } from "../app/tui-backend.js";
import { counted } from "../../main/plural.js";
import { formatBytes } from "../../main/checkpoints/index.js";

export interface StatusSources {
  backend: Pick<TuiBackend, "projectName" | "root" | "autoApply">;
  opened: OpenedProjectStore;
  config: IpuaroConfig;
  model: ReadyModel;
  session: LiveSession;
  watcherState: IndexState;
}

const int = (n: number) => n.toLocaleString("en-US");

/**
 * A measured time in ms with the digits it needs: a ping over a unix socket (0.04 ms) read "0.0 ms".
 */
export function millisText(ms: number): string {
  return `${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
}

/** A session's time: `40.0 s`, `12 min 5 s`, `2 h 3 min` (7,200.0 s read as a slip), `0.35 s`. */
export function secondsText(ms: number): string {
  const s = ms / 1000;
  if (s < 1) return `${ms === 0 ? "0" : s.toFixed(2)} s`;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}

/** `19 files, 38.2 KiB in Redis`: a small project's index read "0.0 MB". */
export function indexRow(files: number, bytes: number): string {
  return `${counted(files, "file")}, ${formatBytes(bytes)} in Redis`;
}

async function measured(fn: () => Promise<string>): Promise<string> {
  try {
    return await fn();
  } catch (error) {
    return `✗ ${errorMessage(error)}`;
  }
}

export async function statusRows(s: StatusSources): Promise<Array<[string, string]>> {
  const { opened, session, config, model } = s;
  // Measured alone: sent together with the index row's HKEYS, the ping's time included parsing that
  // reply (≈ 20 ms for 12K paths) and read as a slow Redis.
  const redis = await measured(async () => {
    const t = performance.now();
    await opened.redis.ping();
    // The managed server's description already says whose it is; the pid is what is worth adding.
    const where = opened.managed ? `${opened.description}, pid ${opened.managed.pid}` : opened.description;
    return `${where}, ping ${millisText(performance.now() - t)}`;
  });
  const index = measured(async () => {
    const [paths, bytes] = await Promise.all([opened.store.listPaths(), opened.store.projectMemoryBytes()]);
    return indexRow(paths.length, bytes);
  });
  const st = session.state.stats;
  return [
    ["Project", `${s.backend.projectName} — ${s.backend.root}`],
    ["Redis", redis],
    ["Index", await index],
    ["Watcher", s.watcherState.text ?? "—"],
    ["Model", modelRow(config, model)],
    ["Context", contextRow(session.state.context)],
    ["Session", sessionRow(session.id, st, session.messages())],
    ["Tools", toolsRow(st)],
    ["Auto-apply", s.backend.autoApply() ? "on" : "off"],
  ];
}

/**
 * `4,900 / 32,768 tokens (15%), 2 files loaded`. Estimated (no count of the server's covers the history
 * as it is: after a rewind, before the first answer) is said; a window not known yet (Ollama has not
 * answered, and no earlier count had one) is no "/ 0".
 */
export function contextRow(ctx: Pick<ContextState, "tokensUsed" | "tokensLimit" | "loadedFiles" | "measuredMessages">): string {
  const estimated = ctx.measuredMessages === undefined && ctx.tokensUsed > 0 ? " (estimated)" : "";
  const size =
    ctx.tokensLimit > 0
      ? `${int(ctx.tokensUsed)} / ${int(ctx.tokensLimit)} tokens (${Math.round((ctx.tokensUsed / ctx.tokensLimit) * 100)}%${estimated ? ", estimated" : ""})`
      : `${int(ctx.tokensUsed)} tokens${estimated} of a window not known yet (Ollama has not answered)`;
  return `${size}, ${counted(ctx.loadedFiles.length, "file")} loaded`;
}

/**
 * `…: 6 of your messages in the conversation now; 18 turns in all, …`. The stats count every turn of the
 * session, also those a rewind took off the conversation: "18 turns" beside a conversation of six read
 * as wrong.
 */
export function sessionRow(id: string, st: Pick<SessionStats, "turns" | "totalTokens" | "totalTime">, messages: readonly ChatMessage[]): string {
  const yours = messages.filter((m) => m.role === "user" && !m.note).length;
  return `${id}: ${counted(yours, "message")} of yours in the conversation now; ${counted(st.turns, "turn")} in all, ${int(st.totalTokens)} tokens, ${secondsText(st.totalTime)}`;
}

/** `1 call, 1 edit applied, …`: counted words, as a row people read ("1 edits applied" read as a slip). */
export function toolsRow(st: Pick<SessionStats, "toolCalls" | "editsApplied" | "editsRejected" | "undos" | "compactions">): string {
  return `${counted(st.toolCalls, "call")}, ${counted(st.editsApplied, "edit")} applied, ${st.editsRejected} rejected, ${st.undos} undone, ${counted(st.compactions, "compaction")}`;
}

/**
 * The window is the model's once Ollama has answered; before that, only the configured one is known. A
 * configured window larger than the model's was cut to it: said here, quietly (start-up warns only
 * about a window the user set).
 */
export function modelRow(config: IpuaroConfig, model: ReadyModel): string {
  const where = `${config.llm.model} at ${config.llm.host}`;
  if (model.llm instanceof DeferredModelCheck && !model.llm.checked) {
    return `${where}, not checked yet (Ollama has not answered; the next message tries again), configured window ${int(model.llm.contextWindow)} tokens`;
  }
  const window = model.llm.contextWindow;
  const cut = window < config.llm.contextWindow ? ` (the model's maximum; llm.contextWindow is ${int(config.llm.contextWindow)})` : "";
  return `${where}, context window ${int(window)} tokens${cut}`;
}
