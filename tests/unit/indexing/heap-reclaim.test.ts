// reclaimHeap collects the heap though node was started without --expose-gc.
import { expect, it } from "vitest";
import { reclaimHeap } from "../../../src/main/indexing/heap-reclaim.js";

it("frees the garbage of a large batch at once", () => {
  let garbage: string[][] | null = Array.from({ length: 200 }, (_, i) => Array.from({ length: 2000 }, (_, j) => `${i}:${j}:${"x".repeat(40)}`));
  expect(garbage.length).toBe(200);
  const full = process.memoryUsage().heapUsed;
  garbage = null;
  reclaimHeap();
  // ~30 MB of strings and arrays: most of it is gone after the collection.
  expect(full - process.memoryUsage().heapUsed).toBeGreaterThan(15 * 1024 * 1024);
});
