import { describe, expect, it } from "vitest";
import { extractMentionTokens, MAX_MENTION_IDENTIFIERS, PathMatcher } from "../../../src/main/context/mentions.js";

describe("extractMentionTokens", () => {
  it("finds path-like tokens and identifiers, including Class.method pairs", () => {
    const t = extractMentionTokens(["Look at ./packages/core/src/money.ts and `order.service`, then call Money.add() from PriceTag."]);
    expect(t.paths).toEqual(expect.arrayContaining(["packages/core/src/money.ts", "order.service", "Money.add"]));
    expect(t.identifiers).toEqual(expect.arrayContaining(["PriceTag", "Money", "add", "Money.add", "packages", "money"]));
    // Keywords and very short words are not worth a lookup.
    expect(t.identifiers).not.toContain("and");
    expect(t.identifiers).not.toContain("at");
  });

  it("reads an @mention as the file it names (a scoped package name then matches no file)", () => {
    const t = extractMentionTokens(["Fix @packages/core/src/money.ts and @order.service.ts, using @acme/core"]);
    expect(t.paths).toEqual(expect.arrayContaining(["packages/core/src/money.ts", "order.service.ts"]));
    expect(t.paths).not.toContain("@packages/core/src/money.ts");
  });

  it("reads paths in any script, and quoted paths with spaces", () => {
    const t = extractMentionTokens(['Fix src/компоненты/Кнопка.tsx and @"docs/my notes/plan.md", see "apps/web/src/old page.tsx" or `lib/a b.ts`. He said "not a path here".']);
    expect(t.paths).toEqual(expect.arrayContaining(["src/компоненты/Кнопка.tsx", "docs/my notes/plan.md", "apps/web/src/old page.tsx", "lib/a b.ts"]));
    expect(t.paths).not.toContain("not a path here");
    expect(extractMentionTokens(['see @`src/a"b.ts`']).paths).toContain('src/a"b.ts');
    expect(t.identifiers).not.toContain("компоненты");
  });

  it("reads the newest message first so the identifier cap keeps recent ones", () => {
    const old = Array.from({ length: MAX_MENTION_IDENTIFIERS + 50 }, (_, i) => `oldName${i}`).join(" ");
    const t = extractMentionTokens([old, "fresh newSymbol"]);
    expect(t.identifiers).toHaveLength(MAX_MENTION_IDENTIFIERS);
    expect(t.identifiers.slice(0, 2)).toEqual(["fresh", "newSymbol"]);
  });

  it("ignores non-Latin prose and handles no messages", () => {
    expect(extractMentionTokens(["почему падает сборка?"])).toEqual({ paths: [], identifiers: [] });
    expect(extractMentionTokens([])).toEqual({ paths: [], identifiers: [] });
  });
});

describe("PathMatcher", () => {
  const m = new PathMatcher([
    "apps/api/src/orders/order.service.ts",
    "apps/api/src/main.ts",
    "packages/core/src/index.ts",
    "packages/ui/src/index.ts",
    "packages/core/src/money.ts",
    ...Array.from({ length: 6 }, (_, i) => `pkg${i}/index.ts`),
  ]);

  it.each([
    ["apps/api/src/main.ts", ["apps/api/src/main.ts"]],
    ["src/main.ts", ["apps/api/src/main.ts"]],
    ["orders/order.service", ["apps/api/src/orders/order.service.ts"]],
    ["order.service", ["apps/api/src/orders/order.service.ts"]],
    ["money.ts", ["packages/core/src/money.ts"]],
    ["core/src/index.ts", ["packages/core/src/index.ts"]],
    ["src/index.ts", ["packages/core/src/index.ts", "packages/ui/src/index.ts"]],
  ])("%s → %j", (token, hits) => expect(m.match(token)).toEqual(hits));

  it("finds the files of a mentioned folder, from the root or by its trailing part", () => {
    expect(m.matchFolder("apps/api/src")).toEqual(["apps/api/src/orders/order.service.ts", "apps/api/src/main.ts"]);
    expect(m.matchFolder("api/src/orders")).toEqual(["apps/api/src/orders/order.service.ts"]);
    expect(m.matchFolder("core")).toEqual([]);
    expect(m.matchFolder("apps/api/src/main.ts")).toEqual([]);
  });

  it("drops tokens naming too many files and unknown ones", () => {
    expect(m.match("index.ts")).toEqual([]);
    expect(m.match("nothing/here.ts")).toEqual([]);
    expect(m.matchAll(["money.ts", "main.ts", "money.ts"])).toEqual(["packages/core/src/money.ts", "apps/api/src/main.ts"]);
  });
});
