// Slash commands and global keys on real frames: /help from the registries, /sessions (load, delete),
// /status, Ctrl+Z undo, /auto-apply, /clear, /rewind and Esc Esc, Ctrl+C/Ctrl+D exits, the bell,
// scrolling with PgUp/PgDn and the mouse wheel, and a loaded session's conversation.
import { afterEach, describe, expect, it } from "vitest";
import { IpuaroError } from "../../src/main/errors.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, gate, stats, toolResult } from "./scripted-backend.js";
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

describe("commands", () => {
  it("/help lists the commands, the keys and the model's tools", async () => {
    h = await startUi({ cols: 100, rows: 50 });
    await command(h, "/help");
    await h.t.waitForText("Commands");
    for (const text of ["/undo take back the last edit", "/sessions list, load or delete", "/auto-apply on|off", "/compact [focus]", "Ctrl+Z undo the last edit", "get_lines Read lines of a file.", "edit_lines Replace lines"]) {
      await h.t.waitForText(text);
    }
  });

  it("Ctrl+C with nothing running closes an open dialog instead of arming the exit", async () => {
    h = await startUi({ cols: 100 });
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (1)");
    h.t.type(KEYS.ctrlC);
    await h.t.waitForNoText("Sessions (1)");
    expect(h.t.text()).not.toContain("exits");
  });

  it("/sessions moves a page with PgDn/PgUp and to the ends with End/Home, as its footer offers", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    for (let i = 0; i < 40; i++) {
      const id = `20240101-0900${String(i).padStart(2, "0")}-s${String(i).padStart(3, "0")}`;
      backend.sessions.push({ id, createdAt: now - (i + 2) * 60_000, lastActivityAt: now - (i + 2) * 60_000, input: [], messages: [{ role: "user", content: `question ${i}`, timestamp: now }] });
    }
    h = await startUi({ backend, cols: 100, rows: 24 });
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (41)");
    const selected = (text: string) => {
      const at = h!.t.find(text);
      return at !== null && h!.t.cell(at.x, at.y).inverse;
    };
    // The current session is first and selected; the others follow, newest first (question 0 … 39).
    h.t.type(KEYS.pageDown);
    await h.t.waitFor(() => selected("question 9"), "PgDn to select question 9");
    h.t.type(KEYS.end);
    await h.t.waitFor(() => selected("question 39"), "End to select the last");
    h.t.type(KEYS.home, KEYS.pageDown, KEYS.pageDown, KEYS.pageUp);
    await h.t.waitFor(() => selected("question 9"), "Home, PgDn, PgDn, PgUp to come back to question 9");
  });

  it("/sessions loads another session (its conversation is shown) and deletes one after Y", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push(
      { id: "20240101-090000-bbbb", createdAt: now - 3_600_000, lastActivityAt: now - 3_600_000, input: ["старый вопрос"], messages: [
        { role: "user", content: "где Money?", timestamp: now },
        { role: "assistant", content: "В money.ts.", timestamp: now },
      ] },
      { id: "20230101-090000-cccc", createdAt: now - 86_400_000 * 3, lastActivityAt: now - 86_400_000 * 3, input: [], messages: [] },
    );
    h = await startUi({ backend, cols: 100 });
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (3)");
    await h.t.waitForText("● 20250101-100000-aaaa");
    await h.t.waitForText("20240101-090000-bbbb     2 messages  1h ago    где Money?");
    h.t.type(KEYS.down, KEYS.down, "d");
    await h.t.waitForText("Delete session 20230101-090000-cccc?");
    h.t.type("y");
    await h.t.waitForText("Deleted 20230101-090000-cccc.");
    expect(backend.sessions.map((s) => s.id)).not.toContain("20230101-090000-cccc");
    // The selection stays on the row after the deleted one's predecessor: bbbb.
    h.t.type(KEYS.enter);
    await h.t.waitForText("Loaded session 20240101-090000-bbbb.");
    await h.t.waitForText("User: где Money?");
    await h.t.waitForText("Agent: В money.ts.");
    expect(backend.current.id).toBe("20240101-090000-bbbb");
    h.t.type(KEYS.up);
    await h.t.waitForText("> старый вопрос");
  });

  it("/sessions: the title counts the rows left after a delete", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push({ id: "20240101-090000-bbbb", createdAt: now, lastActivityAt: now, input: [], messages: [] });
    h = await startUi({ backend, cols: 100 });
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (2)");
    h.t.type(KEYS.down, "d");
    await h.t.waitForText("Delete session 20240101-090000-bbbb?");
    h.t.type("y");
    await h.t.waitForText("Deleted 20240101-090000-bbbb.");
    await h.t.waitForText("Sessions (1)");
    expect(h.t.text()).not.toContain("Sessions (2)");
  });

  it("/sessions: the refusal to delete the current session is not left under the next delete question", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push({ id: "20230101-090000-cccc", createdAt: now, lastActivityAt: now, input: [], messages: [] });
    h = await startUi({ backend, cols: 100 });
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (2)");
    h.t.type("d");
    await h.t.waitForText("The current session cannot be deleted");
    h.t.type(KEYS.down, "d");
    await h.t.waitForText("Delete session 20230101-090000-cccc?");
    expect(h.t.text()).not.toContain("The current session cannot be deleted");
    expect(h.t.text()).not.toContain("Deleted");
  });

  it("/sessions marks a session open in another ipuaro and says so at once on Enter or D", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push({ id: "20240101-090000-bbbb", createdAt: now, lastActivityAt: now, input: [], messages: [], openElsewhere: "the UI (pid 4242, since 14:05)" });
    h = await startUi({ backend, cols: 120 });
    await command(h, "/sessions");
    await h.t.waitForText("◌ 20240101-090000-bbbb");
    await h.t.waitForText("(open in the UI (pid 4242, since 14:05))");
    h.t.type(KEYS.down, KEYS.enter);
    await h.t.waitForText("20240101-090000-bbbb is open in the UI (pid 4242, since 14:05): close it there to load it here.");
    h.t.type("d");
    await h.t.waitForText("close it there to delete it here.");
    expect(h.t.text()).not.toContain("Delete session 20240101-090000-bbbb?");
    expect(backend.current.id).not.toBe("20240101-090000-bbbb");
    // The other ipuaro quits while the list is open: Enter checks again and loads it.
    delete backend.sessions.find((s) => s.id === "20240101-090000-bbbb")!.openElsewhere;
    h.t.type(KEYS.enter);
    await h.t.waitForText("Loaded session 20240101-090000-bbbb.");
    expect(backend.current.id).toBe("20240101-090000-bbbb");
  });

  it("the current session cannot be deleted from the picker; Esc closes it", async () => {
    h = await startUi();
    await command(h, "/sessions");
    await h.t.waitForText("Sessions (1)");
    h.t.type("d");
    await h.t.waitForText("The current session cannot be deleted");
    h.t.type(KEYS.escape);
    await h.t.waitForNoText("Sessions (1)");
  });

  it("/status shows the backend's rows", async () => {
    h = await startUi();
    await command(h, "/status");
    await h.t.waitForText("Redis  unix:///tmp/redis.sock (ok)");
    await h.t.waitForText("Model  qwen2.5-coder:7b-instruct");
  });

  it("/analyze lists its queries alone, and passes a query's target on whole", async () => {
    h = await startUi();
    await command(h, "/analyze");
    await h.t.waitForText("Usage: /analyze QUERY [target]");
    await h.t.waitFor(() => /predict_change FILE +what changing FILE may break/.test(h!.t.text()), "the query list");
    await command(h, "/analyze knowledge_search retry policy");
    await h.t.waitForText("src/a.ts  0.91");
    // The width a notice's code block really has: the chat keeps its last column free (80 − 1 − label 8 − gutter 2).
    expect(h.backend.analyzed).toEqual([[{ query: "knowledge_search", target: "retry policy" }, 80 - 1 - 8 - 2]]);
  });

  it("Ctrl+Z undoes the last edit and shows what happened", async () => {
    h = await startUi();
    h.backend.undoOutcome = { status: "empty", message: "Nothing to undo: this session has no applied edits." };
    h.t.type(KEYS.ctrlZ);
    await h.t.waitForText("Nothing to undo: this session has no applied edits.");
    expect(h.backend.undoCalls).toBe(1);
  });

  it("/auto-apply on|off toggles the mode and the status bar mark; a bad argument is explained", async () => {
    h = await startUi({ cols: 100 });
    await command(h, "/auto-apply on");
    await h.t.waitForText("[auto-apply]");
    expect(h.backend.auto).toBe(true);
    await command(h, "/auto-apply off");
    await h.t.waitForNoText("[auto-apply]");
    await command(h, "/auto-apply maybe");
    await h.t.waitForText('/auto-apply: /auto-apply takes "on" or "off", not "maybe"');
  });

  it("/clear starts a fresh session with an empty chat", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "ответ", stats: stats() };
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("User: вопрос");
    await h.t.waitForText("1,247 tokens");
    const previous = h.backend.current.id;
    await command(h, "/clear");
    await h.t.waitForNoText("User: вопрос");
    expect(h.backend.current.id).toBe("new-1");
    await h.t.waitForText(`New session new-1; the last one (${previous}) is in /sessions.`);
  });

  it("/rewind says so when the backend has no rewind (the rest is in rewind-*.test.ts)", async () => {
    h = await startUi();
    await command(h, "/rewind");
    await h.t.waitForText("Rewind is not available in this session.");
  });

  it("/eval plays the check as a turn; /compact reports when there is nothing to compress", async () => {
    h = await startUi();
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "## Confirmed\n- Money is in money.ts" };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    await command(h, "/eval");
    await h.t.waitForText("User: /eval");
    await h.t.waitForText("- Money is in money.ts");
    expect(h.backend.sent).toEqual(["/eval"]);
    await h.t.waitForText("1,247 tokens");
    await command(h, "/compact auth");
    await h.t.waitForText("Nothing to compress yet.");
  });

  it("/compact shows that it runs, keeps messages from starting a turn beside it, and Esc stops it", async () => {
    h = await startUi();
    h.backend.compactGate = new Promise(() => {});
    await command(h, "/compact");
    await h.t.waitForText("compressing the conversation… (Esc or Ctrl+C stops it)");
    h.t.type("a question", KEYS.enter);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.backend.sent).toEqual([]);
    h.t.type(KEYS.escape);
    await h.t.waitForText("Compression stopped; the conversation is as it was.");
    await h.t.waitForNoText("compressing the conversation…");
  });

  it("takes /quit for /exit and /new for /clear", async () => {
    h = await startUi();
    await command(h, "/new");
    expect(h.t.text()).not.toContain("Unknown command");
    await command(h, "/quit");
    expect(await h.app.done).toBe(0);
  });
});

