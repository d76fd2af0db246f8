// The recorder the rest of ipuaro calls: where errors in command output point (tsc, stack traces, test
// reports), human_fix detection within the hour after an agent edit, and the watcher listener.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseErrorLocations, testFailureLocations } from "../../../src/main/shadow/error-locations.js";
import { changedLineCounts, createAnalyticsEvents, HUMAN_FIX_WINDOW_MS, MAX_EXTERNAL_BATCH, recordExternalChanges } from "../../../src/main/shadow/events-recorder.js";
import { readEvents } from "../../../src/main/shadow/events-store.js";
import { shadowScope, type ShadowScope } from "../../../src/main/shadow/shadow-scope.js";
import { ProjectStore } from "../../../src/main/store/project-store.js";
import { connectRedis, type Redis } from "../../../src/main/store/index.js";
import { useRedisServer } from "../../helpers/redis-server.js";

const ROOT = "/work/app";
const server = useRedisServer();
let redis: Redis;
let clock = 1_000_000_000_000;
let scope: ShadowScope;

beforeAll(async () => {
  redis = await connectRedis({ url: server().url });
  scope = shadowScope(new ProjectStore({ redis, project: "work-app" }), ROOT, { now: () => clock });
});
afterAll(() => redis?.disconnect());

describe("error locations", () => {
  it("reads tsc diagnostics in both formats, relative to the root, skipping dependencies", () => {
    const out = [
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "\u001b[96msrc/b.tsx\u001b[0m:\u001b[93m10\u001b[0m:\u001b[93m2\u001b[0m - \u001b[91merror\u001b[0m TS2304: Cannot find name 'x'.",
      "node_modules/lib/index.d.ts(1,1): error TS1005: ';' expected.",
      "/elsewhere/c.ts(1,1): error TS1005: ';' expected.",
      "Found 2 errors.",
    ].join("\n");
    expect(parseErrorLocations(ROOT, out)).toEqual([
      { file: "src/a.ts", line: 3, kind: "type_error", message: "TS2322: Type 'string' is not assignable to type 'number'." },
      { file: "src/b.tsx", line: 10, kind: "type_error", message: "TS2304: Cannot find name 'x'." },
    ]);
  });

  it("takes the first project frame of a stack trace as a runtime error's location", () => {
    const out = [
      "TypeError: cart.total is not a function",
      "    at Object.<anonymous> (/work/app/node_modules/x/index.js:1:1)",
      "    at checkout (/work/app/src/checkout.ts:12:9)",
      "    at file:///work/app/src/main.ts:3:1",
      "Error: boom without a frame",
    ].join("\n");
    expect(parseErrorLocations(ROOT, out)).toEqual([
      { file: "src/checkout.ts", line: 12, kind: "runtime_error", message: "TypeError: cart.total is not a function" },
      { file: null, line: null, kind: "runtime_error", message: "Error: boom without a frame" },
    ]);
  });

  it("turns run_tests failures into test_failure locations", () => {
    expect(testFailureLocations(ROOT, [{ name: "cart > total", file: "/work/app/tests/cart.test.ts", line: 7, message: "expected 1 to be 2" }])).toEqual([
      { file: "tests/cart.test.ts", line: 7, kind: "test_failure", message: "cart > total: expected 1 to be 2" },
    ]);
  });

  it("counts added and removed lines around common head and tail", () => {
    expect(changedLineCounts(["a", "b", "c"], ["a", "x", "y", "c"])).toEqual({ added: 2, removed: 1 });
    expect(changedLineCounts(null, ["a", "b"])).toEqual({ added: 2, removed: 0 });
    expect(changedLineCounts(["a"], null)).toEqual({ added: 0, removed: 1 });
  });
});

