// The BM25 ranking behind knowledge_search and memory_search, on a small corpus whose order is worked out
// by hand: term frequency saturates, rare terms weigh more, long documents are normalised, names count more.
import { describe, expect, it } from "vitest";
import { Bm25Index, relevances, tokenize } from "../../../src/main/shadow/bm25.js";

const CORPUS = [
  { id: "auth", name: "Authentication module", text: "Handles user login with JWT tokens and refresh tokens." },
  { id: "tokens", name: "src/auth/tokens.ts", text: "exports issueToken, refreshToken; signs JWT access tokens" },
  { id: "cart", name: "CartService", text: "class CartService: adds items, computes totals with discounts" },
  { id: "adr", name: "ADR-3: JWT vs sessions", text: "Chose JWT for stateless scaling; sessions need Redis." },
  { id: "long", name: "notes", text: `${"unrelated filler words about shipping and warehouses ".repeat(30)} token` },
];

describe("tokenize", () => {
  it("splits identifiers and paths, drops stopwords and folds plurals", () => {
    expect(tokenize("getUserTokens in src/auth/refresh_token.ts")).toEqual(["get", "user", "token", "getusertoken", "src", "auth", "refresh", "token", "refreshtoken", "ts"]);
    expect(tokenize("HTTPServer")).toEqual(["http", "server", "httpserver"]);
    expect(tokenize("the of а и")).toEqual([]);
    expect(tokenize("Токены и сессии")).toEqual(["токен", "сесс"]);
  });

  it("folds Russian word forms to one stem, so a search finds the other cases", () => {
    expect(new Set(["копейки", "копейках", "копейка"].flatMap((w) => tokenize(w)))).toEqual(new Set(["копейк"]));
    expect(new Set(["сервис", "Сервисы", "сервисов"].flatMap((w) => tokenize(w)))).toEqual(new Set(["сервис"]));
    expect(tokenize("ёлка")).toEqual(tokenize("елка"));
    const ru = new Bm25Index([
      { id: "money", name: "Деньги", text: "Суммы хранятся в копейках, не в рублях." },
      { id: "other", name: "Логи", text: "Сервисы пишут логи в JSON." },
    ]);
    expect(ru.search("копейки").map((h) => h.id)).toEqual(["money"]);
    expect(ru.search("сервис").map((h) => h.id)).toEqual(["other"]);
  });
});

describe("Bm25Index", () => {
  const index = new Bm25Index(CORPUS);

  it("ranks the documents that use a rare query term most, names first", () => {
    const hits = index.search("jwt");
    // adr has it in its name; auth and tokens mention it once, and auth's text is shorter.
    expect(hits.map((h) => h.id)).toEqual(["adr", "auth", "tokens"]);
    expect(new Set(index.search("refresh tokens").map((h) => h.id).slice(0, 2))).toEqual(new Set(["tokens", "auth"]));
    expect(index.search("issueToken")[0]!.id).toBe("tokens");
  });

  it("normalises long documents: one mention in a long text ranks below a short one", () => {
    const hits = index.search("token");
    expect(hits.at(-1)!.id).toBe("long");
  });

  it("finds identifiers by their parts and gives relevance relative to the best hit", () => {
    const hits = index.search("cart service totals");
    expect(hits[0]!.id).toBe("cart");
    const rel = relevances(index.search("jwt sessions"));
    expect([...rel.keys()][0]).toBe("adr");
    expect(rel.get("adr")).toBe(1);
    for (const v of rel.values()) expect(v).toBeLessThanOrEqual(1);
  });

  it("returns nothing for unknown or stopword-only queries, and respects the limit", () => {
    expect(index.search("kubernetes")).toEqual([]);
    expect(index.search("the and")).toEqual([]);
    expect(index.search("jwt", 1)).toHaveLength(1);
    expect(new Bm25Index([]).search("jwt")).toEqual([]);
  });
});
