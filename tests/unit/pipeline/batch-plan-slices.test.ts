// Planning a batch looks at every path on disk: for a restored package (thousands of events) or a
// reconciliation (the whole index), the event loop turns between slices, and the plan is the same.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IgnoreRules } from "../../../src/pipeline/ignore-rules.js";
import { planBatch } from "../../../src/pipeline/watch/batch-plan.js";
import type { PendingChange } from "../../../src/pipeline/watch/event-coalescer.js";
import type { KnownFileState } from "../../../src/workers/protocol.js";
import { turnsDuring } from "../../helpers/event-loop-turns.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const PATHS = 20_000;
let root: string;

beforeAll(() => {
  root = makeTempDir("ipuaro-plan-");
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src/kept.ts"), "export const kept = 1;\n");
});
afterAll(() => removeDir(root));

const gonePaths = Array.from({ length: PATHS }, (_, i) => `packages/web/src/page-${i}.tsx`);
const stat = (): KnownFileState => ({ size: 10, mtimeMs: 1, hash: "h" });

describe("planning a large batch", () => {
  it("takes thousands of events with the event loop turning, and plans every one", async () => {
    const known = new Map(gonePaths.map((p) => [p, stat()]));
    const changes = new Map<string, PendingChange>(gonePaths.map((p) => [p, { kind: "delete", since: 0 }]));
    const { result: plan, turns } = await turnsDuring(() => planBatch({ root, rules: new IgnoreRules(root, []), binaryExtensions: new Set(), known }, changes));
    expect(turns).toBeGreaterThan(1);
    expect(plan.check.size).toBe(PATHS); // indexed and gone: a read confirms each
    expect(plan.somethingGone).toBe(true);
  });

  it("reconciles the whole index with the event loop turning, finding what is gone and what is new", async () => {
    const known = new Map(gonePaths.map((p) => [p, stat()]));
    const { result: plan, turns } = await turnsDuring(() => planBatch({ root, rules: new IgnoreRules(root, []), binaryExtensions: new Set(), known, reconcile: true }, new Map()));
    expect(turns).toBeGreaterThan(1);
    expect(plan.check.size).toBe(PATHS);
    expect([...plan.sweep]).toEqual(["src/kept.ts"]);
  });
});
