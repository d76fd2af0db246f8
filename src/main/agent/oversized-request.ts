// The refusals of a request too large to send, in words the user can act on. Past the window Ollama
// keeps the end of a request and silently drops its start, the instructions first; short of it, the
// rest of the window is the answer's room (context.maxContextUsage). Two moments:
//   - MESSAGE_TOO_LARGE: the new message with the fixed part alone (no history at all) is past the limit.
//     Compression never shortens either, so the message is refused before it is stored, anything is
//     summarised or a request is made; the UI gives it back to the input.
//   - REQUEST_TOO_LARGE: a request of the turn is still past the limit once compressed (tool results, a
//     summary on top of a large message). The message is in the conversation by then.
import { IpuaroError } from "../errors.js";
import type { MessageFit, RequestLimit } from "../session/conversation-recorder.js";

const n = (x: number) => x.toLocaleString("en-US");
const percent = (share: number) => `${Math.round(share * 100)}%`;

/** What `tokens` is more than: the window itself, or the share of it a request may fill. */
function beyond(tokens: number, { limit, window, share }: RequestLimit): string {
  return tokens > window
    ? `more than the context window of ${n(window)}`
    : `more than the ${n(limit)} (${percent(share)} of the ${n(window)}-token context window) a request may fill`;
}

export function oversizedMessageError(fit: MessageFit): IpuaroError {
  const fixed = Math.max(0, fit.minimumTokens - fit.messageTokens);
  const room = fit.limit - fixed;
  const pastWindow = fit.minimumTokens > fit.window;
  const raise = pastWindow || fit.share >= 1 ? "raise llm.contextWindow if the model supports more" : "raise context.maxContextUsage (or llm.contextWindow, if the model supports more)";
  if (room <= 0) {
    // Not the message's fault: nothing the user could write would fit.
    return new IpuaroError("llm", `The instructions, tools and project map alone are about ${n(fixed)} tokens, ${beyond(fixed, fit)}, so no message fits. Your message was not sent.`, {
      recoverable: false,
      code: "MESSAGE_TOO_LARGE",
      suggestion: `Lower context.projectBudgetTokens, or ${raise}.`,
    });
  }
  const message =
    `Your message is about ${n(fit.messageTokens)} tokens: with the instructions, tools and project map (about ${n(fixed)}) ` +
    `a request would be about ${n(fit.minimumTokens)}, ${beyond(fit.minimumTokens, fit)}. ` +
    `Compression cannot make room (it never shortens the message itself), so it was not sent; a message can take about ${n(room)} tokens here.`;
  return new IpuaroError("llm", message, {
    recoverable: false,
    code: "MESSAGE_TOO_LARGE",
    suggestion: `Shorten it, name a file with @path instead of pasting it (the model reads what it needs with its tools), or ${raise}.`,
  });
}

export function oversizedRequestError(overflow: { tokens: number } & RequestLimit): IpuaroError {
  const { tokens, window } = overflow;
  const message =
    tokens > window
      ? `This request would be about ${n(tokens)} tokens, ${beyond(tokens, overflow)}, and compression cannot make room: Ollama would silently drop its start, the instructions included. It was not sent.`
      : `This request would be about ${n(tokens)} tokens, ${beyond(tokens, overflow)}, and compression cannot make room: the rest is kept for the answer (context.maxContextUsage). It was not sent.`;
  return new IpuaroError("llm", message, {
    recoverable: false,
    code: "REQUEST_TOO_LARGE",
    suggestion: "Send a shorter message (name files instead of pasting them: the model reads them with its tools), start a new session, or raise llm.contextWindow if the model takes more.",
  });
}
