// Tool results travel as `<tool_result name=… call_id=… ok=…>` blocks in one user message
// (llm/system-prompt.ts formatToolResult). Bodies are defused there (`</tool_result` cannot occur inside),
// so a non-greedy match finds each block exactly. Compression swaps a block for a one-line stub that
// says how to get the data again.
import type { SessionToolCall } from "../../session/session-types.js";

export interface ResultBlock {
  name: string;
  callId: string | null;
  ok: boolean;
  body: string;
  /** The whole block as it stands in the message. */
  raw: string;
}

const BLOCK = /<tool_result name="([^"]*)"(?: call_id="([^"]*)")? ok="(true|false)">\n([\s\S]*?)\n<\/tool_result>/g;

/** Tools whose successful calls change files (their path counts as edited, not just read). */
export const EDIT_TOOL_NAMES: ReadonlySet<string> = new Set(["edit_lines", "create_file", "delete_file"]);

function unescapeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&");
}

export function splitResultBlocks(content: string): ResultBlock[] {
  const out: ResultBlock[] = [];
  for (const m of content.matchAll(BLOCK)) {
    out.push({ name: unescapeAttr(m[1]!), callId: m[2] === undefined ? null : unescapeAttr(m[2]), ok: m[3] === "true", body: m[4]!, raw: m[0] });
  }
  return out;
}

/** The `path` argument of a call, when it has one. */
export function callPath(call: SessionToolCall | undefined): string | null {
  const p = call?.parameters.path;
  return typeof p === "string" && p.trim() ? p.trim().replace(/^\.\//, "") : null;
}

/** `get_lines packages/core/src/money.ts 8-12`: the call in a few words, for stubs and summaries. */
export function callLabel(name: string, call: SessionToolCall | undefined): string {
  if (!call) return name;
  const args = Object.entries(call.parameters)
    .filter(([k, v]) => k !== "path" && (typeof v === "string" || typeof v === "number" || typeof v === "boolean"))
    .map(([k, v]) => `${k}=${String(v).slice(0, 40)}`);
  const p = callPath(call);
  return [name, ...(p ? [p] : []), ...args].join(" ");
}

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** One line in place of a result: what it was and that the tool can fetch it again. */
export function stubBlock(block: ResultBlock, call: SessionToolCall | undefined): string {
  const lines = block.body === "" ? 0 : block.body.split("\n").length;
  const what = block.ok ? `${lines} line${lines === 1 ? "" : "s"}` : `failed: ${firstLine(block.body).slice(0, 120)}`;
  const id = block.callId === null ? "" : ` call_id="${attr(block.callId)}"`;
  return `<tool_result name="${attr(block.name)}"${id} ok="${block.ok}">\n[compressed: ${callLabel(block.name, call)} → ${what}; call the tool again if you need it]\n</tool_result>`;
}

/** A long result cut to its head and tail (the last resort when even stubs elsewhere were not enough). */
export function trimBlock(block: ResultBlock, keepLines: number): string {
  const lines = block.body.split("\n");
  if (lines.length <= keepLines * 2 + 1) return block.raw;
  const body = [...lines.slice(0, keepLines), `… (${lines.length - keepLines * 2} lines left out to save context; read them again with a narrower range)`, ...lines.slice(-keepLines)].join("\n");
  return block.raw.replace(block.body, () => body);
}

export function isStub(block: ResultBlock): boolean {
  return block.body.startsWith("[compressed: ");
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
