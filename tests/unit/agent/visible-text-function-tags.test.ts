import { describe, expect, it } from "vitest";
import { VisibleTextFilter } from "../../../src/main/agent/visible-text.js";

const stream = (...deltas: string[]) => {
  const filter = new VisibleTextFilter();
  const shown = deltas.map((d) => filter.push(d)).join("") + filter.flush();
  return { shown, unclosed: filter.unclosed() };
};

describe("streamed text around Qwen3-coder's bare <function=…> calls", () => {
  it("holds the block back, its tags split between deltas", () => {
    const { shown } = stream("Reading it. <func", "tion=get_lines>\n<parameter=path>\na.ts\n</parameter>\n</func", "tion> Done.");
    expect(shown).toBe("Reading it.  Done.");
  });

  it("drops the </tool_call> left after a block whose opening tag was left out", () => {
    const { shown } = stream("Reading. <function=git_status></function>\n</tool", "_call>\nDone.");
    expect(shown).toBe("Reading. \n\nDone.");
  });

  it("shows a quoted tag, and keeps a block that never closes for the caller to show if it was no call", () => {
    expect(stream("Qwen3 writes `<function=NAME>` blocks.").shown).toBe("Qwen3 writes `<function=NAME>` blocks.");
    expect(stream("A quoted `</tool_call>` stays.").shown).toBe("A quoted `</tool_call>` stays.");
    const open = stream("It uses <function=NAME> then parameters");
    expect(open.shown).toBe("It uses ");
    expect(open.unclosed).toBe("<function=NAME> then parameters");
  });
});
