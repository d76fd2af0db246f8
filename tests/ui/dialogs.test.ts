// The core's questions as dialogs, on real frames: the edit confirmation with its diff (syntax colours,
// changed words on a stronger background), [E] through the inline editor and through $EDITOR, the
// error / conflict / command choices, Esc and Ctrl+C giving the safe answer, the Russian layout.
import { createTwoFilesPatch } from "diff";
import { afterEach, describe, expect, it } from "vitest";
import type { ConflictChoice, ErrorChoice } from "../../src/main/agent/ports.js";
import { IpuaroError } from "../../src/main/errors.js";
import type { CommandDecision, EditDecision, EditProposal } from "../../src/main/tools/tool-types.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { renderEntry } from "../../src/ui/chat/chat-render.js";
import { ScriptedBackend, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const BEFORE = ["export function login(token: string) {", "  const isValid = jwt.verify(token);", "  return isValid;", "}", ""].join("\n");
const AFTER = ["export function login(token: string) {", "  const isValid = this.verifyToken(token);", "  if (!isValid) throw new AuthError();", "  return isValid;", "}", ""].join("\n");

function proposal(over: Partial<EditProposal> = {}): EditProposal {
  return {
    tool: "edit_lines",
    path: "src/auth/login.ts",
    diff: createTwoFilesPatch("a/src/auth/login.ts", "b/src/auth/login.ts", BEFORE, AFTER, "", "", { context: 3 }),
    description: "выделил валидацию, добавил проверку",
    range: { start: 2, end: 2 },
    newContent: AFTER,
    ...over,
  };
}

/** Scripts one turn that asks `ask` and reports what came back; returns the answer's promise. */
async function askInTurn<T>(ui: UiHarness, ask: (port: UiHarness["app"]["uiPort"], signal: AbortSignal) => Promise<T>): Promise<{ answer: T; aborted: boolean }> {
  // The previous turn must have ended (✓ in the status bar), or the new message would be refused.
  await ui.t.waitFor(() => /[✓✗]\s*$/.test(ui.t.lines()[0]!), "the agent to be idle");
  return new Promise((resolve) => {
    ui.backend.turns.push(async function* ({ ui: port, signal }) {
      const answer = await ask(port as UiHarness["app"]["uiPort"], signal);
      resolve({ answer, aborted: signal.aborted });
      yield { type: "finished", reason: signal.aborted ? "cancelled" : "answer", text: "done", stats: stats() };
    });
    ui.t.type("go", KEYS.enter);
  });
}

describe("edit confirmation", () => {
  it("shows file, range, description and the diff with syntax colours and inline highlights; Y applies", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const result = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("edit_lines src/auth/login.ts (lines 2-2)");
    await h.t.waitForText("Change: выделил валидацию, добавил проверку");
    await h.t.waitForText("[Y] apply  [N] reject  [E] edit");
    const del = h.t.find("- ")!;
    const delRow = h.t.lines()[del.y]!;
    expect(delRow).toMatch(/2 - {3}const isValid = jwt\.verify\(token\);/);
    const add = h.t.find("+   const isValid = this.verifyToken(token);")!;
    expect(h.t.lines()[add.y]).toMatch(/2 \+ {3}const isValid/);
    expect(h.t.find("3 +   if (!isValid) throw new AuthError();")).not.toBeNull();

    // Changed words: strong background; unchanged code of the same line: the line's softer background.
    const removed = h.t.find("jwt.verify")!;
    expect(h.t.cell(removed.x, removed.y).bg).toBe(124);
    expect(h.t.cell(removed.x, removed.y).bold).toBe(true);
    const keepDel = h.t.find("const isValid = jwt")!;
    expect(h.t.cell(keepDel.x, keepDel.y).bg).toBe(52);
    expect(h.t.cell(keepDel.x, keepDel.y).fg).toBe(5); // `const` keeps its keyword colour
    const added = h.t.find("this.verifyToken")!;
    expect(h.t.cell(added.x, added.y).bg).toBe(28);
    const keepAdd = h.t.find("const isValid = this")!;
    expect(h.t.cell(keepAdd.x, keepAdd.y).bg).toBe(22);
    // A whole new line is added-line background, not word-highlighted.
    const newLine = h.t.find("throw new AuthError")!;
    expect(h.t.cell(newLine.x, newLine.y).bg).toBe(22);

    h.t.type("y");
    expect((await result).answer).toEqual({ action: "apply" });
    await h.t.waitForNoText("[Y] apply");
  });

  it("marks changed words without colours under NO_COLOR: underline for added, inverse for removed", async () => {
    h = await startUi({ cols: 100, rows: 30, env: { NO_COLOR: "1" } });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    const added = h.t.cell(h.t.find("this.verifyToken")!.x, h.t.find("this.verifyToken")!.y);
    expect(added).toMatchObject({ underline: true, bgDefault: true, fgDefault: true });
    const removed = h.t.find("jwt.verify")!;
    expect(h.t.cell(removed.x, removed.y)).toMatchObject({ inverse: true, bgDefault: true });
    const plain = h.t.find("const isValid = this")!;
    expect(h.t.cell(plain.x, plain.y)).toMatchObject({ underline: false, inverse: false, fgDefault: true });
    h.t.type("n");
    await r;
  });

  it("with edit.showDiff off shows a summary of the change, and D shows the diff", async () => {
    h = await startUi({ cols: 100, rows: 30, edit: { showDiff: false } });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("+2 −1 lines in 1 hunk");
    await h.t.waitForText("[Y] apply  [N] reject  [E] edit  [D] show diff");
    expect(h.t.find("this.verifyToken")).toBeNull();
    h.t.type("d");
    await h.t.waitForText("+   const isValid = this.verifyToken(token);");
    await h.t.waitForText("[Y] apply  [N] reject  [E] edit");
    expect(h.t.find("[D] show diff")).toBeNull();
    h.t.type("y");
    expect((await r).answer).toEqual({ action: "apply" });
  });

  it("with edit.wrapLongLines off cuts a long line with … instead of wrapping it", async () => {
    const long = `export const url = "${"x".repeat(150)}";`;
    const diff = createTwoFilesPatch("a/src/config.ts", "b/src/config.ts", "export const url = '';\n", `${long}\n`, "", "", { context: 3 });
    for (const wrap of [true, false]) {
      h = await startUi({ cols: 100, rows: 30, edit: { wrapLongLines: wrap } });
      const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal({ path: "src/config.ts", diff, range: { start: 1, end: 1 }, newContent: `${long}\n` })));
      await h.t.waitForText("[Y] apply");
      const rows = h.t.lines().filter((l) => l.includes("xxxxxxxxxx"));
      if (wrap) expect(rows.length).toBeGreaterThan(1);
      else {
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatch(/x…/);
      }
      h.t.type("n");
      await r;
      h.close();
      h = null;
    }
  });

  it("N rejects, Esc rejects, and Н (Y on a Russian layout) applies", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    let r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    h.t.type("N");
    expect((await r).answer).toEqual({ action: "reject" });
    await h.t.waitForNoText("[Y] apply");

    r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    h.t.type(KEYS.escape);
    expect((await r).answer.action).toBe("reject");
    await h.t.waitForNoText("[Y] apply");

    r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    h.t.type("н");
    expect((await r).answer).toEqual({ action: "apply" });
  });

  it("while it is open the turn says it waits for the user, not that it is thinking", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    const agent = () => h!.app.transcript.entries.findLast((e) => e.kind === "agent")!;
    const lastLine = () => renderEntry(agent(), 100, { showStats: true, showToolCalls: true }).at(-1)!.map((s) => s.text).join("");
    expect(lastLine()).toContain("… waiting for your answer");
    h.t.type("y");
    expect((await r).answer).toEqual({ action: "apply" });
    expect(agent()).toMatchObject({ awaitingUser: false });
  });

  it("E without $EDITOR opens the inline editor; Ctrl+S applies the edited text", async () => {
    h = await startUi({ cols: 100, rows: 30, env: { EDITOR: "", VISUAL: "" } });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[E] edit");
    h.t.type("e");
    await h.t.waitForText("Edit src/auth/login.ts");
    await h.t.waitForText("[Ctrl+S] save and apply");
    h.t.type("// проверено", KEYS.enter);
    await h.t.waitForText("// проверено");
    h.t.type(KEYS.ctrlS);
    const { answer } = await r;
    expect(answer).toEqual({ action: "apply-edited", content: `// проверено\n${AFTER}` });
    await h.t.waitForNoText("[Ctrl+S]");
  });

  it("E with $EDITOR runs it on the proposed content and applies what it saved", async () => {
    h = await startUi({ cols: 100, rows: 30, env: { EDITOR: "sed -i s/verifyToken/checkToken/" } });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[E] edit");
    h.t.type("e");
    const { answer } = await r;
    expect(answer).toEqual({ action: "apply-edited", content: AFTER.replace("verifyToken", "checkToken") });
  });

  it("E with an editor that fails keeps the dialog open with a note", async () => {
    h = await startUi({ cols: 100, rows: 30, env: { EDITOR: "false" } });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[E] edit");
    h.t.type("e");
    await h.t.waitForText("Edit cancelled: the proposal is unchanged.");
    h.t.type("y");
    expect((await r).answer).toEqual({ action: "apply" });
  });

  it("a deletion has no [E]", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const diff = createTwoFilesPatch("a/old.ts", "/dev/null", "export {};\n", "", "", "");
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal({ tool: "delete_file", path: "old.ts", diff, newContent: null, range: undefined, description: undefined })));
    await h.t.waitForText("delete old.ts");
    expect(h.t.text()).not.toContain("[E] edit");
    h.t.type("e");
    h.t.type("n");
    expect((await r).answer.action).toBe("reject");
  });

  it("Ctrl+C while the dialog waits rejects the edit and interrupts the turn", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal()));
    await h.t.waitForText("[Y] apply");
    h.t.type(KEYS.ctrlC);
    const { answer, aborted } = await r;
    expect(answer.action).toBe("reject");
    expect(aborted).toBe(true);
    await h.t.waitForText("Ctrl+C again within 2 s exits.");
  });
});

