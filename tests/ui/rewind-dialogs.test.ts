// Rewind in the TUI on real frames, over a scripted rewind service (the service itself is tested in
// tests/**/checkpoints; the real one behind the TUI is in rewind-runtime.test.ts): Esc Esc and /rewind
// open the list (newest at the bottom, stats per row), the confirm panel shows the preview, conflicts,
// what cannot be restored and git's commands; a mode key applies it; the draft lands in the input;
// `/rewind N mode`; Esc stops a turn that produced nothing and gives the message back.
import { afterEach, describe, expect, it } from "vitest";
import type { RewindPointStats, RewindPreview, RewindRequest, RewindResult } from "../../src/main/checkpoints/index.js";
import type { RewindPort } from "../../src/ui/app/tui-backend.js";
import { pointStatsText } from "../../src/ui/dialogs/rewind-dialogs.js";
import { KEYS } from "../helpers/headless-terminal.js";
import { ScriptedBackend, stats } from "./scripted-backend.js";
import { startUi, type UiHarness } from "./ui-harness.js";

let h: UiHarness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

const at = Date.now() - 5 * 60_000;
const POINTS: RewindPointStats[] = [
  { n: 1, entryId: "e1", message: "Добавь купоны в корзину", at, hasCheckpoint: true, files: 2, insertions: 3, deletions: 5 },
  { n: 2, entryId: "e2", message: "Объясни, как считается налог", at, hasCheckpoint: true, files: 0, insertions: 0, deletions: 0 },
  { n: 3, entryId: "e3", message: "Переименуй Money в Amount\nи обнови импорты", at, hasCheckpoint: false, files: 0, insertions: 0, deletions: 0 },
];

function preview(n: number): RewindPreview {
  const point = POINTS[n - 1]!;
  if (!point.hasCheckpoint) return { point, code: null, git: null };
  return {
    point,
    code: {
      changes: [
        { path: "src/cart.ts", action: "restore", insertions: 2, deletions: 4 },
        { path: "src/coupon.ts", action: "delete", insertions: 0, deletions: 1 },
      ],
      conflicts: [{ path: "src/tax.ts", action: "restore", insertions: 1, deletions: 0 }],
      skipped: [{ path: "data/big.json", reason: "too_large" }],
      insertions: 3,
      deletions: 5,
    },
    git: { recorded: "abc1234def", current: "fed4321cba", commands: ["git log --oneline abc1234def..HEAD", "git reset --soft abc1234def"] },
  };
}

class ScriptedRewind implements RewindPort {
  readonly requests: RewindRequest[] = [];
  restoredTurns = 0;
  async pointsWithStats() {
    return POINTS;
  }
  async preview(point: number | string) {
    return preview(Number(point));
  }
  async rewind(request: RewindRequest): Promise<RewindResult> {
    this.requests.push(request);
    const p = POINTS[Number(request.point) - 1]!;
    const code = request.mode === "both" || request.mode === "code";
    const overwrite = request.onConflict === "overwrite";
    return {
      point: p,
      mode: request.mode,
      dryRun: false,
      draft: request.mode === "code" ? null : p.message,
      restored: code ? ["src/cart.ts", ...(overwrite ? ["src/tax.ts"] : [])] : [],
      deleted: code ? ["src/coupon.ts"] : [],
      ...(code ? { removedFolders: ["src/promo"] } : {}),
      conflicts: code && !overwrite ? ["src/tax.ts"] : [],
      skipped: code ? [{ path: "data/big.json", reason: "too_large" }] : [],
      changes: code ? preview(p.n).code!.changes : [],
      notes: request.mode === "code" ? ["The code was rewound to before message 1; the conversation was not."] : [],
      git: null,
      warnings: [],
    };
  }
  async restoreCancelledTurn() {
    this.restoredTurns++;
    return "долгий вопрос";
  }
}

class RewindBackend extends ScriptedBackend {
  restoreOnCancel = true;
}

async function withRewind(opts: { restoreOnCancel?: boolean; rows?: number } = {}): Promise<{ ui: UiHarness; rewind: ScriptedRewind }> {
  const backend = new RewindBackend();
  const rewind = new ScriptedRewind();
  backend.rewind = rewind;
  backend.restoreOnCancel = opts.restoreOnCancel ?? true;
  h = await startUi({ backend, cols: 100, rows: opts.rows ?? 34 });
  return { ui: h, rewind };
}

/** Two reads, back to back: waiting in between could outlast DOUBLE_ESCAPE_MS on a loaded machine. */
async function doubleEscape(ui: UiHarness): Promise<void> {
  ui.t.type(KEYS.escape);
  ui.t.type(KEYS.escape);
}

