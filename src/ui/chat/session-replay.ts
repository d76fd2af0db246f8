// Shows a loaded session's conversation: user messages, answers without the tool-call markup, each call
// with its title and whether it succeeded; rewind notes as notices; each turn's stats line where its user
// message kept it (sessions from before that have none).
import { CallFenceFilter } from "../../main/agent/call-fence-filter.js";
import { VisibleTextFilter } from "../../main/agent/visible-text.js";
import { parseToolCalls } from "../../main/llm/tool-call-parser.js";
import type { ChatMessage, TurnStatsShown } from "../../main/session/session-types.js";
import { shownError } from "./shown-error.js";
import type { AgentEntry, Transcript } from "./transcript.js";

/**
 * The reply as it streamed: without its call markup, nor the fenced blocks that held a call (judged
 * against the tools the message is recorded to have called, as the live turn judged them against all).
 */
function visible(m: ChatMessage): string {
  const called = new Set((m.toolCalls ?? []).map((c) => c.name));
  const text = new VisibleTextFilter();
  const fences = new CallFenceFilter((block) => called.size > 0 && parseToolCalls(block, called).items.length > 0);
  return fences.push(text.push(m.content)) + fences.push(text.flush()) + fences.flush();
}

export function replaySession(transcript: Transcript, messages: readonly ChatMessage[], titleFor: (name: string, args: Record<string, unknown>) => string): void {
  let agent: AgentEntry | null = null;
  /** How the turn of the last user message ended, when not with an answer. */
  let outcome: string | undefined;
  let stats: TurnStatsShown | undefined;
  /** Why each malformed call of the current answer could not be read, as the live turn showed it. */
  const unreadable = new Map<string, string>();
  const close = () => {
    if (outcome) {
      agent ??= transcript.startAgent();
      transcript.finish(agent, "error", stats, outcome);
    } else if (agent) transcript.finish(agent, "answer", stats);
    agent = null;
    outcome = undefined;
    stats = undefined;
    unreadable.clear();
  };
  for (const m of messages) {
    if (m.role === "user" && m.note) {
      // A note ipuaro left for the model after a rewind: shown as what it is, not as the user's words.
      close();
      transcript.notice("info", m.content);
      continue;
    }
    if (m.role === "user") {
      close();
      transcript.addUser(m.command === "eval" ? "/eval" : m.content, m.command);
      outcome = m.outcome;
      stats = m.turnStats;
      continue;
    }
    if (m.role === "tool") {
      if (!agent) continue;
      for (const r of m.toolResults ?? []) {
        // Summed up as the live turn did (turn-runner): the reason in a few words, not what the model was told.
        // A malformed call a loop guard stopped (CANCELLED) was shown with why it was stopped instead.
        const reason = r.code === "CANCELLED" ? undefined : unreadable.get(r.callId);
        const said = r.success ? r.summary : (reason ?? shownError(r.error) ?? (r.synthetic ? "cancelled" : undefined));
        transcript.toolResult(agent, r.callId, r.success, said);
      }
      continue;
    }
    agent ??= transcript.startAgent();
    const text = visible(m).trim();
    if (text) transcript.appendText(agent, `${text}\n\n`);
    for (const c of m.toolCalls ?? []) {
      // A malformed call is titled by its name alone, as live (unreadable-call.ts); older sessions kept no reason.
      if (c.malformed && c.reason) unreadable.set(c.id, c.reason);
      transcript.toolCall(agent, c.id, c.malformed ? c.name : titleFor(c.name, c.parameters));
    }
  }
  close();
}
