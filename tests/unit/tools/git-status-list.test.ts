import { describe, expect, it } from "vitest";
import { listPaths } from "../../../src/main/tools/git-status.js";

describe("git_status path lists", () => {
  it("lists a short list whole", () => {
    expect(listPaths(["a.ts", "src/b.ts"], 60)).toBe("a.ts, src/b.ts");
  });

  it("names each folder of a long list once, with its count, before the loose files", () => {
    const generated = Array.from({ length: 4990 }, (_, i) => `gen/file-${i}.ts`);
    const fixtures = Array.from({ length: 7 }, (_, i) => `test/fixtures/f${i}.json`);
    const out = listPaths([...generated, "README.md", ...fixtures, "src/new.ts"], 60);
    expect(out).toBe("gen/ (4,990 files), test/fixtures/ (7 files), README.md, src/new.ts");
  });

  it("still counts what does not fit", () => {
    const loose = Array.from({ length: 70 }, (_, i) => `dir${i}/only.ts`);
    expect(listPaths(loose, 60)).toMatch(/^dir0\/only\.ts, .* … and 10 more$/);
  });
});
