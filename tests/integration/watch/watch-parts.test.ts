// The live index's pure parts: event folding, own-write matching, parcel's ignore list, the write
// queue's replay, and the scheduler's batching. No watcher or Redis needed here.
import { describe, expect, it } from "vitest";
import { OwnWrites } from "../../../src/main/indexing/own-writes.js";
import { BatchScheduler } from "../../../src/pipeline/watch/batch-scheduler.js";
import { EventCoalescer, mergeChange, type PendingChange } from "../../../src/pipeline/watch/event-coalescer.js";
import { filePathKeys, fileKeys, pathsThroughLinks, specifierKey } from "../../../src/pipeline/watch/import-keys.js";
import { parcelIgnoreList } from "../../../src/pipeline/watch/parcel-source.js";
import { WriteQueue } from "../../../src/pipeline/watch/write-queue.js";
import { waitFor } from "./watch-harness.js";

describe("EventCoalescer", () => {
  it.each([
    ["create", "delete", "delete"],
    ["create", "update", "create"],
    ["delete", "create", "update"],
    ["update", "delete", "delete"],
    ["delete", "delete", "delete"],
    ["update", "update", "update"],
  ] as const)("%s then %s → %s", (a, b, out) => {
    expect(mergeChange(a, b)).toBe(out);
  });

  it("folds a window per path, keeps the first event's time, and restores a failed batch under newer events", () => {
    const c = new EventCoalescer();
    c.add([{ path: "a.ts", type: "create" }], 1);
    c.add([{ path: "a.ts", type: "update" }, { path: "tmp.ts", type: "create" }], 2);
    c.add([{ path: "tmp.ts", type: "delete" }], 3);
    const batch = c.take();
    // A "create" may be a file replaced by a rename, so what follows it is kept: tmp.ts is deleted.
    expect([...batch]).toEqual([
      ["a.ts", { kind: "create", since: 1 }],
      ["tmp.ts", { kind: "delete", since: 2 }],
    ]);
    c.add([{ path: "a.ts", type: "delete" }], 5);
    c.restore(batch);
    expect([...c.take()]).toEqual([
      ["a.ts", { kind: "delete", since: 1 }],
      ["tmp.ts", { kind: "delete", since: 2 }],
    ]);
  });
});

describe("OwnWrites", () => {
  it("matches the registered hash once, within the TTL, and normalises paths", () => {
    let now = 0;
    const own = new OwnWrites({ ttlMs: 100, now: () => now });
    own.register("./src/a.ts", "00000000000000aa");
    expect(own.claim("src/a.ts", "00000000000000bb")).toBe(false);
    expect(own.claim("src/a.ts", "00000000000000aa")).toBe(true);
    expect(own.claim("src/a.ts", "00000000000000aa")).toBe(false);
    own.register("src/b.ts", null);
    now = 150;
    expect(own.claim("src/b.ts", null)).toBe(false);
    expect(own.size).toBe(0);
  });

  it("takes a symlink's index hash (link:TARGET), as a rewind that makes a link again registers it", () => {
    const own = new OwnWrites();
    own.register("src/current.ts", "link:money.ts");
    expect(own.claim("src/current.ts", "link:other.ts")).toBe(false);
    expect(own.claim("src/current.ts", "link:money.ts")).toBe(true);
  });

  it("a later registration of the same path wins and consumes older ones", () => {
    const own = new OwnWrites();
    own.register("a.ts", "0000000000000001");
    own.register("a.ts", "0000000000000002");
    expect(own.claim("a.ts", "0000000000000002")).toBe(true);
    expect(own.size).toBe(0);
  });

  it("rejects paths outside the root and malformed hashes", () => {
    const own = new OwnWrites();
    expect(() => own.register("/etc/passwd", null)).toThrow(/relative to the project root/);
    expect(() => own.register("../x.ts", null)).toThrow(/relative to the project root/);
    expect(() => own.register("a.ts", "nothex")).toThrow(/xxHash64/);
  });
});

describe("parcelIgnoreList", () => {
  it("mirrors plain names anywhere, anchors paths, and drops wildcards when a negation exists", () => {
    const list = parcelIgnoreList("/p", ["node_modules", "dist/", "/build", "src/gen", "*.min.js", "# comment", ""]);
    expect(list).toEqual(expect.arrayContaining(["**/node_modules", "**/.git", "**/dist", "/p/build", "/p/src/gen", "**/*.min.js"]));
    const negated = parcelIgnoreList("/p", ["*.log", "!keep.log", "coverage", "!coverage"]);
    expect(negated).not.toContain("**/*.log");
    expect(negated).not.toContain("**/coverage");
  });
});

