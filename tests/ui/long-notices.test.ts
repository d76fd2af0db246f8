// A command's answer taller than the chat (/help, /analyze's tables, /output) is shown from its first
// row: following the tail, /help opened on the end of the tools list and "Commands" was pages up.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { gate, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

describe("long command output", () => {
  it("/help opens at its top, with the ↓ more marker; PgDn reaches the end, and the next message follows the tail again", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    h.t.type("/help", KEYS.enter);
    await h.t.waitForText("Commands");
    const commands = h.t.find("Commands")!;
    expect(commands.y).toBeLessThan(4);
    expect(h.t.text()).toMatch(/↓ \d+ more lines \(PgDn\)/);
    for (let i = 0; i < 10; i++) h.t.type(KEYS.pageDown);
    await h.t.waitFor(() => !/more lines \(PgDn\)/.test(h!.t.text()), "the end of /help");
    h.t.type("/help", KEYS.enter);
    await h.t.waitFor(() => (h!.t.find("Commands")?.y ?? 99) < 4, "the second /help from its top");
    const release = gate();
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "ответ" };
      await release.wait;
      yield { type: "finished", reason: "answer", text: "ответ", stats: stats() };
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("User: вопрос");
    await h.t.waitForText("ответ");
    release.open();
  });

  it("a short notice leaves the chat following the newest row", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    h.t.type("/help", KEYS.enter);
    await h.t.waitForText("Commands");
    h.t.type("/auto-apply on", KEYS.enter);
    await h.t.waitFor(() => !/more lines \(PgDn\)/.test(h!.t.text()), "the chat at its end");
    expect(h.t.text()).toMatch(/auto-apply/i);
  });

});
