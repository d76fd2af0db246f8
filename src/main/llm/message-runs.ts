// Chat templates expect the roles to alternate. ipuaro's own notes for the model travel as user messages
// (a rewind's "files and conversation disagree", tool results as data), so one can land right before
// the user's next message: two user messages in a row, which small models read as two requests and
// answer the first. Consecutive user messages are sent as one, their texts a blank line apart.
import type { LlmMessage } from "./ollama-client.js";

export function joinUserRuns(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (m.role === "user" && last?.role === "user" && !last.toolCalls && !m.toolCalls) out[out.length - 1] = { ...last, content: `${last.content}\n\n${m.content}` };
    else out.push(m);
  }
  return out;
}
