// A pasted message that ends in a newline: the chat showed blank rows under it (a double gap).
import { describe, expect, it } from "vitest";
import { renderEntry } from "../../src/ui/chat/chat-render.js";
import { lineText } from "../../src/ui/text/styled-text.js";

describe("the user's message in the chat", () => {
  it("drops blank lines at its end but keeps blank lines and indentation inside", () => {
    const rows = renderEntry({ kind: "user", id: 1, version: 0, text: "function f() {\n\n    return 1;\n}\n\n \n" }, 60, { showStats: true, showToolCalls: true });
    expect(rows.map((r) => lineText(r).trimEnd())).toEqual(["  User: function f() {", "", "            return 1;", "        }"]);
  });
});
