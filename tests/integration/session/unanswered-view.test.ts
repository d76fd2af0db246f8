// The model's view of hand-made histories (no model, no Redis): where the note of a turn without an
// answer goes, what it says for sessions stored before turns recorded how they ended, and when there is none.
import { describe, expect, it } from "vitest";
import { SessionHistory } from "./session-history.js";
import { modelView, toLlmMessages, unansweredNote } from "../../../src/main/session/session-tree.js";
import type { ChatMessage, SessionEntry } from "../../../src/main/session/session-types.js";

const view = (entries: SessionEntry[]) => toLlmMessages(modelView(entries)).map((m) => [m.role, m.content]);

/** Sets fields on the user message `id` (how the recorder marks a turn's end). */
function mark(h: SessionHistory, id: string, fields: Partial<ChatMessage>): void {
  const e = h.entries.find((x) => x.id === id)!;
  if (e.kind === "message") Object.assign(e.message, fields);
}

describe("unansweredNote", () => {
  it("says how the turn ended, after the part of the answer that was shown", () => {
    expect(unansweredNote({ how: "interrupted", partial: "Money keeps cents " })).toBe("Money keeps cents\n\n[The user interrupted this answer.]");
    expect(unansweredNote({ how: "interrupted" })).toBe("[The user interrupted this answer.]");
    expect(unansweredNote({ how: "failed", reason: "Ollama at http://x answered HTTP 500." })).toBe("[This answer failed: Ollama at http://x answered HTTP 500; the user moved on.]");
    expect(unansweredNote({ how: "stopped" })).toBe("[This turn was stopped before an answer.]");
    expect(unansweredNote({ how: "stopped", reason: "the runner crashed" })).toBe("[This answer failed: the runner crashed; the turn was stopped there.]");
    expect(unansweredNote({ how: "killed" })).toBe("[This answer was cut off: ipuaro stopped before it was complete.]");
  });
});

describe("modelView and turns without an answer", () => {
  it("puts the note after the turn's last message (its tool results), before the next message", () => {
    const h = new SessionHistory();
    const first = h.user("read a.ts and explain");
    h.read("a.ts", 3);
    mark(h, first, { outcome: "[interrupted]", unanswered: { how: "interrupted" } });
    h.user("never mind");
    h.answer("OK.");
    expect(view(h.entries).map(([role]) => role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(view(h.entries)[3]).toEqual(["assistant", "[The user interrupted this answer.]"]);
  });

  it("reads how an older session's turn ended from its outcome", () => {
    const h = new SessionHistory();
    const a = h.user("one");
    mark(h, a, { outcome: 'Money keeps <tool_call name="get_lines">\n[interrupted]' });
    const b = h.user("two");
    mark(h, b, { outcome: "The model request failed: Cannot reach Ollama at http://127.0.0.1:11434." });
    const c = h.user("three");
    mark(h, c, { outcome: "partial text\n[interrupted: ipuaro stopped while the reply streamed]" });
    h.user("four"); // a run that died before anything was recorded, followed by another message
    h.user("five");
    h.answer("Done.");
    expect(view(h.entries)).toEqual([
      ["user", "one"],
      ["assistant", "Money keeps\n\n[The user interrupted this answer.]"],
      ["user", "two"],
      ["assistant", "[This answer failed: Cannot reach Ollama at http://127.0.0.1:11434; the user moved on.]"],
      ["user", "three"],
      ["assistant", "partial text\n\n[This answer was cut off: ipuaro stopped before it was complete.]"],
      ["user", "four"],
      ["assistant", "[This answer was cut off: ipuaro stopped before it was complete.]"],
      ["user", "five"],
      ["assistant", "Done."],
    ]);
  });

  it("adds none to a turn still running (the view is read mid-turn, by compression) or one that ended with an answer", () => {
    const h = new SessionHistory();
    const guard = h.user("loop");
    h.read("a.ts", 3);
    h.answer("What I found so far.");
    // A loop guard's stop: how the turn ended is kept for the chat, but the model answered.
    mark(h, guard, { outcome: "Stopped after 20 consecutive tool rounds" });
    h.user("running now");
    h.read("b.ts", 3);
    expect(view(h.entries).filter(([role, content]) => role === "assistant" && content.startsWith("["))).toEqual([]);
  });

  it("drops the note with its turn when a compaction summarised it", () => {
    const h = new SessionHistory();
    const a = h.user("old question");
    mark(h, a, { unanswered: { how: "interrupted" } });
    h.user("newer");
    h.answer("Answer.");
    h.compaction({ summary: "## Goal\nx", summarisedUntil: a, rewritten: {}, tokensBefore: 10, tokensAfter: 5, tokensLimit: 100, method: "truncate", trigger: "manual" });
    expect(view(h.entries).map(([, content]) => content)).not.toContain("[The user interrupted this answer.]");
  });
});
