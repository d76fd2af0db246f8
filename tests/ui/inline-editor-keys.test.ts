// The inline editor (E on an edit, no $EDITOR) with content taller than the dialog: PgDn/PgUp move the
// cursor a page, so the rest of the text can be reached and edited (they did nothing: the scroll was
// undone at once to keep the cursor in view).
import { afterEach, describe, expect, it } from "vitest";
import type { EditDecision } from "../../src/main/tools/tool-types.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const LINES = Array.from({ length: 60 }, (_, i) => `строка ${i + 1}`);
const CONTENT = `${LINES.join("\n")}\n`;

/** Returns the decision wrapped: an async function would otherwise wait for the promise it returns. */
async function openInlineEditor(ui: UiHarness, content = CONTENT): Promise<{ answer: Promise<EditDecision> }> {
  await ui.t.waitFor(() => /[✓✗]\s*$/.test(ui.t.lines()[0]!), "the agent to be idle");
  const answer = new Promise<EditDecision>((resolve) => {
    ui.backend.turns.push(async function* ({ ui: port }) {
      resolve(await port.confirmEdit({ tool: "edit_lines", path: "a.ts", diff: "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+строка 1\n", range: { start: 1, end: 1 }, newContent: content }));
      yield { type: "finished", reason: "answer", text: "done", stats: stats() };
    });
  });
  ui.t.type("go", KEYS.enter);
  await ui.t.waitForText("[E] edit");
  ui.t.type("e");
  await ui.t.waitForText("Edit a.ts");
  return { answer };
}

describe("the inline editor's PgUp/PgDn", () => {
  it("PgDn shows later lines and moves the cursor there; typing lands on that line; PgUp goes back", async () => {
    h = await startUi({ cols: 80, rows: 24, env: { EDITOR: "", VISUAL: "" } });
    const { answer } = await openInlineEditor(h);
    await h.t.waitForText("строка 1");
    expect(h.t.find("строка 40")).toBeNull();
    // The editor fills the rows above the prompt (not the prompt's): 14 rows a page here.
    h.t.type(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    await h.t.waitFor(() => h!.t.find("строка 1 ") === null && h!.t.find("строка 30") !== null, "a later page");
    const cursor = h.t.cursor();
    const lineAtCursor = h.t.lines()[cursor.y]!;
    const n = Number(/строка (\d+)/.exec(lineAtCursor)?.[1]);
    expect(n).toBeGreaterThan(20);
    h.t.type("Ж");
    await h.t.waitForText(`Жстрока ${n}`);
    h.t.type(KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp);
    await h.t.waitForText("строка 1");
    h.t.type(KEYS.ctrlS);
    const decision = await answer;
    expect(decision.action).toBe("apply-edited");
    expect(decision.action === "apply-edited" && decision.content.split("\n")[n - 1]).toBe(`Жстрока ${n}`);
  });
});

describe("the inline editor and tabs", () => {
  it("gives back a tab-indented file byte for byte, draws tabs to their stops and indents with a tab", async () => {
    const tabbed = "export function tabbed(x: number): number {\n\tif (x > 0) {\n\t\treturn x * 3;\n\t}\n\treturn 0;\n}\n";
    h = await startUi({ cols: 80, rows: 24, env: { EDITOR: "", VISUAL: "" } });
    const { answer } = await openInlineEditor(h, tabbed);
    await h.t.waitForText("        return x * 3;");
    h.t.type(KEYS.down, KEYS.tab, "y");
    await h.t.waitForText("    y   if (x > 0) {");
    h.t.type(KEYS.ctrlS);
    const decision = await answer;
    expect(decision.action === "apply-edited" && decision.content).toBe(tabbed.replace("\tif", "\ty\tif"));
  });
});
