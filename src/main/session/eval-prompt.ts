// `/eval` (and `ipuaro run --eval`): the model re-checks its last answer against the code with the read
// tools and reports which claims held up. It is an ordinary turn with this prompt, so the tool loop,
// persistence and limits are the usual ones.
import { IpuaroError } from "../errors.js";
import type { ChatMessage } from "./session-types.js";

/** The answer is quoted so a small model checks that text rather than its memory of it. */
const MAX_QUOTED_CHARS = 6000;

/** The newest assistant message that is an answer (not a round of tool calls), or null. */
export function lastAnswer(messages: readonly ChatMessage[]): ChatMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant" && !(m.toolCalls?.length ?? 0) && m.content.trim()) return m;
  }
  return null;
}

export function evalPrompt(answer: string): string {
  const quoted = answer.length > MAX_QUOTED_CHARS ? `${answer.slice(0, MAX_QUOTED_CHARS)}\n…[rest of the answer left out]` : answer;
  return [
    "Check your previous answer against the actual code before I rely on it. Your answer was:",
    "<previous_answer>",
    quoted.trim(),
    "</previous_answer>",
    "",
    "1. List every factual claim in it about this codebase: file paths, names of functions/classes/variables, line numbers, signatures, behaviour.",
    "2. Verify each claim with the read tools (get_lines, get_structure and the others you have). Do not rely on memory; read the code.",
    "3. Then reply with exactly these sections:",
    "## Confirmed",
    "- claim — where you saw it (path:line)",
    "## Not confirmed",
    "- claim — what the code actually says, or that you could not find it",
    "## Verdict",
    "One sentence: can the answer be trusted as it is, or what must be corrected.",
  ].join("\n");
}

export function nothingToEvaluate(sessionId: string): IpuaroError {
  return new IpuaroError("input", `session ${sessionId} has no answer to check yet`, {
    recoverable: false,
    suggestion: "Ask something first (`ipuaro run -p …`), then run --eval on the same session.",
  });
}

/** `run --eval` in a project without sessions: said before anything is created. */
export function noSessionToEvaluate(projectName: string): IpuaroError {
  return new IpuaroError("input", `project ${projectName} has no session with an answer to check`, {
    recoverable: false,
    suggestion: "Ask something first (`ipuaro run -p …`), then run --eval (or --eval --session ID).",
  });
}
