// Real screen frames of the TUI (blessed → headless xterm): the status bar, a streamed answer with a tool
// call and the stats line, Cyrillic/CJK/emoji input and its editing, multi-line input, history, resize.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, gate, stats, toolResult } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

/** The prompt row (the last row of the screen) without the `> `. */
function promptRow(ui: UiHarness): string {
  const rows = ui.t.lines();
  return rows[rows.length - 1]!.replace(/^> /, "").trimEnd();
}

describe("status bar", () => {
  it("follows a checkout made in another terminal: the branch is read again every few seconds", async () => {
    h = await startUi();
    await h.t.waitForText("[main]");
    h.backend.currentBranch = "feature/checkout";
    await h.t.waitForText("[feature/checkout]");
    expect(h.t.text()).not.toContain("[main]");
  });

  it("counts the seconds of a turn that is taking its time", async () => {
    h = await startUi();
    const release = gate();
    h.backend.turns.push(async function* () {
      await release.wait;
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("медленный вопрос", KEYS.enter);
    await h.t.waitForText("⟳ thinking…");
    await h.t.waitFor(() => /⟳ thinking… [2-9] s/.test(h!.t.text()), "the seconds to count", 6000);
    release.open();
    await h.t.waitForNoText("⟳ thinking…");
  });

  it("shows project, context fill, branch, session time and readiness, then the index state", async () => {
    h = await startUi();
    await h.t.waitForText("[main]");
    const top = h.t.lines()[0]!;
    expect(top).toMatch(/^ \[ipuaro\]  \[ctx: 12%\]  \[project: acme-shop\]  \[main\]  \[0 min\]  ✓/);
    h.backend.emitIndexState({ text: "watching", level: "ok" });
    await h.t.waitForText("[watching]");
    h.backend.emitIndexState({ text: "watcher ✗ Redis down", level: "error" });
    await h.t.waitForText("[watcher ✗ Redis down]");
    // An error's full text is said once in the chat, and so is its end.
    const gone = "The watcher stopped: the project folder is gone.";
    h.backend.emitIndexState({ text: "watcher ✗ the project folder /tmp/a…", level: "error", detail: gone });
    await h.t.waitForText(gone);
    h.backend.emitIndexState({ text: "watcher ✗ the project folder /tmp/a…", level: "error", detail: gone });
    h.backend.emitIndexState({ text: "watching", level: "ok" });
    await h.t.waitForText("The watcher is back: watching.");
    expect(h.t.text().split(gone).length - 1).toBe(1);
    // The bar has its own colours (dark theme: black on cyan).
    expect(h.t.cell(1, 0).bg).toBe(6);
  });

  it("drops the least important parts on a narrow terminal, keeping [ipuaro], ctx and the state mark", async () => {
    h = await startUi({ cols: 34 });
    const top = h.t.lines()[0]!;
    expect(top).toContain("[ipuaro]");
    expect(top).toContain("[ctx: 12%]");
    expect(top).toContain("✓");
    expect(top).not.toContain("[0 min]");
  });
});

describe("the running turn's last line", () => {
  it("says thinking only until the request's first chunk, then writing, and how long a stream has been quiet", async () => {
    h = await startUi();
    const step = [gate(), gate(), gate(), gate()];
    h.backend.turns.push(async function* () {
      yield { type: "request" };
      await step[0]!.wait;
      yield { type: "text", text: "Начало ответа" };
      await step[1]!.wait; // the stream goes quiet here
      // A tool call being written shows nothing, but the model is at work.
      yield { type: "writing" };
      await step[2]!.wait;
      yield { type: "tool-call", callId: "c1", name: "get_lines", args: {}, title: "get_lines a.ts" };
      yield { type: "tool-result", result: toolResult("c1", "get_lines", "get_lines a.ts") };
      yield { type: "request" };
      await step[3]!.wait;
      yield { type: "finished", reason: "answer", text: "Начало ответа", stats: stats() };
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("⟳ thinking…");
    step[0]!.open();
    await h.t.waitForText("⟳ writing…");
    expect(h.t.text()).not.toContain("thinking");
    await h.t.waitFor(() => /⟳ no output for [5-9] s \(Esc stops it; ipuaro gives up at 120 s\)/.test(h!.t.text()), "the quiet stream to be said", 9000);
    expect(h.t.text()).not.toContain("thinking");
    step[1]!.open();
    await h.t.waitForText("⟳ writing…");
    expect(h.t.text()).not.toContain("no output");
    step[2]!.open();
    // The next request of the turn: thinking again, counted from that request.
    await h.t.waitForText("[get_lines a.ts] 40 lines");
    await h.t.waitForText("⟳ thinking…");
    expect(h.t.text()).not.toMatch(/thinking… \d/);
    step[3]!.open();
    await h.t.waitForNoText("⟳");
  }, 20_000);
});

describe("a continued session", () => {
  it("shows its conversation (tool calls titled, markup hidden, each answer's stats line) above the start-up notices", async () => {
    const now = Date.now();
    const backend = new ScriptedBackend({
      messages: [
        { role: "user", content: "где Money?", timestamp: now, turnStats: { timeMs: 3240, tokens: 1247, toolCalls: 1 } },
        {
          role: "assistant",
          content: 'Смотрю.\n<tool_call name="get_lines"><path>money.ts</path></tool_call>',
          timestamp: now,
          toolCalls: [{ id: "call_1", name: "get_lines", parameters: { path: "money.ts" } }],
        },
        { role: "tool", content: "<tool_result/>", timestamp: now, toolResults: [{ callId: "call_1", name: "get_lines", success: false, error: "FILE_NOT_FOUND" }] },
        { role: "assistant", content: "В packages/core/src/money.ts.", timestamp: now },
      ],
    });
    h = await startUi({ backend });
    await h.t.waitForText("Agent: Смотрю.");
    await h.t.waitForText("[get_lines money.ts] ✗ FILE_NOT_FOUND");
    await h.t.waitForText("В packages/core/src/money.ts.");
    expect(h.t.find("⏱ 3.2s │ 1,247 tokens │ 1 tool call")!.y).toBe(h.t.find("В packages/core/src/money.ts.")!.y + 1);
    expect(h.t.text()).not.toContain("<tool_call");
    expect(h.t.find("User: где Money?")!.y).toBeLessThan(h.t.find("ipuaro — ask about the code")!.y);
  });
});

describe("a continued session with a failed turn", () => {
  it("shows how a turn without an answer ended, under its message, in order", async () => {
    const now = Date.now();
    const backend = new ScriptedBackend({
      messages: [
        { role: "user", content: "are you there?", timestamp: now, outcome: "The model request failed: Cannot reach Ollama at http://127.0.0.1:11434", turnStats: { timeMs: 40, tokens: 0, toolCalls: 0 } },
        { role: "user", content: "and now?", timestamp: now },
        { role: "assistant", content: "Yes.", timestamp: now },
      ],
    });
    h = await startUi({ backend, cols: 100 });
    await h.t.waitForText("The model request failed: Cannot reach Ollama");
    const failed = h.t.find("The model request failed")!.y;
    expect(failed).toBeGreaterThan(h.t.find("User: are you there?")!.y);
    expect(failed).toBeLessThan(h.t.find("User: and now?")!.y);
    expect(h.t.find("⏱ 0.0s │ 0 tokens │ 0 tool calls")!.y).toBe(failed + 1);
    expect(h.t.find("Agent: Yes.")).not.toBeNull();
    // A session from before turns kept their stats: no stats line, nothing made up.
    expect(h.t.text().match(/⏱/g)).toHaveLength(1);
  });
});

describe("a streamed answer", () => {
  it("cuts the stats line with … on a narrow terminal", async () => {
    h = await startUi({ cols: 30, rows: 12 });
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "Готово." };
      yield { type: "finished", reason: "answer", text: "Готово.", stats: stats({ toolCalls: 12 }) };
    });
    h.t.type("коротко", KEYS.enter);
    await h.t.waitForText("Готово.");
    await h.t.waitFor(() => h!.t.lines().some((l) => l.includes("⏱") && l.trimEnd().endsWith("…")), "the stats line cut with …");
  });

  it("appears as it arrives, with the tool call line, then the stats line; the state mark goes ⟳ → ✓", async () => {
    h = await startUi();
    const step = [gate(), gate(), gate()];
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "Авторизация " };
      await step[0]!.wait;
      yield { type: "text", text: "построена на JWT." };
      yield { type: "tool-call", callId: "c1", name: "get_function", args: {}, title: "get_function src/auth/login.ts login" };
      await step[1]!.wait;
      yield { type: "tool-result", result: toolResult("c1", "get_function", "get_function src/auth/login.ts login", { display: { title: "x", summary: "login, 12 lines" } }) };
      await step[2]!.wait;
      yield { type: "finished", reason: "answer", text: "Авторизация построена на JWT.", stats: stats() };
    });
    h.t.type("объясни как работает авторизация", KEYS.enter);
    await h.t.waitForText("User: объясни как работает авторизация");
    await h.t.waitForText("Agent: Авторизация");
    expect(h.t.lines()[0]).toContain("⟳");
    // Text is coming: the model is writing, not thinking.
    expect(h.t.text()).toContain("⟳ writing…");
    expect(h.t.text()).not.toContain("thinking");
    expect(h.t.text()).not.toContain("построена");
    step[0]!.open();
    await h.t.waitForText("Авторизация построена на JWT.");
    await h.t.waitForText("[get_function src/auth/login.ts login] …");
    step[1]!.open();
    await h.t.waitForText("[get_function src/auth/login.ts login] login, 12 lines");
    step[2]!.open();
    await h.t.waitForText("⏱ 3.2s │ 1,247 tokens │ 1 tool call");
    await h.t.waitFor(() => h!.t.lines()[0]!.includes("✓"), "the ready mark");
    expect(h.t.text()).not.toContain("thinking");
    expect(h.backend.sent).toEqual(["объясни как работает авторизация"]);
    // The answer is indented under the label, and the agent label has its colour.
    const agent = h.t.find("Agent:")!;
    const answer = h.t.find("Авторизация построена")!;
    expect(answer.x).toBe(agent.x + "Agent: ".length);
    expect(h.t.cell(agent.x, agent.y).fg).toBe(2);
  });

  it("highlights a fenced code block and wraps long lines without losing text", async () => {
    h = await startUi({ cols: 60 });
    const long = "Очень длинная строка ответа, которая не помещается в одну строку терминала и переносится.";
    h.backend.turns.push(async function* () {
      yield { type: "text", text: `${long}\n\`\`\`ts\nconst total: number = 42; // sum\n\`\`\`` };
      yield { type: "finished", reason: "answer", text: "", stats: stats({ toolCalls: 0 }) };
    });
    h.t.type("q", KEYS.enter);
    await h.t.waitForText("0 tool calls");
    const rows = h.t.lines().map((r) => r.slice(8).trimEnd());
    const joined = rows.join(" ").replace(/\s+/g, " ");
    expect(joined).toContain(long);
    const kw = h.t.find("const total")!;
    expect(h.t.cell(kw.x, kw.y).fg).toBe(5); // keyword: magenta
    const num = h.t.find("42")!;
    expect(h.t.cell(num.x, num.y).fg).toBe(3); // number: yellow
    const comment = h.t.find("// sum")!;
    expect(h.t.cell(comment.x, comment.y).fg).toBe(8); // comment: bright black
  });

  it("shows why a turn stopped when it did not end with an answer", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "max-rounds", text: "Stopped after 3 consecutive tool rounds.", stats: stats({ toolCalls: 3 }) };
    });
    h.t.type("loop", KEYS.enter);
    await h.t.waitForText("Stopped after 3 consecutive tool rounds.");
  });

  it("turns a failing turn into an error entry and marks ✗", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "partial" };
      throw new Error("socket closed");
    });
    h.t.type("q", KEYS.enter);
    await h.t.waitForText("error: socket closed");
    await h.t.waitFor(() => h!.t.lines()[0]!.includes("✗"), "the error mark");
  });
});

