import { describe, expect, it } from "vitest";
import { VisibleTextFilter } from "../../../src/main/agent/visible-text.js";

const stream = (...deltas: string[]) => {
  const filter = new VisibleTextFilter();
  const shown = deltas.map((d) => filter.push(d));
  return { shown, all: shown.join("") + filter.flush() };
};

describe("the text shown while the model streams", () => {
  it("holds tool-call markup back, also when its tag is split between deltas", () => {
    const { shown, all } = stream("Let me look.", " <tool", '_call>{"name":"get_lines"}</tool_call>', " Done.");
    expect(all).toBe("Let me look.  Done.");
    expect(shown[1]).toBe(" ");
  });

  it("never shows half an emoji: a surrogate pair split between deltas comes out whole", () => {
    const thumbs = "👍";
    const { shown, all } = stream(`ok ${thumbs[0]}`, `${thumbs[1]} done`);
    expect(shown).toEqual(["ok ", "👍 done"]);
    for (const piece of shown) expect(piece).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(all).toBe("ok 👍 done");
  });
});