describe("the rewind list", () => {
  it("Esc Esc on an empty prompt lists the points newest at the bottom with their stats; ↑/Enter opens the confirm panel", async () => {
    const { ui } = await withRewind();
    await doubleEscape(ui);
    await ui.t.waitForText("Rewind to before…");
    const row1 = ui.t.find("1. Добавь купоны в корзину");
    const row2 = ui.t.find("2. Объясни, как считается налог");
    const row3 = ui.t.find("3. Переименуй Money в Amount …");
    expect(row1 && row2 && row3).toBeTruthy();
    expect(row1!.y).toBeLessThan(row2!.y);
    expect(row2!.y).toBeLessThan(row3!.y);
    expect(ui.t.lines()[row1!.y]).toMatch(/2 files \+3 −5/);
    expect(ui.t.lines()[row2!.y]).toMatch(/no code changes/);
    expect(ui.t.lines()[row3!.y]).toMatch(/conversation only/);
    // The newest point is selected: Enter on it previews message 3 (no checkpoint: conversation only).
    ui.t.type(KEYS.up, KEYS.up, KEYS.enter);
    await ui.t.waitForText("Rewind to before message 1");
  });

  it("Esc Esc does nothing with text in the prompt, and an Esc that closed a dialog does not start a pair", async () => {
    const { ui } = await withRewind();
    ui.t.type("черновик");
    await ui.t.waitForText("> черновик");
    await doubleEscape(ui);
    await ui.t.settle();
    expect(ui.t.find("Rewind to before")).toBeNull();
    ui.t.type("\x15"); // Ctrl+U clears the prompt
    await ui.t.waitFor(() => ui.app.input.editor.text === "", "an empty prompt");
    await doubleEscape(ui);
    await ui.t.waitForText("Rewind to before…");
    ui.t.type(KEYS.escape); // closes the list…
    await ui.t.waitForNoText("Rewind to before…");
    ui.t.type(KEYS.escape); // …and this one, right after, is not the second of a pair
    await ui.t.settle();
    expect(ui.t.find("Rewind to before…")).toBeNull();
  });
});

describe("the confirm panel", () => {
  it("shows files with +/−, conflicts, what cannot be restored and git's commands; B applies both and the draft lands in the input", async () => {
    const { ui, rewind } = await withRewind({ rows: 40 });
    ui.t.type("/rewind", KEYS.enter);
    await ui.t.waitForText("Rewind to before…");
    ui.t.type(KEYS.up, KEYS.up, KEYS.enter);
    await ui.t.waitForText("Rewind to before message 1");
    for (const text of [
      "Message 1 (5m ago): Добавь купоны в корзину",
      "Code: 3 files, 1 of them in conflict +3 −5",
      "restore src/cart.ts  +2 −4",
      "delete  src/coupon.ts  +0 −1",
      "Conflicts — changed since by you or by a command; skipped unless [O] overwrite:",
      "restore src/tax.ts  +1 −0",
      "Cannot be restored:",
      "data/big.json: larger than checkpoints.maxFileBytes",
      "Git HEAD moved since this point (abc1234def → fed4321cba)",
      "git reset --soft abc1234def",
      "[B] both  [C] conversation  [K] code  [S] summarize from here  [U] summarize up to here",
      "[ENTER] apply both  [ESC] cancel  [O] overwrite conflicts: off",
    ]) await ui.t.waitForText(text);
    ui.t.type("b");
    await ui.t.waitForText("Rewound both to before message 1");
    await ui.t.waitForText("Conflicts left as they are");
    await ui.t.waitForText("> Добавь купоны в корзину");
    expect(rewind.requests).toEqual([{ point: 1, mode: "both", onConflict: "skip" }]);
  });

  it("O toggles overwriting conflicts; a Russian layout works (л = K); Esc cancels without rewinding", async () => {
    const { ui, rewind } = await withRewind({ rows: 40 });
    ui.t.type("/rewind 1", KEYS.enter);
    await ui.t.waitForText("overwrite conflicts: off");
    ui.t.type(KEYS.escape);
    await ui.t.waitForNoText("Rewind to before message 1");
    expect(rewind.requests).toEqual([]);
    ui.t.type("/rewind 1", KEYS.enter);
    await ui.t.waitForText("overwrite conflicts: off");
    ui.t.type("щ"); // O on a Russian layout
    await ui.t.waitForText("overwrite conflicts: on");
    ui.t.type("л");
    await ui.t.waitForText("Rewound code to before message 1");
    expect(rewind.requests).toEqual([{ point: 1, mode: "code", onConflict: "overwrite" }]);
  });

  it("/rewind 1 code preselects code for Enter; the note for the model is pointed to and the input stays empty", async () => {
    const { ui, rewind } = await withRewind({ rows: 40 });
    ui.t.type("/rewind 1 code", KEYS.enter);
    await ui.t.waitForText("[ENTER] apply code");
    ui.t.type(KEYS.enter);
    await ui.t.waitForText("Rewound code to before message 1");
    await ui.t.waitForText("A note in the conversation tells the model what changed.");
    await ui.t.waitForText("Removed empty folders (their created files were deleted): src/promo/");
    expect(rewind.requests).toEqual([{ point: 1, mode: "code", onConflict: "skip" }]);
    expect(ui.app.input.editor.text).toBe("");
  });

  it("a point without a checkpoint offers only the conversation modes", async () => {
    const { ui, rewind } = await withRewind();
    ui.t.type("/rewind 3 both", KEYS.enter);
    await ui.t.waitForText("No checkpoint for this message: only the conversation can be rewound.");
    await ui.t.waitForText("[C] conversation  [S] summarize from here  [U] summarize up to here");
    await ui.t.waitForText("[ENTER] apply conversation");
    ui.t.type("k"); // not offered
    await ui.t.settle();
    expect(rewind.requests).toEqual([]);
    ui.t.type("c");
    await ui.t.waitForText("Rewound conversation to before message 3");
    expect(ui.app.input.editor.text).toBe("Переименуй Money в Amount\nи обнови импорты");
  });

  it("bad arguments are explained", async () => {
    const { ui } = await withRewind();
    ui.t.type("/rewind 2 sideways", KEYS.enter);
    await ui.t.waitForText('/rewind: unknown rewind mode "sideways"');
    ui.t.type("/rewind last", KEYS.enter);
    await ui.t.waitForText("/rewind: usage: /rewind [N]");
  });
});