describe("typing", () => {
  it("edits Cyrillic by character: left 3, backspace, type", async () => {
    h = await startUi();
    h.t.type("привет мир");
    await h.t.waitForText("> привет мир");
    expect(h.t.cursor()).toEqual({ x: 2 + 10, y: 23 });
    h.t.type(KEYS.left, KEYS.left, KEYS.left, KEYS.backspace, "Ж");
    await h.t.waitForText("> приветЖмир");
    expect(promptRow(h)).toBe("приветЖмир");
    expect(h.t.cursor()).toEqual({ x: 2 + 7, y: 23 });
    expect(h.app.input.editor.text).toBe("приветЖмир");
  });

  it("jumps by words with Ctrl+Left/Right and deletes a word with Ctrl+W", async () => {
    h = await startUi();
    h.t.type("найди где используется", KEYS.ctrlLeft, KEYS.ctrlLeft, KEYS.ctrlW);
    await h.t.waitForText("> где используется");
    expect(h.t.cursor().x).toBe(2);
    h.t.type(KEYS.ctrlRight, "!");
    await h.t.waitForText("> где! используется");
  });

  it("shows emoji and CJK two cells wide; the cursor and Backspace treat each as one character", async () => {
    h = await startUi();
    h.t.type("a😀b世c");
    await h.t.waitForText("a😀b世c");
    const at = h.t.find("a😀b")!;
    expect(h.t.cell(at.x + 1, at.y).chars).toBe("😀");
    expect(h.t.cell(at.x + 1, at.y).width).toBe(2);
    expect(h.t.cell(at.x + 3, at.y).chars).toBe("b");
    expect(h.t.cell(at.x + 4, at.y).chars).toBe("世");
    expect(h.t.cursor().x).toBe(2 + 1 + 2 + 1 + 2 + 1);
    h.t.type(KEYS.backspace, KEYS.backspace, KEYS.left, KEYS.backspace);
    await h.t.waitFor(() => promptRow(h!) === "ab", "a😀b世c → ab");
    expect(h.t.cursor().x).toBe(3);
    expect(h.app.input.editor.text).toBe("ab");
    // A BMP emoji (✅) is two cells too, and the character after it stays visible.
    h.t.type(KEYS.end, "✅x");
    await h.t.waitForText("ab✅x");
    const ok = h.t.find("✅")!;
    expect(h.t.cell(ok.x, ok.y).width).toBe(2);
    expect(h.t.cell(ok.x + 2, ok.y).chars).toBe("x");
  });

  it("draws an emoji ZWJ sequence in one two-cell cell, as tmux does, in the prompt and in the chat", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    const family = "👨\u200d👩\u200d👧";
    h.t.type(`a${family}b`);
    await h.t.waitForText(`a${family}b`);
    const at = h.t.find(`a${family}b`)!;
    expect(h.t.cell(at.x + 1, at.y).chars).toBe(family);
    expect(h.t.cell(at.x + 1, at.y).width).toBe(2);
    expect(h.t.cell(at.x + 3, at.y).chars).toBe("b");
    expect(h.t.cursor().x).toBe(2 + 1 + 2 + 1);
    // One Backspace removes the whole sequence (one character to the user).
    h.t.type(KEYS.left, KEYS.backspace);
    await h.t.waitFor(() => promptRow(h!) === "ab", `a${family}b → ab`);
    expect(h.t.cursor().x).toBe(3);
    h.t.type(KEYS.left, `${family}🧑\u200d💻`, KEYS.enter);
    await h.t.waitForText(`User: ${family}🧑\u200d💻ab`);
    const sent = h.t.find(`User: ${family}`)!;
    expect(h.t.cell(sent.x + 6, sent.y).chars).toBe(family);
    expect(h.t.cell(sent.x + 8, sent.y).chars).toBe("🧑\u200d💻");
    expect(h.t.cell(sent.x + 10, sent.y).chars).toBe("a");
    expect(h.backend.sent).toEqual([`${family}🧑\u200d💻ab`]);
  });

  it("adds lines with Alt+Enter, Ctrl+J, Shift+Enter (CSI u) and a trailing backslash, and sends them as one message", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type("one", KEYS.altEnter, "two", KEYS.ctrlJ, "three", KEYS.shiftEnterCsiU, "four\\", KEYS.enter, "five");
    await h.t.waitForText("  five");
    const rows = h.t.lines().slice(-5).map((r) => r.trimEnd());
    expect(rows).toEqual(["> one", "  two", "  three", "  four", "  five"]);
    h.t.type(KEYS.enter);
    await h.t.waitForText("User: one");
    expect(h.backend.sent).toEqual(["one\ntwo\nthree\nfour\nfive"]);
    await h.t.waitForText("  five");
  });

  it('with input.multiline "always", Enter breaks the line and Alt+Enter / Ctrl+J send', async () => {
    h = await startUi({ multiline: "always" });
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type("one", KEYS.enter, "two", KEYS.enter, "three");
    await h.t.waitForText("  three");
    expect(h.backend.sent).toEqual([]);
    h.t.type(KEYS.altEnter);
    await h.t.waitForText("User: one");
    expect(h.backend.sent).toEqual(["one\ntwo\nthree"]);
  });

  it('with input.multiline "never", line-break keys do nothing and a pasted line break becomes a space', async () => {
    h = await startUi({ multiline: "never" });
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    // A trailing backslash is text here, not a line break.
    h.t.type("C:\\dir\\", KEYS.enter);
    await h.t.waitForText("User: C:\\dir\\");
    expect(h.backend.sent).toEqual(["C:\\dir\\"]);
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    h.t.type("one", KEYS.altEnter, KEYS.ctrlJ);
    await h.t.waitForText('input.multiline is "never"');
    h.t.type(" ", KEYS.pasteStart, "two\r\nthree", KEYS.pasteEnd);
    await h.t.waitFor(() => h!.app.input.editor.text === "one two three", "the pasted text on one line");
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.t.type(KEYS.enter);
    await h.t.waitForText("User: one two three");
    expect(h.backend.sent).toEqual(["C:\\dir\\", "one two three"]);
  });

  it("takes a bracketed paste as text: its newlines do not send", async () => {
    h = await startUi();
    h.t.type(KEYS.pasteStart, "line 1\r\nline 2\tend", KEYS.pasteEnd);
    // The tab stays in the message; it is drawn up to its stop.
    await h.t.waitForText("  line 2  end");
    expect(h.app.input.editor.text).toBe("line 1\nline 2\tend");
    expect(h.backend.sent).toEqual([]);
  });

  it("walks the session's input history with ↑/↓ and keeps the draft", async () => {
    h = await startUi({ backend: new ScriptedBackend({ history: ["первый", "второй"] }) });
    h.t.type("черновик", KEYS.up);
    await h.t.waitForText("> второй");
    h.t.type(KEYS.up);
    await h.t.waitForText("> первый");
    h.t.type(KEYS.up);
    await h.t.waitForText("> первый");
    h.t.type(KEYS.down, KEYS.down);
    await h.t.waitForText("> черновик");
  });

  it("finds an earlier prompt with Ctrl+R: newest first, Ctrl+R again goes older, Enter takes it without sending", async () => {
    h = await startUi({ backend: new ScriptedBackend({ history: ["git статус", "run the tests 🧪", "rename Money", "run the linter"] }) });
    h.t.type("черновик", KEYS.ctrlR);
    await h.t.waitForText("search history (type to search)");
    expect(promptRow(h)).toBe("черновик");
    h.t.type("run");
    await h.t.waitForText("> run the linter");
    await h.t.waitForText('search history: "run"');
    h.t.type(KEYS.ctrlR);
    await h.t.waitForText("> run the tests 🧪");
    h.t.type(KEYS.ctrlR);
    await h.t.waitForText('nothing older contains "run"');
    expect(promptRow(h)).toBe("run the tests 🧪");
    h.t.type(KEYS.enter);
    await h.t.waitForNoText("search history");
    expect(promptRow(h)).toBe("run the tests 🧪");
    expect(h.backend.sent).toEqual([]);
    h.t.type(" again", KEYS.enter);
    await h.t.waitFor(() => h!.backend.sent.length === 1, "the message sent");
    expect(h.backend.sent).toEqual(["run the tests 🧪 again"]);
  });

  it("searches Ctrl+R case-insensitively, widens on Backspace and gives the draft back on Esc or Ctrl+C", async () => {
    h = await startUi({ backend: new ScriptedBackend({ history: ["git Статус", "rename Money", "run the linter"] }) });
    h.t.type("черновик", KEYS.ctrlR, "MONEY");
    await h.t.waitForText("> rename Money");
    h.t.type("x");
    await h.t.waitForText('nothing older contains "MONEYx"');
    expect(promptRow(h)).toBe("rename Money");
    h.t.type(KEYS.backspace);
    await h.t.waitForText('search history: "MONEY"');
    h.t.type(KEYS.escape);
    await h.t.waitForNoText("search history");
    expect(promptRow(h)).toBe("черновик");

    h.t.type(KEYS.ctrlR, "статус");
    await h.t.waitForText("> git Статус");
    h.t.type(KEYS.ctrlC);
    await h.t.waitForNoText("search history");
    expect(promptRow(h)).toBe("черновик");
    // Ctrl+C only left the search: it did not arm the exit or clear the prompt.
    await h.t.waitForNoText("Ctrl+C again");

    h.t.type(KEYS.ctrlR, "lint", KEYS.home, "X");
    await h.t.waitForText("> Xrun the linter");
    expect(h.backend.sent).toEqual([]);
  });

  it("completes paths one folder at a time and symbols from the index with Tab", async () => {
    h = await startUi();
    h.t.type("open pack", KEYS.tab);
    await h.t.waitForText("> open packages/");
    h.t.type(KEYS.tab);
    await h.t.waitForText("packages/core/  packages/ui/");
    h.t.type("c", KEYS.tab);
    await h.t.waitForText("> open packages/core/");
    await h.t.waitForNoText("packages/ui/");
    h.t.type(KEYS.tab);
    await h.t.waitForText("> open packages/core/src/");
    h.t.type("mo", KEYS.tab);
    await h.t.waitForText("> open packages/core/src/money.ts");
    h.app.input.editor.clear();
    h.t.type("где Mon", KEYS.tab);
    await h.t.waitForText("> где Money");
    h.app.input.editor.clear();
    h.t.type("/au", KEYS.tab);
    await h.t.waitForText("> /auto-apply");
  });
});

