import { describe, expect, it } from "vitest";
import { ALTERNATION_CYCLES, describeLoop, DOOM_LOOP_THRESHOLD, DoomLoopDetector } from "../../../src/main/agent/loop-guards.js";
import { parseToolCalls, type ParsedItem } from "../../../src/main/llm/tool-call-parser.js";

const KNOWN = new Set(["get_lines", "get_structure"]);
/** The one call (or failed call) a reply makes, as the orchestrator hands it to the detector. */
const item = (reply: string): ParsedItem => parseToolCalls(reply, KNOWN).items[0]!;
const A = '<tool_call name="get_lines"><path>a.ts</path></tool_call>';
const B = '<tool_call name="get_structure"><path>src</path></tool_call>';
const BROKEN = '<tool_call>{"name": "get_lines", "arguments": {"path": a.ts}}</tool_call>';
const UNKNOWN = '<tool_call name="read_file"><path>a.ts</path></tool_call>';

/** The index (1-based) of the call that completed a loop, and the loop, or null. */
function firstLoop(replies: string[]) {
  const detector = new DoomLoopDetector();
  for (const [i, reply] of replies.entries()) {
    const loop = detector.record(item(reply));
    if (loop) return { at: i + 1, loop, reason: describeLoop(loop) };
  }
  return null;
}

describe("DoomLoopDetector", () => {
  it("the same call with the same arguments, DOOM_LOOP_THRESHOLD times in a row", () => {
    expect(DOOM_LOOP_THRESHOLD).toBe(3);
    expect(firstLoop([A, A, A])).toMatchObject({ at: 3, reason: "the model called get_lines with the same arguments 3 times in a row" });
    expect(firstLoop([A, A, B, A, A])).toBeNull();
  });

  it("counts a call that could not be read: the same broken call three times is a loop", () => {
    expect(firstLoop([BROKEN, BROKEN, BROKEN])).toMatchObject({ at: 3, reason: "the model sent the same unreadable tool call to get_lines 3 times in a row" });
    // Only whitespace differs: still the same attempt.
    expect(firstLoop([BROKEN, BROKEN.replace(", ", ",\n  "), BROKEN])?.at).toBe(3);
    // Different broken calls are attempts at fixing it.
    expect(firstLoop([BROKEN, BROKEN.replace("a.ts", "b.ts"), BROKEN.replace("a.ts", "c.ts")])).toBeNull();
  });

  it("counts a call to a tool that does not exist", () => {
    expect(firstLoop([UNKNOWN, UNKNOWN, UNKNOWN])).toMatchObject({ at: 3, reason: "the model called read_file, a tool that does not exist, 3 times in a row" });
  });

  it("two calls taking turns (A B A B) with the same arguments are a loop once they have gone round ALTERNATION_CYCLES times", () => {
    expect(ALTERNATION_CYCLES).toBe(2);
    const found = firstLoop([A, B, A, B]);
    expect(found).toMatchObject({ at: 4, loop: { kind: "alternation" } });
    expect(found!.reason).toContain("alternating between the same two calls (get_lines, get_structure, get_lines, get_structure)");
    // A broken call can be one of the two.
    expect(firstLoop([BROKEN, A, BROKEN, A])?.reason).toContain("(a broken call to get_lines, get_lines, a broken call to get_lines, get_lines)");
  });

  it("is not fooled by pairs that differ, or by a repeat that is not an alternation", () => {
    const A2 = A.replace("a.ts", "b.ts");
    expect(firstLoop([A, B, A2, B])).toBeNull();
    expect(firstLoop([A, A, B, B])).toBeNull();
    expect(firstLoop([A, B, B, A])).toBeNull();
  });
});
