// The streaming graph writes meta as text assembled from parts (file-meta.ts); readers parse it as the
// FileMeta JSON.stringify would have produced, so the two must agree byte for byte.
import { describe, expect, it } from "vitest";
import { buildMeta, HUB_DEPENDENTS_THRESHOLD, metaJson, metaJsonHead } from "../../../src/pipeline/graph/file-meta.js";

const complexity = { loc: 120, nesting: 4, imports: 3, score: 37 };
const many = Array.from({ length: HUB_DEPENDENTS_THRESHOLD + 1 }, (_, i) => `src/users/user-${i}.ts`);

describe("meta JSON from parts", () => {
  it.each([
    ["a hub nothing names as an entry", "src/lib/money.ts", ["src/lib/fmt.ts"], many, new Set<string>()],
    ["a file nothing imports (an entry point)", "src/jobs/nightly.ts", [], [], new Set<string>()],
    ["a test file nothing imports (not an entry point)", "src/lib/money.test.ts", ["src/lib/money.ts"], [], new Set<string>()],
    ["an index file", "packages/ui/src/index.tsx", [], ["apps/web/src/app.tsx"], new Set<string>()],
    ["a package.json entry with a quote in its path", 'packages/core/dist/"odd".js', [], ["a.ts"], new Set(['packages/core/dist/"odd".js'])],
    ["a JSON file", "config/app.json", [], [], new Set<string>()],
  ])("matches JSON.stringify(buildMeta(…)) for %s", (_label, p, deps, dependents, entries) => {
    const expected = JSON.stringify(buildMeta(p, complexity, deps, dependents, entries));
    expect(metaJson(metaJsonHead(complexity, JSON.stringify(deps)), p, dependents, entries)).toBe(expected);
  });

  it("marks hubs and entry points as the seed defines them", () => {
    const hub = JSON.parse(metaJson(metaJsonHead(complexity, "[]"), "src/lib/money.ts", many, new Set()));
    expect(hub).toMatchObject({ isHub: true, isEntryPoint: false, dependents: many });
    const lone = JSON.parse(metaJson(metaJsonHead(complexity, "[]"), "src/jobs/nightly.ts", [], new Set()));
    expect(lone).toMatchObject({ isHub: false, isEntryPoint: true });
  });

  it.each([
    ["src/index.ts", true],
    ["apps/web/src/main.tsx", true],
    ["server.mjs", true],
    ["packages/cli.v2/bin/cli.cjs", true],
    ["src/index.test.ts", false],
    ["src/index.d.ts", false],
    ["src/main.json", false],
    ["main.v2/src/util.ts", false],
    ["scripts/index", false],
  ] as const)("names %s an entry point by its file name: %s", (p, entry) => {
    // Imported by one file, so only the name (or a package.json) can make it an entry point.
    expect(buildMeta(p, complexity, [], ["src/other.ts"], new Set()).isEntryPoint).toBe(entry);
  });
});