describe("keys", () => {
  it("Ctrl+C interrupts a running answer; a second press within 2 s exits and closes the backend", async () => {
    h = await startUi();
    const never = gate();
    let aborted = false;
    h.backend.turns.push(async function* ({ signal }) {
      yield { type: "text", text: "Думаю" };
      signal.addEventListener("abort", () => {
        aborted = true;
        never.open();
      });
      await never.wait;
      yield { type: "finished", reason: "cancelled", text: "Думаю\n[interrupted]", stats: stats() };
    });
    h.t.type("долгий вопрос", KEYS.enter);
    await h.t.waitForText("Agent: Думаю");
    h.t.type(KEYS.ctrlC);
    await h.t.waitForText("Interrupted. Ctrl+C again within 2 s exits.");
    await h.t.waitForText("[interrupted]");
    // The text that streamed is shown once, with the marker after it (not the whole answer again).
    expect(h.t.text().match(/Думаю/g)).toHaveLength(1);
    expect(aborted).toBe(true);
    h.t.type(KEYS.ctrlC);
    expect(await h.app.done).toBe(0);
    expect(h.backend.closed).toBe(true);
  });

  it("a model error that ends the turn is shown once (the notice with its suggestion), not again as the answer", async () => {
    h = await startUi({ cols: 100 });
    const error = new IpuaroError("llm", "Cannot reach Ollama at http://127.0.0.1:11434 (ECONNREFUSED)", { suggestion: "Start it: ollama serve" });
    h.backend.turns.push(async function* () {
      yield { type: "error", error, choice: "abort" };
      yield { type: "finished", reason: "aborted", text: `The model request failed: ${error.message}`, stats: stats({ toolCalls: 0 }) };
    });
    h.t.type("привет", KEYS.enter);
    await h.t.waitForText("Start it: ollama serve");
    await h.t.settle();
    expect(h.t.text().match(/Cannot reach Ollama/g)).toHaveLength(1);
  });

  it("an error and its retry stand in the answer where they happened, before the text that came after", async () => {
    h = await startUi({ cols: 100 });
    const error = new IpuaroError("llm", "Cannot reach Ollama at http://127.0.0.1:11434 (ECONNREFUSED)");
    h.backend.turns.push(async function* () {
      yield { type: "error", error, choice: "retry" };
      yield { type: "retry", reason: "the model request failed" };
      yield { type: "text", text: "Yes, I am back." };
      yield { type: "finished", reason: "answer", text: "Yes, I am back.", stats: stats({ toolCalls: 0 }) };
    });
    h.t.type("are you there?", KEYS.enter);
    await h.t.waitForText("Yes, I am back.");
    const screen = h.t.text();
    expect(screen.indexOf("llm error: Cannot reach Ollama")).toBeGreaterThan(screen.indexOf("Agent:"));
    expect(screen.indexOf("retrying: the model request failed")).toBeLessThan(screen.indexOf("Yes, I am back."));
  });

  it("a retry after part of an answer streamed takes that part away, and does not repeat the error it follows", async () => {
    h = await startUi({ cols: 100 });
    const error = new IpuaroError("llm", "the runner crashed");
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "Partial answer bef" };
      yield { type: "error", error, choice: "retry" };
      yield { type: "retry", reason: "the runner crashed" };
      yield { type: "text", text: "Full answer after retry." };
      yield { type: "finished", reason: "answer", text: "Full answer after retry.", stats: stats({ toolCalls: 0 }) };
    });
    h.t.type("go", KEYS.enter);
    await h.t.waitForText("Full answer after retry.");
    expect(h.t.text()).not.toContain("Partial answer bef");
    expect(h.t.text()).toContain("retrying…");
    expect(h.t.text().match(/the runner crashed/g)).toHaveLength(1);
  });

  it("a failed call shows what happened, not the instructions its error gives the model", async () => {
    h = await startUi({ cols: 120 });
    h.backend.turns.push(async function* () {
      yield { type: "tool-call", callId: "c1", name: "edit_lines", args: {}, title: "edit_lines src/a.ts 1-2" };
      yield {
        type: "tool-result",
        result: toolResult("c1", "edit_lines", "edit_lines src/a.ts 1-2", {
          success: false,
          error: "The user rejected your change to src/a.ts: too broad. Nothing was written. Do not repeat the same change; ask the user or take another approach.",
        }),
      };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("go", KEYS.enter);
    await h.t.waitForText("The user rejected your change to src/a.ts: too broad.");
    expect(h.t.text()).not.toContain("Do not repeat");
  });

  it("shows the end of a command's output under its call", async () => {
    h = await startUi({ cols: 100 });
    h.backend.turns.push(async function* () {
      yield { type: "tool-call", callId: "c1", name: "run_command", args: {}, title: "run_command npm run build" };
      yield {
        type: "tool-result",
        result: toolResult("c1", "run_command", "run_command npm run build", {
          display: {
            title: "x",
            summary: "exit code 0 · 2.1s",
            preview: ["… 12 more lines", "dist/index.js  4.2 kB", "built in 2.1s"],
            details: `$ npm run build\n${Array.from({ length: 12 }, (_, i) => `step ${i + 1} done`).join("\n")}\ndist/index.js  4.2 kB\nbuilt in 2.1s`,
          },
        }),
      };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    await command(h, "/output");
    await h.t.waitForText("No command or test output in this chat yet.");
    h.t.type("build it", KEYS.enter);
    await h.t.waitForText("[run_command npm run build] exit code 0 · 2.1s");
    await h.t.waitForText("│ … 12 more lines (Ctrl+O shows all)");
    await h.t.waitForText("│ built in 2.1s");
    expect(h.t.find("step 3 done")).toBeNull();
    // Ctrl+O: the whole output in the chat.
    h.t.type(KEYS.ctrlO);
    await h.t.waitForText("[run_command npm run build]:");
    await h.t.waitForText("step 3 done");
    await h.t.waitForText("step 12 done");
  });

  it("the Ctrl+C exit hint goes away once the 2 s it speaks of are over", async () => {
    h = await startUi();
    h.t.type(KEYS.ctrlC);
    await h.t.waitForText("Ctrl+C again within 2 s exits (Ctrl+D exits too).");
    await h.t.waitForNoText("Ctrl+C again within 2 s", 4000);
    expect(h.backend.closed).toBe(false);
  });

  it("Ctrl+C on an idle prompt clears it and only warns; Ctrl+D on an empty prompt exits", async () => {
    h = await startUi();
    h.t.type("черновик");
    await h.t.waitForText("> черновик");
    h.t.type(KEYS.ctrlC);
    await h.t.waitForText("Ctrl+C again within 2 s exits (Ctrl+D exits too).");
    expect(h.app.input.editor.text).toBe("");
    h.t.type("x");
    await h.t.waitForNoText("Ctrl+C again");
    h.t.type(KEYS.ctrlD); // not empty: deletes forward (nothing after the cursor)
    await h.t.settle();
    expect(h.backend.closed).toBe(false);
    h.t.type(KEYS.backspace, KEYS.ctrlD);
    expect(await h.app.done).toBe(0);
    expect(h.backend.closed).toBe(true);
  });

  it("a draft cleared with Ctrl+C comes back with ↑", async () => {
    h = await startUi({ cols: 100 });
    h.t.type("длинный черновик 👍🏽");
    await h.t.waitForText("> длинный черновик");
    h.t.type(KEYS.ctrlC);
    await h.t.waitForText("↑ brings the draft back.");
    expect(h.app.input.editor.text).toBe("");
    h.t.type(KEYS.up);
    await h.t.settle();
    expect(h.app.input.editor.text).toBe("длинный черновик 👍🏽");
    expect(h.backend.inputs).toEqual([]); // not saved as something sent
  });

  it("exits with 1 and reports it after the screen is gone when closing the backend fails", async () => {
    const reports: string[] = [];
    h = await startUi({ reportError: (t) => reports.push(t) });
    h.backend.close = async () => {
      throw new Error("Redis went away");
    };
    h.t.type(KEYS.ctrlD);
    expect(await h.app.done).toBe(1);
    expect(reports).toEqual(["ipuaro: while closing: Redis went away\n"]);
  });

  it("queues a message sent while the agent works and sends it when the turn ends; one at a time", async () => {
    h = await startUi();
    const release = gate();
    h.backend.turns.push(async function* () {
      await release.wait;
      yield { type: "finished", reason: "answer", text: "ok", stats: stats() };
    });
    h.backend.turns.push(async function* () {
      yield { type: "text", text: "второй ответ" };
      yield { type: "finished", reason: "answer", text: "второй ответ", stats: stats() };
    });
    h.t.type("первый", KEYS.enter);
    await h.t.waitForText("User: первый");
    h.t.type("второй", KEYS.enter);
    await h.t.waitForText("Queued: it is sent when the agent is done");
    expect(h.app.input.editor.text).toBe("");
    expect(h.t.find("User: второй")).toBeNull();
    h.t.type("третий", KEYS.enter);
    await h.t.waitForText("One message is already queued");
    expect(h.app.input.editor.text).toBe("третий");
    release.open();
    await h.t.waitForText("User: второй");
    await h.t.waitForText("второй ответ");
    expect(h.backend.sent).toEqual(["первый", "второй"]);
  });

  /** Sends "первый" and waits until its answer has begun; the answer then runs until it is stopped. */
  async function startAnswerThatWaitsForStop(ui: UiHarness): Promise<void> {
    ui.backend.turns.push(async function* ({ signal }) {
      yield { type: "text", text: "начало ответа" };
      await new Promise<void>((r) => signal.addEventListener("abort", () => r()));
      yield { type: "finished", reason: "aborted", text: "начало ответа", stats: stats() };
    });
    ui.t.type("первый", KEYS.enter);
    await ui.t.waitForText("начало ответа");
  }

  it("a queued message comes back to the input when the turn is stopped, and ↑ takes it back before that", async () => {
    h = await startUi();
    await startAnswerThatWaitsForStop(h);
    h.t.type("передумал", KEYS.enter);
    await h.t.waitForText("Queued");
    h.t.type(KEYS.up);
    await h.t.waitFor(() => h!.app.input.editor.text === "передумал", "the queued message back in the input");
    h.t.type(KEYS.enter);
    await h.t.waitForText("Queued");
    h.t.type(KEYS.escape);
    await h.t.waitForText("your queued message is back in the input");
    expect(h.app.input.editor.text).toBe("передумал");
    expect(h.backend.sent).toEqual(["первый"]);
  });

  it("a stopped turn's queued message comes back before what was typed since", async () => {
    h = await startUi();
    await startAnswerThatWaitsForStop(h);
    h.t.type("queued second", KEYS.enter);
    await h.t.waitForText("Queued");
    h.t.type("typed third", KEYS.enter);
    await h.t.waitForText("One message is already queued");
    h.t.type(KEYS.escape);
    await h.t.waitForText("your queued message is back in the input");
    expect(h.app.input.editor.text).toBe("queued second\ntyped third");
  });

  it("rings the bell when a long answer completes, not after a short one", async () => {
    h = await startUi();
    let bells = 0;
    h.t.term.onBell(() => bells++);
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "quick", stats: stats({ timeMs: 800 }) };
    });
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "slow", stats: stats({ timeMs: 12_000 }) };
    });
    h.t.type("a", KEYS.enter);
    await h.t.waitForText("⏱ 0.8s");
    h.t.type("b", KEYS.enter);
    await h.t.waitForText("⏱ 12.0s");
    await h.t.waitFor(() => bells === 1, "one bell");
  });

  it("scrolls the chat with PgUp/PgDn and the mouse wheel, and follows new text at the bottom", async () => {
    h = await startUi({ cols: 60, rows: 12 });
    h.backend.turns.push(async function* () {
      yield { type: "text", text: Array.from({ length: 30 }, (_, i) => `строка ${i + 1}`).join("\n") };
      yield { type: "finished", reason: "answer", text: "", stats: stats() };
    });
    h.t.type("много", KEYS.enter);
    await h.t.waitForText("1,247 tokens");
    expect(h.t.find("строка 30")).not.toBeNull();
    expect(h.t.find("строка 1 ")).toBeNull();
    h.t.type(KEYS.pageUp);
    await h.t.waitForText("more lines (PgDn)");
    expect(h.t.find("строка 30")).toBeNull();
    h.t.type(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    await h.t.waitForText("строка 30");
    // SGR mouse: wheel up (button 64) over the chat.
    h.t.type("\x1b[<64;10;5M", "\x1b[<64;10;5M");
    await h.t.waitForText("more lines (PgDn)");
    h.t.type("\x1b[<65;10;5M", "\x1b[<65;10;5M");
    await h.t.waitForNoText("more lines (PgDn)");
  });
});
