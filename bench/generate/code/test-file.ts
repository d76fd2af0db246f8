// *.test.ts / *.test.tsx / *.spec.ts files exercising the module they sit next to.

import { NOUNS, STATUS_VALUES, VERBS } from "../names.js";
import { Rng } from "../prng.js";
import type { SourceModule } from "../model.js";
import { localName, renderImportBlock } from "./imports.js";
import { comment, stringLiteral } from "./statements.js";

function indent(lines: string[], by: string): string[] {
  return lines.map((line) => (line === "" ? line : by + line));
}

export function renderTestFile(test: SourceModule, seed: number): string {
  const rng = Rng.forKey(seed, test.path);
  const jsx = test.path.endsWith(".tsx");
  const out = [...renderImportBlock(test.imports, rng, true), ""];
  const subjects = test.imports
    .filter((spec) => spec.from.startsWith(".") && !spec.typeOnly)
    .flatMap((spec) => [
      ...(spec.defaultName ? [{ name: spec.defaultName, kind: spec.named[0]?.kind ?? "class" }] : []),
      ...spec.named.map((n) => ({ name: localName(n), kind: n.kind })),
    ]);
  const title = test.subject ? test.subject.path.split("/").pop()?.replace(/\.[^.]+$/, "") ?? "module" : "module";
  const cases: string[][] = [];
  const itCount = Math.max(1, test.units);
  for (let i = 0; i < itCount; i++) {
    const subject = subjects.length > 0 ? rng.pick(subjects) : { name: "Object", kind: "const" as const };
    const label = `${rng.pick(VERBS)}s ${rng.pick(NOUNS)} ${rng.pick(["when empty", "with defaults", "for a new tenant", "after a retry", "on invalid input", "in order"])}`;
    const body: string[] = [];
    switch (subject.kind) {
      case "class":
        body.push(`const instance = new ${subject.name}();`, `expect(instance).toBeInstanceOf(${subject.name});`);
        if (rng.chance(0.5)) body.push(`expect(Object.keys(instance)).not.toContain(${stringLiteral(rng)});`);
        break;
      case "function":
      case "hook":
        body.push(`const result = ${subject.name}(${rng.chance(0.5) ? stringLiteral(rng) : rng.int(0, 99)});`, "expect(result).toBeDefined();");
        break;
      case "enum":
        body.push(`expect(Object.values(${subject.name})).toContain(${JSON.stringify(rng.pick(STATUS_VALUES))});`);
        break;
      case "component":
        if (jsx) {
          body.push(`render(<${subject.name} title=${stringLiteral(rng)} />);`, `expect(screen.getByRole("region")).toBeTruthy();`);
          break;
        }
        body.push(`expect(typeof ${subject.name}).toBe("function");`);
        break;
      default:
        body.push(`expect(${subject.name}).toMatchSnapshot();`);
    }
    if (rng.chance(0.2)) body.unshift(comment(rng));
    const isAsync = rng.chance(0.3);
    if (isAsync) body.push("await Promise.resolve();");
    cases.push([`it(${JSON.stringify(label)}, ${isAsync ? "async " : ""}() => {`, ...indent(body, "  "), "});"]);
  }
  if (rng.chance(0.4)) {
    const rows = rng.sample(NOUNS, 3).map((n) => `[${JSON.stringify(n)}, ${rng.int(0, 9)}]`);
    cases.push([
      "it.each([",
      ...rows.map((row) => `  ${row},`),
      `])("handles %s", (input, expected) => {`,
      "  expect(String(input).length).toBeGreaterThan(expected - 100);",
      "});",
    ]);
  }
  out.push(`describe(${JSON.stringify(title)}, () => {`);
  if (rng.chance(0.5)) out.push("  const spy = vi.fn();", "", "  beforeEach(() => {", "    spy.mockReset();", "  });", "");
  out.push(...cases.flatMap((c, i) => [...(i > 0 ? [""] : []), ...indent(c, "  ")]));
  out.push("});", "");
  return out.join("\n");
}
