// The hint row over the prompt wraps instead of being cut at the right edge: "Queued: … (↑ … takes it
// back; Esc or Ctrl+C stops the turn and returns it)." lost its end at 80 columns, and most hints at 40.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { gate, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

/** Starts a turn that waits until the returned gate opens, then queues a second message. */
async function queueBehindBusyTurn(ui: UiHarness): Promise<() => void> {
  const release = gate();
  ui.backend.turns.push(async function* () {
    await release.wait;
    yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
  });
  ui.backend.turns.push(async function* () {
    yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
  });
  ui.t.type("первый", KEYS.enter);
  await ui.t.waitForText("User: первый");
  ui.t.type("второй", KEYS.enter);
  await ui.t.waitForText("Queued: it is sent");
  return release.open;
}

describe("the hint over the prompt", () => {
  it("wraps a long hint at 80 columns, so its end is on screen, with the prompt still under it", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    const release = await queueBehindBusyTurn(h);
    const screen = h.t.lines().map((l) => l.trimEnd());
    const joined = screen.join(" ").replace(/\s+/g, " ");
    expect(joined).toContain("Queued: it is sent when the agent is done (↑ on an empty input takes it back; Esc or Ctrl+C stops the turn and returns it).");
    expect(screen.every((l) => !l.includes("returns it") || !l.endsWith("retu"))).toBe(true);
    // The prompt row is the last one and the cursor is on it.
    expect(screen[screen.length - 1]).toMatch(/^>/);
    expect(h.t.cursor().y).toBe(screen.length - 1);
    release();
  });

  it("the Queued note goes once the queued message has been sent (it stayed under the next answer)", async () => {
    h = await startUi({ cols: 100, rows: 24 });
    const release = await queueBehindBusyTurn(h);
    release();
    await h.t.waitForText("User: второй");
    await h.t.waitFor(() => h!.backend.sent.length === 2 && /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the second turn to end");
    await h.t.settle();
    expect(h.t.text()).not.toContain("Queued");
  });

  it("'One message is already queued' goes once the queued message has been sent; the refused one stays in the input", async () => {
    h = await startUi({ cols: 100, rows: 24 });
    const release = await queueBehindBusyTurn(h);
    h.t.type("третий", KEYS.enter);
    await h.t.waitForText("One message is already queued");
    release();
    await h.t.waitForText("User: второй");
    await h.t.waitFor(() => h!.backend.sent.length === 2 && /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the second turn to end");
    await h.t.settle();
    expect(h.t.text()).not.toContain("already queued");
    expect(h.app.input.editor.text).toBe("третий");
  });

  it("'Wait until the work is done' goes once /compact is done", async () => {
    h = await startUi({ cols: 100, rows: 24 });
    const done = gate();
    h.backend.compactGate = done.wait;
    h.t.type("/compact", KEYS.enter);
    await h.t.waitForText("compressing the conversation…");
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("Wait until the work is done");
    done.open();
    await h.t.waitForText("Nothing to compress yet.");
    await h.t.waitForNoText("Wait until the work is done");
    expect(h.app.input.editor.text).toBe("вопрос");
  });

  it("keeps one row for the prompt on a 40×10 terminal, with a hint cut to … at three rows", async () => {
    h = await startUi({ cols: 40, rows: 10 });
    const release = await queueBehindBusyTurn(h);
    const screen = h.t.lines().map((l) => l.trimEnd());
    expect(screen[screen.length - 1]).toMatch(/^>/);
    const hintRows = screen.filter((l, i) => i > screen.findIndex((r) => r.startsWith("─")) && !l.startsWith(">"));
    expect(hintRows.length).toBe(3);
    expect(hintRows[2]).toMatch(/…$/);
    h.t.type("третий");
    await h.t.waitForText("> третий");
    expect(h.t.cursor()).toEqual({ x: 8, y: 9 });
    release();
  });
});