describe("import keys", () => {
  it("a specifier's key equals a key of every file it can resolve to", () => {
    // Relative specifiers name a path: only files at that path (any extension, or its index) share the key.
    expect(specifierKey("src/a/b.ts", "./money.js")).toBe("src/a/money");
    expect(filePathKeys("src/a/money.ts")).toContain("src/a/money");
    expect(filePathKeys("src/other/money.ts")).not.toContain("src/a/money");
    expect(specifierKey("src/a/b.ts", "../utils")).toBe("src/utils");
    expect(filePathKeys("src/utils/index.ts")).toEqual(["src/utils/index", "src/utils"]);
    expect(specifierKey("src/a/b.ts", "..")).toBe("src");
    expect(specifierKey("src/a.ts", "../../outside")).toBeNull();
    // Bare ones name a last segment, as an alias or baseUrl can put it anywhere.
    expect(specifierKey("src/a/b.ts", "@core/utils/strings")).toBe("strings");
    expect(fileKeys("packages/core/src/utils/strings.d.ts")).toEqual(["strings"]);
    // What a declaration file's `./index.cjs` resolves to.
    expect(specifierKey("v4/index.d.cts", "./classic/index.cjs")).toBe("v4/classic/index");
    expect(filePathKeys("v4/classic/index.d.cts")).toEqual(["v4/classic/index", "v4/classic"]);
    expect(fileKeys("v4/classic/index.d.cts")).toEqual(["index", "classic"]);
    expect(fileKeys("v4/types.d.mts")).toEqual(["types"]);
    expect(specifierKey("src/a.ts", "node:fs")).toBeNull();
  });

  it("a file is also reached by the paths of the folder links that lead to it, chains included", () => {
    const links = new Map<string, string | null>([
      ["src/shared", "packages/core/src"],
      ["packages/core", "libs/core"],
      ["gone", null],
      ["loop/sub", "loop"],
    ]);
    expect(pathsThroughLinks("libs/core/src/money.ts", links).sort()).toEqual(["libs/core/src/money.ts", "packages/core/src/money.ts", "src/shared/money.ts"]);
    expect(pathsThroughLinks("src/a.ts", links)).toEqual(["src/a.ts"]);
    // A link into its own folder reaches the file by ever longer paths: as many as the resolver follows.
    expect(pathsThroughLinks("loop/x.ts", links)).toHaveLength(9);
  });
});

describe("WriteQueue", () => {
  it("applies writes in order; after a failure keeps the rest queued and replays from the failed one", async () => {
    const q = new WriteQueue();
    const done: string[] = [];
    let down = true;
    const op = (label: string) => ({
      label,
      run: async () => {
        if (label === "b" && down) throw new Error("redis down");
        done.push(label);
      },
    });
    q.push(op("a"));
    q.push(op("b"));
    q.push(op("c"));
    await expect(q.flush()).rejects.toThrow("redis down");
    q.push(op("d")); // waits behind the failed write
    expect(done).toEqual(["a"]);
    expect(q.pending).toBe(3);
    down = false;
    await q.flush();
    expect(done).toEqual(["a", "b", "c", "d"]);
    expect(q.pending).toBe(0);
  });
});

describe("BatchScheduler", () => {
  it("coalesces a burst into one batch, never overlaps batches, and retries a failed one", async () => {
    const batches: string[][] = [];
    let running = 0;
    let maxRunning = 0;
    let failNext = true;
    const errors: unknown[] = [];
    const s = new BatchScheduler({
      debounceMs: 30,
      run: async (changes: Map<string, PendingChange>) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 40));
        running--;
        if (failNext) {
          failNext = false;
          throw new Error("boom");
        }
        batches.push([...changes.keys()].sort());
        return {};
      },
      onRetry: (err) => errors.push(err),
    });
    s.resume();
    for (let i = 0; i < 50; i++) s.push([{ path: `f${i}.ts`, type: "update" }]);
    await waitFor("the failed batch", () => errors.length === 1);
    s.push([{ path: "late.ts", type: "create" }]); // arrives while the retry waits
    await waitFor("a successful batch", () => batches.length >= 1, 5000);
    await s.idle();
    expect(batches.flat().sort()).toEqual([...Array.from({ length: 50 }, (_, i) => `f${i}.ts`), "late.ts"].sort());
    expect(batches.length).toBeLessThanOrEqual(2);
    expect(maxRunning).toBe(1);
    await s.stop();
  });

  it("counts the running batch's paths in the backlog and says which they are, until the batch ends", async () => {
    let finish: () => void = () => {};
    const s = new BatchScheduler({
      debounceMs: 10,
      run: () => new Promise((resolve) => (finish = () => resolve({}))),
      onRetry: () => {},
    });
    s.resume();
    s.push([{ path: "big.ts", type: "create" }, { path: "a.ts", type: "update" }]);
    await waitFor("the batch to start", () => s.isRunning("big.ts"));
    s.push([{ path: "b.ts", type: "update" }]);
    expect(s.backlog).toBe(3);
    expect([s.isRunning("a.ts"), s.isRunning("b.ts")]).toEqual([true, false]);
    finish();
    await waitFor("the next batch", () => s.isRunning("b.ts"));
    expect([s.isRunning("big.ts"), s.backlog]).toEqual([false, 1]);
    finish();
    await s.idle();
    expect(s.backlog).toBe(0);
    await s.stop();
  });
});
