// Redraws are coalesced: a burst of requests (a streamed answer) is one frame, and frames are at least
// 1000/30 ms apart; flush() draws at once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_FPS, RenderScheduler } from "../../src/ui/render-scheduler.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("RenderScheduler", () => {
  it("draws a burst of requests once, then waits a frame interval before the next", () => {
    let draws = 0;
    const s = new RenderScheduler(() => draws++, MAX_FPS, () => Date.now());
    for (let i = 0; i < 100; i++) s.request();
    expect(draws).toBe(0);
    vi.advanceTimersByTime(0);
    expect(draws).toBe(1);
    for (let i = 0; i < 100; i++) s.request();
    vi.advanceTimersByTime(10);
    expect(draws).toBe(1);
    vi.advanceTimersByTime(1000 / MAX_FPS);
    expect(draws).toBe(2);
    s.request();
    s.flush();
    expect(draws).toBe(3);
    vi.advanceTimersByTime(1000);
    expect(draws).toBe(3);
    s.dispose();
    s.request();
    vi.advanceTimersByTime(1000);
    expect(draws).toBe(3);
  });
});
