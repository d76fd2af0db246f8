// Esc Esc read in one chunk ("\x1b\x1b": a quick double press, or both bytes arriving together over a
// slow link) reaches blessed as one Alt+Esc key; it must count as two presses and open the rewind list.
import { afterEach, describe, expect, it } from "vitest";
import type { RewindPointStats, RewindRequest, RewindResult } from "../../src/main/checkpoints/index.js";
import type { RewindPort } from "../../src/ui/app/tui-backend.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, gate, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const POINT: RewindPointStats = { n: 1, entryId: "e1", message: "первый вопрос", at: Date.now(), hasCheckpoint: false, files: 0, insertions: 0, deletions: 0 };

class OnePointRewind implements RewindPort {
  async pointsWithStats() {
    return [POINT];
  }
  async preview() {
    return { point: POINT, code: null, git: null };
  }
  async rewind(request: RewindRequest): Promise<RewindResult> {
    return { point: POINT, mode: request.mode, dryRun: false, draft: null, restored: [], deleted: [], conflicts: [], skipped: [], changes: [], notes: [], git: null, warnings: [] };
  }
  async restoreCancelledTurn() {
    return null;
  }
}

async function start(): Promise<UiHarness> {
  const backend = new ScriptedBackend();
  backend.rewind = new OnePointRewind();
  return startUi({ backend, cols: 80, rows: 24 });
}

describe("Esc Esc in one read", () => {
  it("opens the rewind list on an empty prompt", async () => {
    h = await start();
    h.t.type(KEYS.escape + KEYS.escape);
    await h.t.waitForText("Rewind to before…");
  });

  it("still does nothing with text in the prompt, and closes a dialog without reopening the list", async () => {
    h = await start();
    h.t.type("черновик");
    await h.t.waitForText("> черновик");
    h.t.type(KEYS.escape + KEYS.escape);
    await h.t.settle();
    expect(h.t.find("Rewind to before")).toBeNull();
    expect(h.app.input.editor.text).toBe("черновик");
    h.t.type("\x15"); // Ctrl+U
    await h.t.waitFor(() => h!.app.input.editor.text === "", "an empty prompt");
    h.t.type("/sessions", KEYS.enter);
    await h.t.waitForText("Sessions (1)");
    h.t.type(KEYS.escape + KEYS.escape);
    await h.t.waitForNoText("Sessions (1)");
    await h.t.settle();
    expect(h.t.find("Rewind to before")).toBeNull();
  });
});

describe("Esc after an answer, while its turn winds down", () => {
  it("is no stop: the answer stays whole, and a pair opens the rewind list once the turn has ended", async () => {
    h = await start();
    const bookkeeping = gate();
    let aborted = false;
    h.backend.turns.push(async function* ({ signal }) {
      signal.addEventListener("abort", () => (aborted = true), { once: true });
      yield { type: "text", text: "Ответ готов." };
      yield { type: "finished", reason: "answer", text: "Ответ готов.", stats: stats() };
      // The checkpoint and the session are written after the answer is on screen.
      await bookkeeping.wait;
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("Ответ готов.");
    await h.t.waitForText("1,247 tokens");
    h.t.type(KEYS.escape);
    h.t.type(KEYS.escape);
    await h.t.settle();
    expect(h.t.find("Interrupted.")).toBeNull();
    expect(h.t.find("Rewind to before")).toBeNull();
    bookkeeping.open();
    await h.t.waitForText("Rewind to before…");
    expect(aborted).toBe(false);
  });

  it("gives a message queued meanwhile back to the input instead of sending it into the rewound conversation", async () => {
    h = await start();
    const bookkeeping = gate();
    h.backend.turns.push(async function* () {
      yield { type: "finished", reason: "answer", text: "Готово.", stats: stats() };
      await bookkeeping.wait;
    });
    h.t.type("вопрос", KEYS.enter);
    await h.t.waitForText("1,247 tokens");
    h.t.type("ещё вопрос", KEYS.enter);
    await h.t.waitFor(() => h!.app.input.editor.text === "", "the message to be queued");
    h.t.type(KEYS.escape);
    h.t.type(KEYS.escape);
    bookkeeping.open();
    await h.t.waitForText("Rewind to before…");
    expect(h.backend.sent).toEqual(["вопрос"]);
    h.t.type(KEYS.escape);
    await h.t.waitForNoText("Rewind to before…");
    expect(h.app.input.editor.text).toBe("ещё вопрос");
  });
});
