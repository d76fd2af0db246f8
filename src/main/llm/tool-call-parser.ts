// Finds tool calls in a model reply. The taught form is XML (`<tool_call name="…"><param>…</param></tool_call>`),
// but small Qwen models mostly answer with Qwen's native `<tool_call>{json}</tool_call>`, a ```json fence or bare
// JSON, and Qwen3-coder with `<function=…><parameter=…>` (with or without the <tool_call> around it), so all of
// those are accepted, plus the server's own `message.tool_calls`. Nothing here throws: what cannot be read
// becomes an error whose message shows the expected form, for the model to retry.
import type { NativeToolCall } from "./ollama-client.js";
import { findBareJson, findFences } from "./tool-call-json.js";
import { ParseContext, type Segment } from "./tool-call-parse-context.js";
import { findFunctionTags, findTags } from "./tool-call-tags.js";

// Part of this module's interface: isQuotedAt is also asked of a reply still streaming (VisibleTextFilter).
export { GENERIC_CALL_FORM, isQuotedAt } from "./tool-call-parse-context.js";

export type ToolCallFormat = "xml" | "function-tag" | "json-tag" | "json-fence" | "bare-json" | "native";

export interface ParsedCall {
  name: string;
  /** XML values are raw strings (coerced against the schema later); JSON values keep their JSON types. */
  arguments: Record<string, unknown>;
  format: ToolCallFormat;
  /** The text of the call as the model wrote it (empty for native calls). */
  raw: string;
}

export interface ToolCallParseError {
  kind: "malformed" | "truncated" | "unknown-tool";
  /** The tool name, when one could be read. */
  name?: string;
  raw: string;
  /** For the model: what went wrong and the form to use instead. */
  message: string;
  /** For the user, in a few words ("incomplete call: …", "unknown tool"): the chat shows it beside the call. */
  summary: string;
}

/** One call attempt of a reply: a call to run, or one that failed to parse. */
export type ParsedItem = { call: ParsedCall; error?: never } | { error: ToolCallParseError; call?: never };

export interface ToolCallParseResult {
  /** The reply without the calls (and without the unreadable attempts). */
  text: string;
  calls: ParsedCall[];
  errors: ToolCallParseError[];
  /** Calls and errors together, in the order the model made them (native calls last): results follow it. */
  items: ParsedItem[];
}

export interface ParseToolCallsOptions {
  /** Calls the server parsed itself; merged after the text calls, duplicates dropped. */
  nativeCalls?: readonly NativeToolCall[];
  /**
   * The example call error messages show. A function gets the name of the tool the broken call was for
   * (undefined when none could be read or the tool does not exist), to show that tool's own form.
   */
  example?: string | ((toolName: string | undefined) => string);
}

export type KnownTools = ReadonlySet<string> | ((name: string) => boolean);

export function parseToolCalls(reply: string, knownTools: KnownTools, options: ParseToolCallsOptions = {}): ToolCallParseResult {
  const ctx = new ParseContext(reply, knownTools, options.example);
  let text: Segment[] = [{ start: 0, end: reply.length }];
  text = ctx.extract(text, (seg) => findTags(ctx, seg));
  text = ctx.extract(text, (seg) => findFunctionTags(ctx, seg));
  text = ctx.extract(text, (seg) => findFences(ctx, seg));
  // The whole reply being one JSON value is a stronger signal than JSON inside prose (see readJsonCandidate, tool-call-json.ts).
  const wholeReply = ctx.found.length === 0 && text.length === 1;
  text = ctx.extract(text, (seg) => findBareJson(ctx, seg, wholeReply));
  // Stable: calls sharing a span (an array of calls) keep their order.
  const items: ParsedItem[] = ctx.found.sort((a, b) => a.start - b.start).map((f) => ("call" in f ? { call: f.call } : { error: f.error }));
  // A native call the text also wrote out is one call; two identical native calls are two (the model
  // asked twice, and each gets its result).
  const inText = new Set(items.flatMap((i) => (i.call ? [callKey(i.call)] : [])));
  for (const native of options.nativeCalls ?? []) {
    const call: ParsedCall = { name: native.name, arguments: native.arguments ?? {}, format: "native", raw: "" };
    if (inText.has(callKey(call))) continue;
    // The server passes on any name the model made up; it goes back to the model like a text call's would.
    if (ctx.isKnown(call.name)) items.push({ call });
    else items.push({ error: ctx.unknownTool(call.name, JSON.stringify({ name: call.name, arguments: call.arguments })) });
  }
  return {
    text: cleanText(text.map((s) => reply.slice(s.start, s.end)).join("")),
    calls: items.flatMap((i) => (i.call ? [i.call] : [])),
    errors: items.flatMap((i) => (i.error ? [i.error] : [])),
    items,
  };
}

function cleanText(text: string): string {
  return text
    .replace(/^[ \t]*```[\w-]*[ \t]*\n\s*```[ \t]*$/gm, "") // fences left empty by a removed call
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function callKey(call: ParsedCall): string {
  const entries = Object.entries(call.arguments)
    .map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  return `${call.name}\u0000${JSON.stringify(entries)}`;
}