describe("recording", () => {
  it("marks a human edit within the hour after an agent edit as a human_fix", async () => {
    const events = createAnalyticsEvents(scope, { onError: (e) => { throw e; } });
    await events.editApplied({ sessionId: "S1", file: "src/a.ts", before: ["x"], after: ["y", "z"], tool: "edit_lines" });
    clock += HUMAN_FIX_WINDOW_MS - 1000;
    expect(await events.externalChange({ file: "src/a.ts", change: "updated" })).toEqual({ humanFix: true });
    expect(await events.externalChange({ file: "src/other.ts", change: "updated" })).toEqual({ humanFix: false });
    clock += 2 * HUMAN_FIX_WINDOW_MS;
    expect(await events.externalChange({ file: "src/a.ts", change: "updated" })).toEqual({ humanFix: false });
    const stored = (await readEvents(scope)).filter((e) => e.type === "external");
    expect(stored.map((e) => e.type === "external" && [e.file, e.humanFix, e.fixedSession ?? null])).toEqual([
      ["src/a.ts", true, "S1"],
      ["src/other.ts", false, null],
      ["src/a.ts", false, null],
    ]);
    const edit = (await readEvents(scope)).find((e) => e.type === "edit");
    expect(edit).toMatchObject({ session: "S1", file: "src/a.ts", added: 2, removed: 1, tool: "edit_lines" });
  });

  it("records one error per location of a failed command, or the command itself when none is found", async () => {
    const events = createAnalyticsEvents(scope);
    clock += 1000;
    expect(await events.commandFailed({ sessionId: "S2", source: "run_command", command: "npx tsc", output: "src/a.ts(1,1): error TS1005: ';' expected.\nsrc/b.ts(2,2): error TS1005: ';' expected.\n" })).toBe(2);
    clock += 1000;
    expect(await events.commandFailed({ sessionId: "S2", source: "run_command", command: "make", output: "make: *** [all] Error 2\n" })).toBe(1);
    const errors = (await readEvents(scope, clock - 1500)).filter((e) => e.type === "error");
    expect(errors.map((e) => e.type === "error" && [e.file, e.kind])).toEqual(expect.arrayContaining([["src/a.ts", "type_error"], ["src/b.ts", "type_error"], [null, "command_failure"]]));
    expect(errors.find((e) => e.type === "error" && e.file === null)).toMatchObject({ message: "make: make: *** [all] Error 2" });
  });

  it("records the watcher's external changes at the end of each batch, not ipuaro's own, not checkouts", async () => {
    const seen: string[] = [];
    const listener = recordExternalChanges({ externalChange: async (c) => (seen.push(`${c.change} ${c.file}`), { humanFix: false }) });
    const base = { hash: null, previousHash: null, ms: 1, latencyMs: 1 };
    const batch = { type: "batch", files: 2, checked: 2, parsed: 2, removed: 0, graphRebuilt: false, ms: 3 } as never;
    listener({ type: "updated", path: "src/a.ts", origin: "external", ...base });
    listener({ type: "updated", path: "src/b.ts", origin: "ipuaro", ...base });
    listener({ type: "deleted", path: "src/c.ts", origin: "external", ...base });
    expect(seen).toEqual([]);
    listener(batch);
    expect(seen).toEqual(["updated src/a.ts", "deleted src/c.ts"]);
    for (let i = 0; i <= MAX_EXTERNAL_BATCH; i++) listener({ type: "updated", path: `src/f${i}.ts`, origin: "external", ...base });
    listener(batch);
    expect(seen).toHaveLength(2); // 31 files at once: a checkout or a formatter, not a person editing
  });

  it("never throws into the caller when Redis fails; onError hears about it", async () => {
    const broken = shadowScope(new ProjectStore({ redis, project: "work-app" }), ROOT);
    const failures: unknown[] = [];
    const events = createAnalyticsEvents({ ...broken, keys: { ...broken.keys, events: broken.keys.version } }, { onError: (e) => failures.push(e) });
    await redis.set(broken.keys.version, "1");
    await expect(events.editApplied({ sessionId: null, file: "a.ts", before: null, after: ["x"], tool: "create_file" })).resolves.toBeUndefined();
    expect(failures).toHaveLength(1);
  });
});
