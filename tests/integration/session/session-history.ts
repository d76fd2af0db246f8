// Hand-made session histories for the compressor's tests (no model, no Redis): user and assistant
// messages, tool calls with results of a given size, and compaction entries, in one chain.
import { formatToolResult } from "../../../src/main/llm/system-prompt.js";
import type { ChatMessage, CompactionRecord, SessionEntry } from "../../../src/main/session/session-types.js";

export class SessionHistory {
  readonly entries: SessionEntry[] = [];
  private n = 0;
  private calls = 0;

  private add(message: Omit<ChatMessage, "timestamp">): string {
    const id = `e${++this.n}`;
    this.entries.push({ kind: "message", id, parentId: this.entries.at(-1)?.id ?? null, message: { ...message, timestamp: this.n } });
    return id;
  }

  user(text: string) {
    return this.add({ role: "user", content: text });
  }

  answer(text: string) {
    return this.add({ role: "assistant", content: text });
  }

  /** An assistant calling `tool` on `file` (after `say`), then its result of `lines` lines of code. */
  call(tool: string, file: string, lines = 20, say = "") {
    const id = `call_${++this.calls}`;
    this.add({ role: "assistant", content: `${say}<tool_call name="${tool}"><path>${file}</path></tool_call>`, toolCalls: [{ id, name: tool, parameters: { path: file } }] });
    const body = Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(3)}│ const ${file.replace(/\W/g, "_")}_${i} = ${i}; // code of ${file}`).join("\n");
    return this.add({ role: "tool", content: formatToolResult(tool, { callId: id, success: true, data: body }), toolResults: [{ callId: id, name: tool, success: true }] });
  }

  /** An assistant reading `file` with get_lines, then its result. */
  read(file: string, lines = 20, say = "") {
    return this.call("get_lines", file, lines, say);
  }

  compaction(record: CompactionRecord) {
    this.entries.push({ kind: "compaction", id: `c${++this.n}`, parentId: this.entries.at(-1)!.id, timestamp: this.n, compaction: record });
  }
}

/** 1 token per 4 characters, plus a fixed part of 100. */
export const countTokens = (h: readonly { content: string }[]) => 100 + Math.ceil(h.reduce((n, m) => n + m.content.length, 0) / 4);