describe("resize", () => {
  it("re-lays out the status bar, the chat and the prompt", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "Это длинный ответ, который при узком терминале переносится на несколько строк." };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("1,247 tokens");
    expect(h.t.find("переносится на несколько строк.")!.y).toBe(h.t.find("Это длинный ответ")!.y);
    h.t.type("draft");
    h.t.resize(40, 14);
    // xterm reflows the old frame first; the redraw is there when the rule spans exactly the new width.
    await h.t.waitFor(() => {
      const rows = h!.t.lines();
      return rows[0]!.includes("[ipuaro]") && rows[12] === "─".repeat(40) && rows[13]!.startsWith("> draft");
    }, "the re-laid-out frame");
    expect(h.t.lines()[0]).toContain("[ipuaro]");
    expect(h.t.lines()[0]!.length).toBeLessThanOrEqual(40);
    const rows = h.t.lines().map((r) => r.slice(8).trimEnd());
    expect(rows.join(" ").replace(/\s+/g, " ")).toContain("Это длинный ответ, который при узком терминале переносится на несколько строк.");
    expect(h.t.lines().every((r) => r.length <= 40)).toBe(true);
  });
});

describe("indexing progress", () => {
  it("shows a bar above the prompt and the percentage in the status bar, then the watcher state", async () => {
    h = await startUi();
    h.app.showProgress({ label: "indexing", done: 45, total: 100, unit: "files" });
    await h.t.waitForText("45% 45/100 files");
    const rows = h.t.lines();
    expect(rows[21]).toMatch(/^ indexing █+░+ 45% 45\/100 files/);
    expect(rows[0]).toContain("[indexing 45%]");
    h.backend.emitIndexState({ text: "watching", level: "ok" });
    h.app.showProgress(null);
    await h.t.waitForNoText("45/100");
    await h.t.waitForText("[watching]");
  });
});