describe("Esc during a turn", () => {
  it("stops a turn that produced nothing yet and puts the message back in the input", async () => {
    const { ui, rewind } = await withRewind();
    let aborted = false;
    ui.backend.turns.push(async function* ({ signal }) {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      aborted = true;
      yield { type: "finished", reason: "cancelled", text: "[interrupted]", stats: stats() };
    });
    ui.t.type("долгий вопрос", KEYS.enter);
    await ui.t.waitForText("User: долгий вопрос");
    ui.t.type(KEYS.escape);
    await ui.t.waitForText("Stopped; the message is back in the input.");
    expect(aborted).toBe(true);
    expect(rewind.restoredTurns).toBe(1);
    expect(ui.app.input.editor.text).toBe("долгий вопрос");
    expect(ui.t.find("User: долгий вопрос")).toBeNull();
  });

  it("stops an answer that has started where it is (its message stays), and restoreOnCancel off keeps the message in the chat", async () => {
    const { ui, rewind } = await withRewind({ restoreOnCancel: false });
    ui.backend.turns.push(async function* ({ signal }) {
      yield { type: "text", text: "Думаю" };
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      yield { type: "finished", reason: "cancelled", text: "Думаю\n[interrupted]", stats: stats() };
    });
    ui.t.type("вопрос", KEYS.enter);
    await ui.t.waitForText("Agent: Думаю");
    ui.t.type(KEYS.escape);
    await ui.t.waitForText("Interrupted.");
    await ui.t.waitFor(() => /[✓✗]\s*$/.test(ui.t.lines()[0]!), "the turn to end");
    expect(ui.t.find("User: вопрос")).not.toBeNull();
    expect(ui.t.text()).not.toContain("exits");

    ui.backend.turns.push(async function* ({ signal }) {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      yield { type: "finished", reason: "cancelled", text: "[interrupted]", stats: stats() };
    });
    ui.t.type("второй", KEYS.enter);
    await ui.t.waitForText("User: второй");
    ui.t.type(KEYS.escape);
    await ui.t.waitForText("Stopped.");
    expect(rewind.restoredTurns).toBe(0);
    expect(ui.app.input.editor.text).toBe("");
    expect(ui.t.find("User: второй")).not.toBeNull();
  });
});

describe("a replayed session", () => {
  it("shows rewind notes for the model as notices, not as the user's messages", async () => {
    const now = Date.now();
    const backend = new RewindBackend({ messages: [
      { role: "user", content: "где Money?", timestamp: now },
      { role: "assistant", content: "В money.ts.", timestamp: now },
      { role: "user", content: "Rewind note: src/cart.ts differs from the conversation.", timestamp: now, note: "rewind" },
    ] });
    h = await startUi({ backend, cols: 100 });
    await h.t.waitForText("User: где Money?");
    await h.t.waitForText("Rewind note: src/cart.ts differs from the conversation.");
    expect(h.t.find("User: Rewind note")).toBeNull();
  });
});

describe("a rewind point's stats in the list", () => {
  it("count the files a rewind cannot restore (too large to back up) instead of saying no code changes", () => {
    const p = POINTS[1]!;
    expect(pointStatsText(p)).toBe("no code changes");
    expect(pointStatsText({ ...p, files: 1, unrestorable: 1 })).toBe("1 file, not restorable");
    expect(pointStatsText({ ...p, files: 3, unrestorable: 1, insertions: 2, deletions: 1 })).toBe("3 files +2 −1, 1 not restorable");
  });
});
