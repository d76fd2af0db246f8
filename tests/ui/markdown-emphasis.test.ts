// *Emphasis* and _emphasis_ in the model's answers: shown underlined (as man pages show italics; blessed
// has no italic) without the markers, which were printed as they came. Globs, arithmetic, snake_case
// and list bullets keep their characters.
import { describe, expect, it } from "vitest";
import { renderInline, renderMarkdown } from "../../src/ui/text/markdown-render.js";
import { lineText } from "../../src/ui/text/styled-text.js";

const underlined = (text: string) => renderInline(text).filter((s) => s.underline).map((s) => s.text);

describe("emphasis in answers", () => {
  it("drops the markers of *x* and _x_ and underlines the words, Cyrillic and punctuation around included", () => {
    expect(lineText(renderInline("Here is *italic* and _also_ ok"))).toBe("Here is italic and also ok");
    expect(underlined("Here is *italic* and _also_ ok")).toEqual(["italic", "also"]);
    expect(underlined("(*скобки*) и «*кавычки*», _курсив_.")).toEqual(["скобки", "кавычки", "курсив"]);
    expect(underlined("**bold** *a b*")).toEqual(["a b"]);
  });

  it("leaves stars and underscores that are not emphasis alone", () => {
    for (const text of ["a * b * c", "2*3*4", "snake_case_name", "src/*/index.ts and lib/*/x", "file_*.ts", "*x", "__init__.py"]) {
      expect(lineText(renderInline(text))).toBe(text);
      expect(underlined(text)).toEqual([]);
    }
  });

  it("keeps inline code literal and works inside list items", () => {
    expect(renderInline("`*not*` *yes*")).toEqual([{ text: "*not*", role: "code" }, { text: " " }, { text: "yes", underline: true }]);
    const rows = renderMarkdown("* item with *stress*\n- второй _пункт_", 40);
    expect(rows.map(lineText)).toEqual(["* item with stress", "- второй пункт"]);
  });
});
