// A message whose turn ended without taking it goes back to the input: Esc stopped the turn before it
// produced anything (ui.restoreOnCancel), or the message was refused before it was taken into the
// conversation. Its chat entries go; its text returns to the prompt unless the user typed meanwhile.
import type { IpuaroError } from "../../main/errors.js";
import type { TuiApp } from "./tui-app.js";

type Hint = (text: string | null, role?: "muted" | "warn") => void;

/**
 * After a turn Esc stopped before it produced anything (`entryIds`: its chat entries): its message goes
 * back to the input. `userText` is null for a command's turn (/eval): no message of the user's to give back
 * (a message may start with `/` too: `/src/app.ts looks wrong`).
 */
export async function restoreCancelled(app: TuiApp, entryIds: ReadonlySet<number>, userText: string | null, hint: Hint): Promise<void> {
  const backend = app.backend;
  const editor = app.input.editor;
  if (!backend.restoreOnCancel || !backend.rewind || userText === null) {
    hint("Stopped.");
    return;
  }
  try {
    const text = await backend.rewind.restoreCancelledTurn();
    if (text === null) return hint("Stopped.");
    app.transcript.remove(entryIds);
    // The user may have typed meanwhile; their text is not overwritten.
    if (!editor.text) editor.set(text);
    hint(editor.text === text ? "Stopped; the message is back in the input." : "Stopped; the message was taken back.");
    app.refreshStatus();
  } catch (error) {
    app.notice("warn", `The message could not be taken back: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A message refused before it was taken into the conversation (too large for any request): it leaves
 * the chat, the reason stays as a notice, and the text goes back to the input (unless the user typed
 * meanwhile: then ↑ has it), so nothing typed is lost.
 */
export function giveBackRefused(app: TuiApp, entryIds: ReadonlySet<number>, userText: string | null, error: IpuaroError, hint: Hint): void {
  const editor = app.input.editor;
  app.transcript.remove(entryIds);
  app.notice("error", `${error.message}${error.suggestion ? `\n${error.suggestion}` : ""}`);
  if (userText === null) return;
  if (!editor.text) editor.set(userText);
  hint(editor.text === userText ? "Not sent: the message is back in the input." : "Not sent: ↑ brings the message back.", "warn");
}
