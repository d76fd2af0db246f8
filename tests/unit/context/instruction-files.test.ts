import { afterEach, describe, expect, it } from "vitest";
import { readInstructions } from "../../../src/main/context/instruction-files.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";

const byChars = (text: string) => Math.ceil(text.length / 4);
const dirs: string[] = [];
const project = (tree: Record<string, string>) => {
  const root = makeTempDir("ipuaro-instr-");
  dirs.push(root);
  writeTree(root, tree);
  return root;
};
afterEach(() => dirs.splice(0).forEach(removeDir));

describe("readInstructions", () => {
  it("reads AGENTS.md then .ipuaro/instructions.md under their own headings", () => {
    const root = project({ "AGENTS.md": "Use pnpm.\r\nNever touch dist/.\n\n", ".ipuaro/instructions.md": "Answer in Russian." });
    const s = readInstructions(root, 1000, byChars)!;
    expect(s.files).toEqual(["AGENTS.md", ".ipuaro/instructions.md"]);
    expect(s.text).toBe("## Project instructions (AGENTS.md)\nUse pnpm.\nNever touch dist/.\n\n## Project instructions (.ipuaro/instructions.md)\nAnswer in Russian.");
    expect(s.truncated).toEqual([]);
    expect(s.tokens).toBe(byChars(s.text));
  });

  it("returns null when there is no instruction file (or only empty ones)", () => {
    expect(readInstructions(project({ "README.md": "hi" }), 1000, byChars)).toBeNull();
    expect(readInstructions(project({ "AGENTS.md": "  \n" }), 1000, byChars)).toBeNull();
  });

  it("truncates a huge file at a line boundary with a note, within the budget", () => {
    const body = Array.from({ length: 5000 }, (_, i) => `rule ${i}: keep functions small`).join("\n");
    const root = project({ "AGENTS.md": body, ".ipuaro/instructions.md": "Second file." });
    const s = readInstructions(root, 300, byChars)!;
    expect(s.tokens).toBeLessThanOrEqual(300);
    expect(s.truncated).toContain("AGENTS.md");
    expect(s.text).toMatch(/\[AGENTS\.md truncated to fit the context: \d+ of 5000 lines shown; read the file for the rest\]/);
    expect(s.text).toContain("rule 0: keep functions small");
    expect(s.text).not.toContain("rule 4999");
  });

  it("reads only the files asked for, and refuses paths outside the root", () => {
    const root = project({ "AGENTS.md": "a", "docs/AI.md": "b" });
    expect(readInstructions(root, 100, byChars, ["docs/AI.md"])!.files).toEqual(["docs/AI.md"]);
    expect(() => readInstructions(root, 100, byChars, ["../secrets.md"])).toThrow(/relative to the project root/);
    expect(() => readInstructions(root, 100, byChars, ["/etc/passwd"])).toThrow(/relative to the project root/);
  });
});
