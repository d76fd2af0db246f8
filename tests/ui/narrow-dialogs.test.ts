// Dialog key legends on a 40-column terminal: each choice must stay visible (wrapped onto more rows),
// not cut off at the dialog's right border where a user cannot learn that the key exists.
import { afterEach, describe, expect, it } from "vitest";
import type { RewindPointStats, RewindPreview, RewindRequest, RewindResult } from "../../src/main/checkpoints/index.js";
import type { RewindPort } from "../../src/ui/app/tui-backend.js";
import type { EditDecision } from "../../src/main/tools/tool-types.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const POINT: RewindPointStats = { n: 1, entryId: "e1", message: "Добавь купоны", at: Date.now() - 60_000, hasCheckpoint: true, files: 1, insertions: 1, deletions: 1 };

class OnePointRewind implements RewindPort {
  readonly requests: RewindRequest[] = [];
  async pointsWithStats() {
    return [POINT];
  }
  async preview(): Promise<RewindPreview> {
    return { point: POINT, code: { changes: [{ path: "src/cart.ts", action: "restore", insertions: 1, deletions: 1 }], conflicts: [], skipped: [], insertions: 1, deletions: 1 }, git: null };
  }
  async rewind(request: RewindRequest): Promise<RewindResult> {
    this.requests.push(request);
    return { point: POINT, mode: request.mode, dryRun: false, draft: null, restored: [], deleted: [], conflicts: [], skipped: [], changes: [], notes: [], git: null, warnings: [] };
  }
  async restoreCancelledTurn() {
    return null;
  }
}

/** Every `[KEY] label` of `legend` is on screen, whole. */
function expectWholeLegend(ui: UiHarness, legend: string[]): void {
  const screen = ui.t.lines().join("\n");
  for (const item of legend) expect(screen).toContain(item);
}

describe("dialog key legends on a 40-column terminal", () => {
  it("the rewind list and the rewind confirm panel show every key", async () => {
    const backend = new ScriptedBackend();
    const rewind = new OnePointRewind();
    backend.rewind = rewind;
    h = await startUi({ backend, cols: 40, rows: 24 });
    h.t.type("/rewind", KEYS.enter);
    await h.t.waitForText("Rewind to before…");
    expectWholeLegend(h, ["[↑↓] choose", "[ENTER] preview", "[ESC] close"]);
    h.t.type(KEYS.enter);
    await h.t.waitForText("Rewind to before message 1");
    expectWholeLegend(h, ["[B] both", "[C] conversation", "[K] code", "[S] summarize from here", "[U] summarize up to here", "[ENTER] apply both", "[ESC] cancel"]);
    h.t.type("u");
    await h.t.waitFor(() => rewind.requests.length === 1, "the rewind");
    expect(rewind.requests[0]!.mode).toBe("summarize-up-to-here");
  });

  it("the session picker shows every key, also while asking to delete", async () => {
    const backend = new ScriptedBackend();
    const now = Date.now();
    backend.sessions.push({ id: "20240101-090000-bbbb", createdAt: now, lastActivityAt: now, input: [], messages: [] });
    h = await startUi({ backend, cols: 40, rows: 24 });
    h.t.type("/sessions", KEYS.enter);
    await h.t.waitForText("Sessions (2)");
    expectWholeLegend(h, ["[ENTER] load", "[D] delete", "[ESC] close"]);
    h.t.type(KEYS.down, "d");
    await h.t.waitForText("Delete session");
    expectWholeLegend(h, ["20240101-090000-bbbb?", "[Y] delete", "[N] keep"]);
    h.t.type("n");
    await h.t.waitForNoText("[N] keep");
  });

  it("the inline editor shows Ctrl+S and Esc", async () => {
    h = await startUi({ cols: 40, rows: 24, env: { EDITOR: "", VISUAL: "" } });
    await h.t.waitFor(() => /[✓✗]\s*$/.test(h!.t.lines()[0]!), "the agent to be idle");
    const answer = new Promise<EditDecision>((resolve) => {
      h!.backend.turns.push(async function* ({ ui }) {
        resolve(await ui.confirmEdit({ tool: "edit_lines", path: "a.ts", diff: "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+b\n", range: { start: 1, end: 1 }, newContent: "b\n" }));
        yield { type: "finished", reason: "answer", text: "done", stats: stats() };
      });
    });
    h.t.type("go", KEYS.enter);
    await h.t.waitForText("[E] edit");
    h.t.type("e");
    await h.t.waitForText("Edit a.ts");
    expectWholeLegend(h, ["[Ctrl+S] save and apply", "[ESC] cancel"]);
    h.t.type(KEYS.escape);
    await h.t.waitForNoText("Edit a.ts");
    h.t.type("n");
    expect(await answer).toEqual({ action: "reject" });
  });
});
