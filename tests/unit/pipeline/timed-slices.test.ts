// Slices sized by time: every item applied once, in order, the last slice flagged, sizes following the
// clock within their bounds, and the event loop turned between slices (never before the first).
import { describe, expect, it } from "vitest";
import { applyInTimedSlices } from "../../../src/pipeline/watch/timed-slices.js";

/** A clock that advances `msPerItem` for each item applied. */
function fakeClock(msPerItem: (item: number) => number) {
  let t = 0;
  return {
    now: () => t,
    spend: (slice: number[]) => {
      for (const item of slice) t += msPerItem(item);
    },
  };
}

async function run(items: number[], msPerItem: (item: number) => number, firstSize?: number) {
  const clock = fakeClock(msPerItem);
  const slices: number[][] = [];
  const lasts: boolean[] = [];
  let turns = 0;
  await applyInTimedSlices(
    items,
    (slice, last) => {
      clock.spend(slice);
      slices.push(slice);
      lasts.push(last);
    },
    { maxSize: 150, minSize: 10, targetMs: 20, ...(firstSize ? { firstSize } : {}), now: clock.now, turn: async () => void turns++ },
  );
  return { slices, lasts, turns };
}

describe("applyInTimedSlices", () => {
  it("applies every item once and in order while the slices shrink and grow with their cost", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    // Items 0–299 cost 1 ms each, the rest 0.05 ms.
    const { slices, lasts, turns } = await run(items, (i) => (i < 300 ? 1 : 0.05));
    expect(slices.flat()).toEqual(items);
    expect(slices[0]).toHaveLength(150);
    expect(slices[1]).toHaveLength(20); // 150 items took 150 ms: 20 ms' worth next
    expect(Math.max(...slices.map((s) => s.length))).toBe(150);
    expect(Math.min(...slices.slice(0, -1).map((s) => s.length))).toBeGreaterThanOrEqual(10);
    expect(slices.at(-2)).toHaveLength(150); // cheap again: back to the most
    expect(lasts.filter(Boolean)).toHaveLength(1);
    expect(lasts.at(-1)).toBe(true);
    expect(turns).toBe(slices.length - 1);
  });

  it("never goes below the smallest slice however slow an item is", async () => {
    const { slices } = await run(Array.from({ length: 100 }, (_, i) => i), () => 500);
    expect(slices.map((s) => s.length)).toEqual([100]);
    const slow = await run(Array.from({ length: 400 }, (_, i) => i), () => 500);
    expect(slow.slices.map((s) => s.length)).toEqual([150, ...Array(25).fill(10)]);
  });

  it("starts with a probe of firstSize items when asked, then sizes by its cost", async () => {
    // Expensive items first: 150 of them at once would have taken 300 ms.
    const { slices } = await run(Array.from({ length: 400 }, (_, i) => i), (i) => (i < 200 ? 2 : 0.1), 10);
    expect(slices[0]).toHaveLength(10);
    expect(slices[1]).toHaveLength(10); // 10 items took 20 ms: the target
    expect(Math.max(...slices.map((s) => s.length))).toBe(150); // cheap ones later: back to the most
    expect(slices.flat()).toEqual(Array.from({ length: 400 }, (_, i) => i));
  });

  it("applies an empty list once, as its last slice", async () => {
    const { slices, lasts, turns } = await run([], () => 1);
    expect(slices).toEqual([[]]);
    expect(lasts).toEqual([true]);
    expect(turns).toBe(0);
  });
});
