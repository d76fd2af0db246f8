// How a failed tool call's error reads in the chat, live (turn-runner) and replayed (session-replay) alike.
import { firstSentence } from "../app/slash-commands.js";

/**
 * A failed call's error as the user reads it: what happened (its first sentence, first line), without
 * what it goes on to tell the model to do ("Do not repeat the same change; ask the user …").
 */
export function shownError(text: string | undefined): string | undefined {
  if (!text) return text;
  const head = firstSentence(text.split("\n", 1)[0]!.trim());
  return head.replace(/;\s*(do not|don't|never)\b.*$/i, "").trim() || text;
}
