// A tool call the model wrote that could not be run as written: cut off, unreadable, or naming a tool that
// does not exist. The model gets the parser's long message (what went wrong, the form to use) as the call's
// result; the user sees the call like any failed one, `[get_lines] ✗ incomplete call: …`, with the reason in
// a few words. Without it the attempt left no trace on screen: its markup is held back from the streamed
// text, no tool-call event came, and the next reply ran on into the text before it.
import type { ToolCallParseError } from "../llm/tool-call-parser.js";
import type { AgentEvent } from "./events.js";

/** The name the call goes by (the session stores it too): the tool it was for, when one could be read. */
export function unreadableCallName(error: ToolCallParseError): string {
  return error.name ?? "tool_call";
}

/**
 * The call and its failed result, as events. `summary`: what the user reads beside it (the parser's own
 * unless the call was stopped for another reason, a loop guard's).
 */
export function* reportUnreadable(callId: string, error: ToolCallParseError, summary = error.summary): Generator<AgentEvent, void> {
  const name = unreadableCallName(error);
  // The title is the bare name: what arguments the model meant could not be read.
  yield { type: "tool-call", callId, name, args: {}, title: name };
  yield {
    type: "tool-result",
    result: { callId, name, success: false, error: summary, code: "INVALID_ARGS", truncated: false, display: { title: name, summary }, durationMs: 0 },
  };
}
