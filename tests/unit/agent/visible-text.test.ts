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

  it("shows a tag the parser would not take for a call: quoted in backticks, or inside a ts block", () => {
    const quoted = stream("The parser looks for `<tool", "_call` tags and then ", "reads the name.");
    expect(quoted.all).toBe("The parser looks for `<tool_call` tags and then reads the name.");
    const fenced = stream("Example:\n```ts\nconst tag = \"<tool_call name=x>\";\n```\nThat is all.");
    expect(fenced.all).toBe("Example:\n```ts\nconst tag = \"<tool_call name=x>\";\n```\nThat is all.");
  });

  it("keeps what follows an opening tag that never closes, for the caller to show when it was no call", () => {
    const filter = new VisibleTextFilter();
    const shown = filter.push("Use a <tool_call> block, like so") + filter.flush();
    expect(shown).toBe("Use a ");
    expect(filter.unclosed()).toBe("<tool_call> block, like so");
  });

  it("holds back a long call that arrives in many small deltas, its closing tag split between two", () => {
    const filter = new VisibleTextFilter();
    let shown = filter.push("Writing it. <tool_call name=\"create_file\"><content>");
    for (let i = 0; i < 40_000; i++) shown += filter.push("x = 1;\n");
    shown += filter.push("</content></tool") + filter.push("_call> Done.") + filter.flush();
    expect(shown).toBe("Writing it.  Done.");
    expect(filter.unclosed()).toBe("");
  });
});
