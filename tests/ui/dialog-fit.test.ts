// Dialogs on small terminals: they keep off the prompt's rows (at 40×12 the command confirmation's bottom
// border was drawn over the `>` line, at 30×12 the edit dialog covered the input), a row wider than the
// box ends in `…` (a key label was cut at the border), the edit title keeps the file name, /sessions cuts
// the first message before the status, a list keeps its selection in view when the terminal shrinks,
// and the `↑/↓ N more` marks do not look like the selected row.
import { afterEach, describe, expect, it } from "vitest";
import type { RewindPointStats, RewindPreview, RewindRequest, RewindResult } from "../../src/main/checkpoints/index.js";
import type { CommandDecision, EditDecision } from "../../src/main/tools/tool-types.js";
import type { RewindPort } from "../../src/ui/app/tui-backend.js";
import { askChoice } from "../../src/ui/dialogs/choice-dialog.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

/** Scripts one turn that asks `ask`; the answer comes wrapped (an async function would wait for it). */
async function askInTurn<T>(ui: UiHarness, ask: (port: UiHarness["app"]["uiPort"]) => Promise<T>): Promise<{ answer: Promise<T> }> {
  await ui.t.waitFor(() => /[✓✗]\s*$/.test(ui.t.lines()[0]!), "the agent to be idle");
  const answer = new Promise<T>((resolve) => {
    ui.backend.turns.push(async function* ({ ui: port }) {
      resolve(await ask(port as UiHarness["app"]["uiPort"]));
      yield { type: "finished", reason: "answer", text: "done", stats: stats() };
    });
  });
  ui.t.type("go", KEYS.enter);
  return { answer };
}

/** The dialog's bottom border is above the prompt's rule, and the last row is the prompt. */
function expectDialogAbovePrompt(ui: UiHarness): void {
  const rows = ui.t.lines();
  const bottom = rows.findLastIndex((r) => r.includes("└"));
  const rule = rows.findLastIndex((r) => /^─+$/.test(r.trimEnd()));
  expect(bottom).toBeGreaterThan(0);
  expect(rule).toBeGreaterThan(bottom);
  expect(rows.at(-1)).toMatch(/^>/);
}

/** The row of the screen that holds `text`. */
function rowWith(ui: UiHarness, text: string): string {
  const at = ui.t.find(text);
  if (!at) throw new Error(`${text} not on screen:\n${ui.t.text()}`);
  return ui.t.lines()[at.y]!;
}

