// Shows a loaded session's conversation: user messages, answers without the tool-call markup, each call
// with its title and whether it succeeded; rewind notes as notices. Per-turn stats are not stored, so replayed answers have none.
import { VisibleTextFilter } from "../../main/agent/visible-text.js";
import type { ChatMessage } from "../../main/session/session-types.js";
import type { AgentEntry, Transcript } from "./transcript.js";

function visible(content: string): string {
  const filter = new VisibleTextFilter();
  return filter.push(content) + filter.flush();
}

export function replaySession(transcript: Transcript, messages: readonly ChatMessage[], titleFor: (name: string, args: Record<string, unknown>) => string): void {
  let agent: AgentEntry | null = null;
  /** How the turn of the last user message ended, when not with an answer. */
  let outcome: string | undefined;
  const close = () => {
    if (outcome) {
      agent ??= transcript.startAgent();
      transcript.finish(agent, "error", undefined, outcome);
    } else if (agent) transcript.finish(agent, "answer", undefined);
    agent = null;
    outcome = undefined;
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
      continue;
    }
    if (m.role === "tool") {
      if (!agent) continue;
      for (const r of m.toolResults ?? []) transcript.toolResult(agent, r.callId, r.success, r.error ?? (r.synthetic ? "cancelled" : undefined));
      continue;
    }
    agent ??= transcript.startAgent();
    const text = visible(m.content).trim();
    if (text) transcript.appendText(agent, `${text}\n\n`);
    for (const c of m.toolCalls ?? []) transcript.toolCall(agent, c.id, c.malformed ? `${c.name} (malformed)` : titleFor(c.name, c.parameters));
  }
  close();
}
