// Pasting without bracketed paste (`tmux paste-buffer` without -p, a terminal without the mode): a
// 5-line snippet went out as five messages (each newline an Enter), a tab in it completed, and the input
// was left garbled. Keys faster than anyone types are a paste now. And a 3,000-line paste, sent, filled the
// chat with itself: a long message shows its start and how much more the model got.
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { renderEntry } from "../../src/ui/chat/chat-render.js";
import { BURST_MS, TerminalInput } from "../../src/ui/input/terminal-input.js";
import { lineText } from "../../src/ui/text/styled-text.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an unbracketed paste", () => {
  it("puts a snippet's lines and tabs into the input instead of sending each line or completing", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    // tmux paste-buffer sends the lines with CR between them, as Enter does; a long paste comes in reads.
    h.t.type("def money(x):\r\tif x < 0:\r\t\traise ValueError\r", "\treturn round(x, 2)\r", "print(money(1))");
    await h.t.waitFor(() => h!.app.input.editor.text.endsWith("print(money(1))"), "the whole snippet in the input");
    expect(h.app.input.editor.text).toBe("def money(x):\n\tif x < 0:\n\t\traise ValueError\n\treturn round(x, 2)\nprint(money(1))");
    expect(h.backend.sent).toEqual([]);
    // Enter pressed afterwards sends it, as one message.
    await pause(BURST_MS * 3);
    h.t.type(KEYS.enter);
    await h.t.waitFor(() => h!.backend.sent.length === 1, "the message to be sent");
    expect(h.backend.sent[0]).toBe("def money(x):\n\tif x < 0:\n\t\traise ValueError\n\treturn round(x, 2)\nprint(money(1))");
  });

  it("leaves typing alone: Enter after text sends, Tab after text completes, text and one Enter send", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    h.t.type("@mon", KEYS.tab);
    await h.t.waitFor(() => h!.app.input.editor.text === "@packages/core/src/money.ts ", "the completion");
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type("why?", KEYS.enter);
    await h.t.waitFor(() => h!.backend.sent.length === 1, "the message to be sent");
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    // A program typing a message with its Enter in one write (tmux send-keys 'text' Enter) sends it.
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type("run the tests\r");
    await h.t.waitFor(() => h!.backend.sent.length === 2, "the second message to be sent");
    expect(h.backend.sent[1]).toBe("run the tests");
  });
});

describe("TerminalInput's reading of key bursts", () => {
  it("marks a read of text with a line break or tab as a paste, and reads that follow within BURST_MS", () => {
    let now = 1000;
    const source = Object.assign(new EventEmitter(), { resume() {}, pause() {} });
    const input = new TerminalInput(source, () => now);
    const seen: Array<[string, boolean]> = [];
    input.on("data", (b: Buffer) => seen.push([b.toString("utf8"), input.pasting]));
    const read = (text: string, at: number) => {
      now = at;
      source.emit("data", Buffer.from(text));
    };
    read("a", 1000); // typed
    read("\r", 1080); // Enter, alone
    read("x\ry", 2000); // a paste
    read("\r", 2005); // its next read
    read("z", 2010);
    read("\r", 2200); // Enter, pressed after it
    read("\x1b[A\r", 3000); // ↑ then Enter over a slow link: keys, no text
    read("q\x1b\r", 4000); // Alt+Enter after one letter
    read("run the tests\r", 5000); // a program typing a message and Enter (tmux send-keys 'text' Enter)
    read("one\rtwo\r", 6000); // a paste of two lines: its last line break is text too
    expect(seen).toEqual([
      ["a", false],
      ["\r", false],
      ["x\ny", true],
      ["\n", true],
      ["z", false],
      ["\r", false],
      ["\x1b[A\r", false],
      ["q\n", false],
      ["run the tests\r", false],
      ["one\ntwo\n", true],
    ]);
  });
});

describe("a long message in the chat", () => {
  const render = (text: string) => renderEntry({ kind: "user", id: 1, version: 0, text }, 60, { showStats: true, showToolCalls: true }).map((r) => lineText(r).trimEnd());

  it("shows the first lines of a 3,000-line paste and how many more the model got", () => {
    const rows = render(Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"));
    expect(rows).toHaveLength(11);
    expect(rows[0]).toBe("  User: line 1");
    expect(rows[9]).toBe("        line 10");
    expect(rows[10]).toBe("        … [2,990 more lines, sent in full]");
  });

  it("shows a message of 20 lines whole, and cuts one huge line after its first rows", () => {
    expect(render(Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n"))).toHaveLength(20);
    const rows = render(`start ${"x".repeat(10_000)}\nsecond line`);
    expect(rows).toHaveLength(11);
    expect(rows[10]).toMatch(/^ {8}… \[9,\d{3} more characters and 1 more line, sent in full\]$/);
  });

  it("is sent in full though the chat shows it collapsed", async () => {
    h = await startUi({ cols: 80, rows: 24 });
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    const text = Array.from({ length: 3000 }, (_, i) => `const v${i} = ${i};`).join("\n");
    h.t.type(KEYS.pasteStart, text, KEYS.pasteEnd, KEYS.enter);
    await h.t.waitForText("… [2,990 more lines, sent in full]");
    expect(h.backend.sent).toEqual([text]);
    expect(h.t.text()).not.toContain("const v10 =");
  });
});
