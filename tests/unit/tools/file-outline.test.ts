// A file's outline (get_structure on a file, the outlines in the first request): every statement the
// model may copy is shown by what it binds, never in JavaScript syntax the index cannot vouch for.
import { describe, expect, it } from "vitest";
import { fileOutline } from "../../../src/main/tools/get-structure.js";
import { extractFile } from "../../../src/workers/extract/index.js";

const SOURCE = `import { readFile, writeFile } from "node:fs/promises";
import Logger from "./logger";
import * as path from "node:path";
import type { Money } from "./money";
import "./polyfill";
export * from "./all";
export { a as b, c } from "./re";
const lazy = () => import("./lazy");
export const WIDTH_TABLE = [1, 2];
export function f() {}
export default f;
`;

describe("a file's outline", () => {
  const outline = fileOutline("src/table.ts", extractFile(SOURCE, "typescript").ast).split("\n");

  it("lists each import statement once, with the module and the names it binds", () => {
    expect(outline).toContain('  import "node:fs/promises" (builtin) → readFile, writeFile :1');
    expect(outline).toContain('  import "./logger" (internal) → Logger (default) :2');
    expect(outline).toContain('  import "./money" (internal) → type Money :4');
    expect(outline).toContain('  import "./polyfill" (internal) :5');
    expect(outline).toContain('  export * from "./all" (internal) :6');
    expect(outline).toContain('  import("./lazy") (internal, dynamic) :8');
    // A named import is never written as a default one.
    expect(outline.some((l) => /import readFile from/.test(l))).toBe(false);
  });

  it("shows every export its count promises: constants and the default export too", () => {
    expect(outline[0]).toMatch(/ 6 export\)$/);
    expect(outline).toContain("  export const WIDTH_TABLE :9");
    expect(outline).toContain("  export function f() :10-10");
    expect(outline).toContain("  export default :11");
  });
});
