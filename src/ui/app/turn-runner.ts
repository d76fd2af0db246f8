// Plays one turn's events into the chat: streamed text, tool calls as they are made and their results,
// the stats line, context fill for the status bar, errors and retries as notices. A thrown error (the
// model unreachable, Redis gone) ends the turn with an error entry instead of taking the UI down.
import type { TurnEvent } from "../../main/agent/orchestrator.js";
import { isIpuaroError, type IpuaroError } from "../../main/errors.js";
import { compactionNotice } from "./compaction-notice.js";
import type { FinishReason } from "../../main/agent/events.js";
import { Transcript, type AgentEntry } from "../chat/transcript.js";
import { shownError } from "../chat/shown-error.js";
import type { Activity } from "../widgets/status-bar.js";

export interface TurnSink {
  transcript: Transcript;
  setActivity(a: Activity): void;
  setContextPercent(p: number): void;
  changed(): void;
  /** The turn's chat entry, once made (Esc checks whether the turn has produced anything yet). */
  started?(entry: AgentEntry): void;
}

export interface TurnOutcome {
  reason: FinishReason | "failed";
  timeMs: number;
  /**
   * The message was refused before it was taken into the conversation (MESSAGE_TOO_LARGE: it cannot
   * fit in any request): nothing of it is stored, so the input gives it back.
   */
  refused?: IpuaroError;
  /**
   * The user aborted at a failed request before the turn had kept anything but the message: it goes back
   * to the input, as after Esc before the first token (the error stays in the chat as a notice).
   */
  takeBack?: boolean;
}

export async function playTurn(events: AsyncIterable<TurnEvent>, sink: TurnSink): Promise<TurnOutcome> {
  const started = performance.now();
  const t = sink.transcript;
  const entry: AgentEntry = t.startAgent();
  sink.started?.(entry);
  sink.setActivity("thinking");
  sink.changed();
  const ticker = setInterval(() => {
    t.tick(entry);
    sink.changed();
  }, 1000);
  ticker.unref();
  let reason: TurnOutcome["reason"] = "failed";
  let timeMs: number | null = null;
  /** The last error shown as a notice (with its suggestion): a turn it ended need not repeat it. */
  let errorShown: string | null = null;
  let refused: IpuaroError | undefined;
  let takeBack = false;
  /** The last error notice in the answer (moved out of it when the answer leaves the chat). */
  let errorNotice: string | null = null;
  try {
    for await (const e of events) {
      switch (e.type) {
        case "request":
          t.thinking(entry);
          break;
        case "writing":
          t.writing(entry);
          break;
        case "text":
          t.appendText(entry, e.text);
          break;
        case "tool-call":
          t.toolCall(entry, e.callId, e.title);
          t.thinking(entry);
          break;
        case "tool-result": {
          const r = e.result;
          t.toolResult(entry, r.callId, r.success, r.success ? r.display.summary : shownError(r.error ?? r.display.summary), r.display.preview, r.display.details, r.display.detailsHeaderLines);
          t.thinking(entry);
          break;
        }
        case "retry":
          // The failed request's partial reply is gone from the conversation: it goes from the screen too.
          t.dropStreamedText(entry);
          // Its error was just shown in full; an automatic retry (llm.autoRetry) says why itself.
          t.noticeIn(entry, "info", errorShown === e.reason ? "retrying…" : `retrying: ${e.reason}`);
          break;
        case "loop-detected":
          t.noticeIn(entry, "warn", e.reason);
          break;
        case "warning":
          t.noticeIn(entry, "warn", e.message);
          break;
        case "error":
          errorNotice = `${e.error.type} error: ${e.error.message}${e.error.suggestion ? `\n${e.error.suggestion}` : ""} → ${e.choice}`;
          t.noticeIn(entry, "error", errorNotice);
          errorShown = e.error.message;
          if (e.error.code === "MESSAGE_TOO_LARGE") refused = e.error;
          break;
        case "context":
          if (e.tokensLimit > 0) sink.setContextPercent((e.tokensUsed / e.tokensLimit) * 100);
          break;
        case "compacted": {
          const notice = compactionNotice(e.report, { auto: true });
          t.noticeIn(entry, notice.level, notice.text);
          sink.setContextPercent(e.report.percentAfter);
          break;
        }
        case "compaction-failed":
          t.noticeIn(entry, "warn", `context compression failed: ${e.message}`);
          break;
        case "finished": {
          reason = e.reason;
          timeMs = e.stats.timeMs;
          if (e.takeBack) {
            takeBack = true;
            if (errorNotice !== null) t.moveNoticeOut(entry, errorNotice);
          }
          const repeatsError = errorShown !== null && e.reason !== "answer" && !!e.text?.includes(errorShown);
          t.finish(entry, e.reason, e.stats, repeatsError ? undefined : outcomeNotShown(e.reason, e.text, Transcript.answerText(entry).trim()));
          break;
        }
        case "response":
          // The request is done: what comes next (tools, the next request) is not the model writing.
          t.thinking(entry);
          break;
      }
      sink.changed();
    }
  } catch (error) {
    const message = isIpuaroError(error)
      ? `${error.type} error: ${error.message}${error.suggestion ? `\n${error.suggestion}` : ""}`
      : `error: ${error instanceof Error ? error.message : String(error)}`;
    t.finish(entry, "error", undefined, message);
    reason = "failed";
  } finally {
    clearInterval(ticker);
  }
  if (entry.streaming) t.finish(entry, reason === "failed" ? "error" : reason, undefined);
  sink.setActivity(reason === "failed" || reason === "error" ? "error" : "ready");
  sink.changed();
  // The turn's own measure when it reported one (the time the user waited for the answer).
  return { reason, timeMs: timeMs ?? performance.now() - started, ...(refused ? { refused } : {}), ...(takeBack ? { takeBack } : {}) };
}

/**
 * What of a finished turn's text is not on screen yet. An interrupted answer comes back as the text that
 * streamed plus `[interrupted]`: only the marker is new (the whole text again read as a second answer).
 */
function outcomeNotShown(reason: string, text: string | undefined, shown: string): string | undefined {
  const full = text?.trim() ?? "";
  if (reason === "answer" || !full || shown.endsWith(full)) return undefined;
  if (shown && full.startsWith(shown)) return full.slice(shown.length).trim() || undefined;
  return text;
}