describe("dialogs on a small terminal", () => {
  it("a run_command confirmation at 40×12 stays above the prompt and cuts a long key label with …", async () => {
    h = await startUi({ cols: 40, rows: 12 });
    const { answer } = await askInTurn<CommandDecision>(h, (port) => port.confirmCommand({ command: "python3 scripts/report.py | tee out.txt", reason: "python3 is not on the whitelist", programs: ["python3", "tee"] }));
    await h.t.waitForText("[Y] once");
    expectDialogAbovePrompt(h);
    // The label goes on past the border: it ends in … inside the box.
    expect(rowWith(h, "[A] always")).toMatch(/\[A\] always \(whitelists python3, t?e?…\s*│/);
    expect(h.t.text()).toContain("[N] no");
    h.t.type("n");
    expect(await answer).toBe("no");
  });

  it("cuts a row of wide characters (CJK, emoji) with … without moving the border", async () => {
    h = await startUi({ cols: 40, rows: 12 });
    const answer = askChoice(h.app, { title: "漢字の確認 👍🏽 漢字の確認 👍🏽 漢字の確認 👍🏽", body: "ok", choices: [{ key: "y", label: "はい、全部の漢字ファイルを保存します 👍🏽👍🏽👍🏽", value: "yes" }], escape: "no" });
    await h.t.waitForText("[Y]");
    const title = h.t.find("漢字の確認")!;
    const titleRow = h.t.lines()[title.y]!;
    expect(titleRow).toContain("…");
    const right = h.t.find("┐")!.x;
    // Every row of the box ends at the same column, the cut ones too.
    for (const y of [title.y, h.t.find("[Y]")!.y]) {
      expect(h.t.cell(right, y).chars).toBe("│");
      expect(h.t.lines()[y]).toContain("…");
    }
    expectDialogAbovePrompt(h);
    h.t.type("y");
    expect(await answer).toBe("yes");
  });

  it("the edit dialog at 30×12 leaves the prompt visible; at 40 columns its title keeps the file name", async () => {
    const lines = Array.from({ length: 7 }, (_, i) => `line ${i + 3}`);
    const diff = `--- a/x\n+++ b/x\n@@ -3,7 +3,7 @@\n${lines.map((l) => `-${l}`).join("\n")}\n${lines.map((l) => `+${l};`).join("\n")}\n`;
    const edit = { tool: "edit_lines", path: "packages/core/src/money.ts", diff, range: { start: 3, end: 9 }, newContent: "b\n" } as const;
    h = await startUi({ cols: 30, rows: 12 });
    let { answer } = await askInTurn<EditDecision>(h, (port) => port.confirmEdit({ ...edit }));
    await h.t.waitForText("[Y] apply");
    expectDialogAbovePrompt(h);
    expect(h.t.text()).toContain("money.ts");
    h.t.type("n");
    expect((await answer).action).toBe("reject");
    h.close();
    h = await startUi({ cols: 40, rows: 12 });
    ({ answer } = await askInTurn<EditDecision>(h, (port) => port.confirmEdit({ ...edit })));
    await h.t.waitForText("[Y] apply");
    // Was `edit_lines packages/core/src/mone…`.
    expect(rowWith(h, "edit_lines")).toContain("edit_lines packages/…/src/money.ts");
    h.t.type("y");
    expect((await answer).action).toBe("apply");
    // The edit conflict's title too.
    const conflict = await askInTurn(h, (port) => port.resolveConflict({ path: edit.path, diff }));
    await h.t.waitForText("[A] apply anyway");
    expect(rowWith(h, "Edit conflict")).toContain("Edit conflict: packages/…/money.ts");
    h.t.type("s");
    expect(await conflict.answer).toBe("skip");
  });
});

describe("/sessions rows", () => {
  it("cut the first message, not the status of a session open elsewhere, each with …", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push({
      id: "20240101-090000-bbbb",
      createdAt: now,
      lastActivityAt: now - 300_000,
      input: [],
      messages: [{ role: "user", content: "Привет, опиши проект 👍🏽 и расскажи, как устроены платежи и скидки в корзине", timestamp: now }],
      openElsewhere: "the UI (pid 7783, since 14:05)",
    });
    h = await startUi({ backend, cols: 120, rows: 24 });
    h.t.type("/sessions", KEYS.enter);
    await h.t.waitForText("Sessions (2)");
    const row = rowWith(h, "20240101-090000-bbbb");
    expect(row).toContain("Привет");
    expect(row).toMatch(/…\s+\(open in the UI \(pid 7783, since 14:05\)\)/);
    h.t.type(KEYS.escape);
  });
});

const POINTS: RewindPointStats[] = Array.from({ length: 13 }, (_, i) => ({ n: i + 1, entryId: `e${i + 1}`, message: `вопрос номер ${i + 1}`, at: Date.now() - 60_000, hasCheckpoint: true, files: 0, insertions: 0, deletions: 0 }));

class ManyPointsRewind implements RewindPort {
  async pointsWithStats() {
    return POINTS;
  }
  async preview(): Promise<RewindPreview> {
    throw new Error("unused");
  }
  async rewind(_request: RewindRequest): Promise<RewindResult> {
    throw new Error("unused");
  }
  async restoreCancelledTurn() {
    return null;
  }
}

describe("a list dialog", () => {
  it("keeps the selected row in view when the terminal shrinks, and its scroll marks are not drawn as selected", async () => {
    const backend = new ScriptedBackend();
    backend.rewind = new ManyPointsRewind();
    h = await startUi({ backend, cols: 120, rows: 40 });
    h.t.type("/rewind", KEYS.enter);
    await h.t.waitForText("13. вопрос номер 13");
    h.t.resize(40, 12);
    await h.t.waitFor(() => h!.t.find("↑") !== null && h!.t.find("13. вопрос") !== null, "the selection in view at 40×12");
    expect(h.t.text()).not.toContain("more (PgDn/↓)");
    // The selected row is drawn reversed; the mark above the rows in view is not.
    const selected = h.t.find("13. вопрос")!;
    expect(h.t.cell(selected.x, selected.y).inverse).toBe(true);
    const mark = h.t.find("more (PgUp/↑)")!;
    expect(h.t.cell(mark.x, mark.y).inverse).toBe(false);
    expectDialogAbovePrompt(h);
    // ↑ moves the selection up past the rows in view; it stays on screen.
    h.t.type(...Array.from({ length: 8 }, () => KEYS.up));
    await h.t.waitFor(() => {
      const at = h!.t.find("5. вопрос");
      return at !== null && h!.t.cell(at.x, at.y).inverse;
    }, "point 5 selected and in view");
    h.t.type(KEYS.escape);
  });
});