describe("themes", () => {
  it("uses the light theme's colours (status bar on blue)", async () => {
    h = await startUi({ theme: "light" });
    await h.t.waitForText("[main]");
    expect(h.t.cell(2, 0).bg).toBe(4);
  });
});

describe("NO_COLOR", () => {
  it("sends no colours: the status bar is inverse instead", async () => {
    h = await startUi({ env: { NO_COLOR: "1" } });
    await h.t.waitForText("[main]");
    const c = h.t.cell(2, 0);
    expect(c.inverse).toBe(true);
    expect(c.bgDefault).toBe(true);
    expect(c.fgDefault).toBe(true);
  });
});

describe("colours under terminals blessed reads as 8-colour", () => {
  it("draws tmux-256color, kitty and a truecolor xterm with 256 colours; the Linux console keeps its 8", async () => {
    const colours = async (env: NodeJS.ProcessEnv) => {
      h = await startUi({ env });
      const tput = (h.app.screen as unknown as { tput: { colors: number } }).tput;
      const n = tput.colors;
      h.close();
      h = null;
      return n;
    };
    // Under tmux-256color blessed found 8 colours, and every muted grey (brightblack) came out black.
    expect(await colours({ TERM: "tmux-256color" })).toBe(256);
    expect(await colours({ TERM: "xterm-kitty" })).toBe(256);
    expect(await colours({ TERM: "xterm", COLORTERM: "truecolor" })).toBe(256);
    expect(await colours({ TERM: "linux" })).toBe(8);
  });
});
