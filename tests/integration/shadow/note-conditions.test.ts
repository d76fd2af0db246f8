// memory_note's surface conditions, checked after a turn and at session start against a real git
// repository and a real index: a tag or version reached, a branch or PR merged, a function or class
// appearing in the index, a date passed; anything else waits for the next session start.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNoteCondition } from "../../../src/main/shadow/note-conditions.js";
import { afterTurn, sessionStartMemory } from "../../../src/main/shadow/session-memory.js";
import { memoryNote } from "../../../src/main/tools/memory-note.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { call } from "./shadow-calls.js";
import { buildShadowFixture, git, PRICE, type ShadowFixture } from "./shadow-fixture.js";

const server = useRedisServer();
let fx: ShadowFixture;

beforeAll(async () => {
  fx = await buildShadowFixture(server().url, { withSessions: false });
}, 60_000);
afterAll(async () => {
  await fx?.close();
});

async function note(content: string, surface_condition?: string) {
  return call(memoryNote, { content, ...(surface_condition ? { surface_condition } : {}) }, fx.ctx);
}

/** Contents of the notes that surfaced after a turn. */
async function turn(): Promise<string[]> {
  const r = await afterTurn({ store: fx.project.store, root: fx.root, sessionId: "N1", toolNames: ["get_lines"] });
  return r.notes.map((n) => n.content);
}

describe("parsing a surface condition", () => {
  it.each([
    ["When PR #42 in acme/shop is merged", { kind: "pr_merged", number: 42 }],
    ["when branch feature/cents is merged", { kind: "branch_merged", branch: "feature/cents" }],
    ["once feature/x-y gets merged", { kind: "branch_merged", branch: "feature/x-y" }],
    ["when the cleanup is merged", { kind: "next_session" }],
    ["When the latest release tag is >= v0.23.0", { kind: "version", min: "0.23.0" }],
    ["when version 2.1 ships", { kind: "version", min: "2.1" }],
    ["When packages/plugin/src/foo.ts contains a function named bar", { kind: "symbol", name: "bar", symbolKind: "function", path: "packages/plugin/src/foo.ts" }],
    ["when a class named CouponBook exists", { kind: "symbol", name: "CouponBook", symbolKind: "class", path: null }],
    ["after 2026-09-01", { kind: "date", date: "2026-09-01", at: Date.parse("2026-09-01T00:00:00Z") }],
    ["when the user is back from vacation", { kind: "next_session" }],
    ["", { kind: "none" }],
    ["when branch --upload-pack=evil is merged", { kind: "next_session" }],
  ])("%j", (text, expected) => {
    expect(parseNoteCondition(text)).toEqual(expected);
  });
});

describe("conditions firing", () => {
  it("a git tag reached (and the package version)", async () => {
    await note("Bump the changelog for the release.", "when tag v1.2.0 is reached");
    expect(await turn()).toEqual([]);
    git(fx.root, ["tag", "v1.1.0"]);
    expect(await turn()).toEqual([]);
    git(fx.root, ["tag", "v1.2.0"]);
    const r = await afterTurn({ store: fx.project.store, root: fx.root, sessionId: "N1", toolNames: [] });
    expect(r.notes.map((n) => n.content)).toEqual(["Bump the changelog for the release."]);
    expect(r.reminder).toBe("Reminder from earlier notes:\n- Bump the changelog for the release. (tag 1.2.0 reached (>= 1.2.0))");
    expect(await turn()).toEqual([]); // surfaced once
    await note("The package is already past 0.1.0.", "when version 0.1.0 is reached");
    expect(await turn()).toEqual(["The package is already past 0.1.0."]);
  });

  it("a branch merged, also after it was deleted, and a PR merge commit", async () => {
    await note("Re-check rounding once cents land.", "when branch feature/cents is merged");
    await note("Drop the old helper after the gone branch.", "when branch feature/gone is merged");
    await note("Update the docs for PR 42.", "When PR #42 is merged");
    for (const branch of ["feature/cents", "feature/gone"]) {
      git(fx.root, ["checkout", "--quiet", "-b", branch]);
      fs.writeFileSync(path.join(fx.root, `${path.basename(branch)}.txt`), branch);
      git(fx.root, ["add", "--all"]);
      git(fx.root, ["commit", "--quiet", "-m", `work on ${branch}`], { author: "Bob", at: fx.now });
      git(fx.root, ["checkout", "--quiet", "main"]);
    }
    expect(await turn()).toEqual([]);
    git(fx.root, ["merge", "--quiet", "--no-ff", "-m", "Merge branch 'feature/cents'", "feature/cents"], { author: "Bob", at: fx.now });
    expect(await turn()).toEqual(["Re-check rounding once cents land."]);
    git(fx.root, ["merge", "--quiet", "--no-ff", "-m", "Merge branch 'feature/gone'", "feature/gone"], { author: "Bob", at: fx.now });
    git(fx.root, ["branch", "--quiet", "-d", "feature/gone"]);
    git(fx.root, ["commit", "--quiet", "--allow-empty", "-m", "Merge pull request #42 from acme/docs"], { author: "Bob", at: fx.now });
    expect((await turn()).sort()).toEqual(["Drop the old helper after the gone branch.", "Update the docs for PR 42."]);
  });

  it("a function or class appearing in the index", async () => {
    await note("Wire applyCoupon into checkout.", `when ${PRICE} contains a function named applyCoupon`);
    await note("Document the coupon book.", "when a class named CouponBook exists");
    expect(await turn()).toEqual([]);
    fs.appendFileSync(path.join(fx.root, PRICE), "export function applyCoupon(total: number): number {\n  return total - 1;\n}\n");
    fs.writeFileSync(path.join(fx.root, "src/pricing/coupons.ts"), "export class CouponBook {}\n");
    await fx.project.reindex();
    expect((await turn()).sort()).toEqual(["Document the coupon book.", "Wire applyCoupon into checkout."]);
  });

  it("a date passed; other conditions wait for the next session start", async () => {
    await note("The 2020 deadline has passed.", "after 2020-01-01");
    await note("Far future reminder, not yet.", "on 2999-12-31");
    await note("Ask how the vacation was.", "when the user is back from vacation");
    await note("Plain note for the next session.");
    expect(await turn()).toEqual(["The 2020 deadline has passed."]);
    const start = await sessionStartMemory({ store: fx.project.store, root: fx.root, sessionId: "N2", budgetTokens: 1000, estimateTokens: (t) => t.length / 4 });
    expect(start.notes.map((n) => n.content).sort()).toEqual(["Ask how the vacation was.", "Plain note for the next session."]);
    expect(start.text).toContain("- Ask how the vacation was. (shown at the next session start;");
    expect(start.text).not.toContain("Far future");
    expect(await turn()).toEqual([]);
  });
});
