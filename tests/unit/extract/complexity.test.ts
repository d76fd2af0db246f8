import { describe, expect, it } from "vitest";
import { complexityScore, countCodeLines } from "../../../src/workers/extract/complexity.js";
import { code, extract } from "./extract-helpers.js";

describe("lines of code", () => {
  it("counts non-blank lines outside comments", () => {
    const { complexity } = extract(code`
      // header comment
      /**
       * Docs.
       */
      import { a } from "./a";

      const x = 1; // trailing comment still a code line
      /* lead */ const y = 2;
      /* spans
         lines */ const z = 3;
      const url = "http://example.com"; const re = /[/]{2}/;
    `);
    expect(complexity.loc).toBe(5);
  });

  it("works from comment ranges alone", () => {
    const source = "a\n/* x\ny */ b\n\n// c\nd";
    const comments = [2, 11, 15, 19];
    expect(countCodeLines(source, comments)).toBe(3);
  });
});

describe("nesting", () => {
  it("is the deepest nesting of statement blocks and switch bodies; objects do not count", () => {
    const { complexity } = extract(code`
      const config = { a: { b: { c: [1, [2, [3]]] } } };
      function outer(kind) {
        if (kind) {
          switch (kind) {
            case 1: {
              return 1;
            }
          }
        }
      }
      function flat() { return 1; }
    `);
    expect(complexity.nesting).toBe(4);
  });

  it("is 0 for a file without blocks", () => {
    expect(extract(`export const a = 1;`).complexity.nesting).toBe(0);
  });
});

describe("score", () => {
  it("is round(loc / 10 + nesting * 5 + imports * 2)", () => {
    expect(complexityScore(123, 3, 4)).toEqual({ loc: 123, nesting: 3, imports: 4, score: 35 });
    expect(complexityScore(0, 0, 0).score).toBe(0);
  });

  it("counts every import record", () => {
    const { complexity } = extract(`import a, { b } from "./x";\nimport "./side";\nfunction f() { if (a) { b(); } }`);
    expect(complexity).toEqual({ loc: 3, nesting: 2, imports: 3, score: complexityScore(3, 2, 3).score });
  });
});
