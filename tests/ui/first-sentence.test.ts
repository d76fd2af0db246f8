import { describe, expect, it } from "vitest";
import { firstSentence } from "../../src/ui/app/slash-commands.js";
import { TOOLS } from "../../src/main/tools/registry.js";

describe("/help shows each tool's first sentence", () => {
  it("does not stop at an abbreviation or a version number", () => {
    expect(firstSentence("Leave a reminder for a later session, e.g. at the end of a session. More.")).toBe("Leave a reminder for a later session, e.g. at the end of a session.");
    expect(firstSentence("Pins v1.2.3 of the parser. Then more.")).toBe("Pins v1.2.3 of the parser.");
    expect(firstSentence("Read lines of a file. Numbers are 1-based.")).toBe("Read lines of a file.");
    expect(firstSentence("Leave a reminder, e.g. later. surface_condition makes it wait.")).toBe("Leave a reminder, e.g. later.");
    expect(firstSentence("no period at all")).toBe("no period at all");
  });

  it("gives every registered tool a whole sentence", () => {
    for (const tool of TOOLS) {
      const first = firstSentence(tool.description);
      expect(first, tool.name).toMatch(/[.!?)]$/);
      expect(first.length, tool.name).toBeGreaterThan(10);
      expect(first, tool.name).not.toMatch(/\b(e\.g|i\.e)\.$/);
    }
  });
});
