// A line that starts with `/` and is no command: `/packages/core/src/money.ts looks wrong, why?` was
// refused as an unknown command and the input emptied (only ↑ brought it back), and nothing said how to
// send it. A first word that is a path goes to the model; another unknown `/word` stays in the input with
// how to send it (a space or `//` first), which /help says too.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

async function command(ui: UiHarness, line: string): Promise<void> {
  ui.t.type(line, KEYS.enter);
  await ui.t.waitFor(() => ui.app.input.editor.text === "", `${line} to be taken`);
}

describe("a line that starts with /", () => {
  it("an unknown command is explained, not sent to the model, and stays in the input with how to send it", async () => {
    h = await startUi({ cols: 120 });
    h.t.type("/frobnicate the widget", KEYS.enter);
    await h.t.waitForText("Unknown command /frobnicate.");
    const notice = h.app.transcript.entries.at(-1) as { text: string };
    expect(notice.text).toContain("To send this to the model as text, start it with a space or // (it is still in the input).");
    // It was emptied, and only ↑ brought it back.
    expect(h.app.input.editor.text).toBe("/frobnicate the widget");
    expect(h.backend.sent).toEqual([]);
    h.app.input.editor.clear();
    h.t.type("/staus", KEYS.enter);
    await h.t.waitForText("Unknown command /staus. Did you mean /status?");
    expect(h.app.input.editor.text).toBe("/staus");
  });

  it("a message whose first word is a path goes to the model; // or a leading space sends any other as typed", async () => {
    h = await startUi({ cols: 120 });
    for (let i = 0; i < 4; i++) {
      h.backend.turns.push(async function* () {
        yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
      });
    }
    const sent = async (line: string, n: number) => {
      await command(h!, line);
      await h!.t.waitFor(() => h!.backend.sent.length === n && /[✓✗]\s*$/.test(h!.t.lines()[0]!), `${line} to be answered`);
    };
    await sent("/packages/core/src/money.ts looks wrong, why?", 1);
    await sent("/README.md: is it current?", 2);
    await sent("//frobnicate means?", 3);
    await sent(" /frobnicate means?", 4);
    expect(h.backend.sent).toEqual(["/packages/core/src/money.ts looks wrong, why?", "/README.md: is it current?", "//frobnicate means?", " /frobnicate means?"]);
    expect(h.t.text()).not.toContain("Unknown command");
    await command(h, "/help");
    await h.t.waitForText("start it with a space or");
  });

});