describe("narrow terminals", () => {
  it("a dialog title wider than the dialog ends in … instead of being cut mid-word", async () => {
    h = await startUi({ cols: 50, rows: 20 });
    const path = "packages/core/src/utils/very-long-module-name/strings.ts";
    const r = askInTurn<EditDecision>(h, (port) => port.confirmEdit(proposal({ path })));
    await h.t.waitForText("[Y] apply");
    const titleRow = h.t.lines().find((l) => l.includes("edit_lines"))!;
    expect(titleRow).toContain("…");
    h.t.type("n");
    await r;
  });
});

describe("choice dialogs", () => {
  it("error: [R] retry [S] skip [A] abort, Esc aborts", async () => {
    h = await startUi();
    const error = new IpuaroError("llm", "Ollama did not answer within 120 s", { suggestion: "Is the model loaded? `ollama ps`" });
    for (const [key, want] of [["r", "retry"], ["S", "skip"], ["a", "abort"], [KEYS.escape, "abort"]] as const) {
      const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(error));
      await h.t.waitForText("llm error");
      await h.t.waitForText("Ollama did not answer within 120 s");
      await h.t.waitForText("[R] retry  [S] skip  [A] abort");
      h.t.type(key);
      expect((await r).answer).toBe(want);
      await h.t.waitForNoText("[R] retry");
    }
  });

  it("error in a model request: says what skip and abort do; abort (take the message back) only when the message can go back", async () => {
    const backend = new (class extends ScriptedBackend {
      restoreOnCancel = true;
    })();
    backend.rewind = { pointsWithStats: async () => [], preview: async () => { throw new Error("unused"); }, rewind: async () => { throw new Error("unused"); }, restoreCancelledTurn: async () => null };
    h = await startUi({ backend, cols: 100, rows: 30 });
    const error = new IpuaroError("llm", "Ollama at http://127.0.0.1:11434 answered HTTP 500: the runner crashed");
    for (const [key, want] of [["s", "skip"], ["a", "abort"], [KEYS.escape, "abort"]] as const) {
      const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(error, { during: "request", takeBack: true }));
      await h.t.waitForText("[R] retry  [S] skip  [A] abort");
      await h.t.waitFor(() => /Skip: the turn ends; your message stays in the conversation, and the model is told it got no answer\. Abort: the message is taken back and returns to the input\./.test(h!.t.text().replace(/[│\s]+/g, " ")), "what skip and abort do");
      h.t.type(key);
      expect((await r).answer).toBe(want);
      await h.t.waitForNoText("[R] retry");
    }
    // The turn already ran tools: nothing to take back, so abort would only repeat skip; Esc skips.
    for (const [key, want] of [["a", null], [KEYS.escape, "skip"]] as const) {
      const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(error, { during: "request", takeBack: false }));
      await h.t.waitForText("[R] retry  [S] skip");
      expect(h.t.text()).not.toContain("[A] abort");
      h.t.type(key);
      if (want === null) {
        await h.t.settle();
        expect(h.t.find("[R] retry")).not.toBeNull();
        h.t.type("s");
        expect((await r).answer).toBe("skip");
      } else expect((await r).answer).toBe(want);
      await h.t.waitForNoText("[R] retry");
    }
  });

  it("error in a model request without ui.restoreOnCancel: no abort to offer", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(new IpuaroError("llm", "down"), { during: "request", takeBack: true }));
    await h.t.waitForText("[R] retry  [S] skip");
    expect(h.t.text()).not.toContain("[A] abort");
    h.t.type(KEYS.escape);
    expect((await r).answer).toBe("skip");
  });

  it("error in a tool call: skip fails the call and the turn goes on, abort stops the turn", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(new IpuaroError("file", "disk full"), { during: "tool" }));
    await h.t.waitForText("[R] retry  [S] skip  [A] abort");
    await h.t.waitFor(() => /Skip: the call fails and the model goes on without it\. Abort: the turn stops here\./.test(h!.t.text().replace(/[│\s]+/g, " ")), "what skip and abort do");
    h.t.type(KEYS.escape);
    expect((await r).answer).toBe("abort");
  });

  it("conflict: shows what changed on disk, [A] apply [S] skip [R] regenerate, Esc skips", async () => {
    h = await startUi({ cols: 100, rows: 30 });
    const diff = createTwoFilesPatch("a/src/a.ts", "b/src/a.ts", "const a = 1;\n", "const a = 2;\n", "seen", "on disk");
    for (const [key, want] of [["a", "apply"], ["s", "skip"], ["R", "regenerate"], [KEYS.escape, "skip"]] as const) {
      const r = askInTurn<ConflictChoice>(h, (port) => port.resolveConflict({ path: "src/a.ts", diff }));
      await h.t.waitForText("Edit conflict: src/a.ts");
      await h.t.waitForText("+ const a = 2;");
      await h.t.waitForText("[A] apply anyway  [S] skip  [R] regenerate");
      h.t.type(key);
      expect((await r).answer).toBe(want);
      await h.t.waitForNoText("Edit conflict");
    }
  });

  it("unknown command: run '…'? [Y] once [A] always [N] no; Ф on a Russian layout is A", async () => {
    h = await startUi({ cols: 100 });
    for (const [key, want] of [["y", "once"], ["ф", "always"], ["n", "no"], [KEYS.escape, "no"]] as const) {
      const r = askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "make deploy", reason: "to ship it", programs: ["make"] }));
      await h.t.waitForText("run make deploy ?");
      await h.t.waitForText("[Y] once  [A] always (whitelists make, any arguments)  [N] no");
      h.t.type(key);
      expect((await r).answer).toBe(want);
      await h.t.waitForNoText("run make deploy ?");
    }
  });

  it("does not offer always when no whitelist entry would answer the question (an install, a path outside)", async () => {
    h = await startUi({ cols: 100 });
    const r = askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "npm install left-pad", reason: "adds packages, whose install scripts run", programs: [] }));
    await h.t.waitForText("A command to confirm");
    await h.t.waitForText("[Y] once  [N] no");
    expect(h.t.text()).not.toContain("always");
    h.t.type("a");
    await new Promise((res) => setTimeout(res, 100));
    expect(h.t.text()).toContain("A command to confirm");
    h.t.type("n");
    expect((await r).answer).toBe("no");
  });

  it("wraps the keys onto more rows on a narrow terminal, so the last choice can still be seen", async () => {
    h = await startUi({ cols: 40, rows: 16 });
    const r = askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "make deploy", reason: "to ship it", programs: ["make"] }));
    await h.t.waitForText("[Y] once");
    await h.t.waitForText("[N] no");
    h.t.type("n");
    expect((await r).answer).toBe("no");
  });

  it("keeps keys typed ahead into a question the agent opens mid-turn for the message (a sentence's `a` is not `always`)", async () => {
    h = await startUi({ cols: 100, typeAheadGuardMs: 500 });
    const r = askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "make deploy", reason: "to ship it", programs: ["make"] }));
    await h.t.waitForText("[Y] once  [A] always (whitelists make, any arguments)  [N] no");
    h.t.type("thanks all good");
    await new Promise((res) => setTimeout(res, 150));
    expect(h.t.text()).toContain("run make deploy ?");
    expect(h.app.input.editor.text).toBe("thanks all good");
    await h.t.waitForText("what you type goes to your message until you pause");
    // A pause (twice the guard since the last key), then a deliberate answer.
    await new Promise((res) => setTimeout(res, 1100));
    h.t.type("n");
    expect((await r).answer).toBe("no");
    expect(h.app.input.editor.text).toBe("thanks all good");
  });

  it("does not take a letter as an answer while the user keeps typing past the first half second", async () => {
    h = await startUi({ cols: 100, typeAheadGuardMs: 500 });
    const r = askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "make deploy", reason: "to ship it", programs: ["make"] }));
    let answered = false;
    void r.then(() => (answered = true));
    await h.t.waitForText("[Y] once");
    // One key every 200 ms for 1.6 s: the `y` and `a` arrive well after the dialog appeared.
    for (const key of "and why not yes a") {
      h.t.type(key);
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(answered).toBe(false);
    expect(h.app.input.editor.text).toBe("and why not yes a");
    await new Promise((res) => setTimeout(res, 1100));
    h.t.type("y");
    expect((await r).answer).toBe("once");
  });

  it("scrolls a long body with ↓/PgDn", async () => {
    h = await startUi({ cols: 60, rows: 14 });
    const long = Array.from({ length: 30 }, (_, i) => `строка ${i + 1}`).join("\n");
    const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(new IpuaroError("command", long)));
    await h.t.waitForText("строка 1");
    expect(h.t.find("строка 30")).toBeNull();
    await h.t.waitForText("more (PgDn/↓)");
    // The dialog keeps off the prompt's rows: at this height a page is 2 rows (5 in view, two of them marks).
    h.t.type(...Array.from({ length: 14 }, () => KEYS.pageDown));
    await h.t.waitForText("строка 30");
    h.t.type("a");
    expect((await r).answer).toBe("abort");
  });

  it("scroll marks count the row they stand on, and PgDn pages skip no row", async () => {
    h = await startUi({ cols: 60, rows: 20 });
    const long = Array.from({ length: 40 }, (_, i) => `line ${String(i + 1).padStart(2, "0")}`).join("\n");
    const r = askInTurn<ErrorChoice>(h, (port) => port.chooseOnError(new IpuaroError("command", long)));
    await h.t.waitForText("line 01");
    // Every line shows at some page, and the ↓ count is the lines not on screen.
    const seen = new Set<string>();
    for (let page = 0; page < 40 && !seen.has("line 40"); page++) {
      const text = h.t.text();
      for (const m of text.matchAll(/line (\d\d)/g)) seen.add(m[0]);
      const below = /↓ (\d+) more/.exec(text);
      if (below) {
        const last = Math.max(...[...text.matchAll(/line (\d\d)/g)].map((m) => Number(m[1])));
        expect(Number(below[1])).toBe(40 - last);
      }
      if (seen.has("line 40")) break;
      h.t.type(KEYS.pageDown);
      await h.t.waitFor(() => h!.t.text() !== text, "the next page");
    }
    for (const m of h.t.text().matchAll(/line (\d\d)/g)) seen.add(m[0]);
    expect(seen.size).toBe(40);
    h.t.type("a");
    expect((await r).answer).toBe("abort");
  });
});
