// The bench's CPU split by thread: this process's threads from /proc, told apart as main, workers and
// everything else.
import { describe, expect, it } from "vitest";
import { minorFaultsOf, readThreadCpu, splitThreadCpu } from "../../../src/pipeline/thread-cpu.js";

describe("thread CPU", () => {
  it("reads this process's threads, the main one included, and sees CPU spent", () => {
    const before = readThreadCpu();
    expect(before?.has(process.pid)).toBe(true);
    const until = performance.now() + 60;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const after = readThreadCpu();
    expect(x).toBeGreaterThan(0);
    expect(after!.get(process.pid)! - before!.get(process.pid)!).toBeGreaterThan(0);
  });

  it("splits the CPU spent between two readings into main, workers and background", () => {
    const before = new Map([
      [process.pid, 1],
      [11, 2],
      [12, 0.5],
    ]);
    const after = new Map([
      [process.pid, 1.5],
      [11, 5],
      [12, 0.75],
      [13, 0.25], // started after the first reading
    ]);
    expect(splitThreadCpu(before, after, new Set([11]))).toEqual({ main: 0.5, workers: 3, background: 0.5 });
    expect(splitThreadCpu(null, after, new Set())).toBeNull();
  });

  it("reads a process's minor page faults only when it runs the named command", () => {
    const before = minorFaultsOf(process.pid, "node");
    // Memory first written faults its pages in (64 MB: past glibc's mmap threshold, so never reused pages).
    const touched = Buffer.alloc(64 * 1024 * 1024, 1);
    const after = minorFaultsOf(process.pid, "node");
    expect(touched[touched.length - 1]).toBe(1);
    expect(after! - before!).toBeGreaterThan(100);
    // A remote server's pid can name some unrelated process here: not read as the server's.
    expect(minorFaultsOf(process.pid, "redis-server")).toBeNull();
    expect(minorFaultsOf(2 ** 22 + 1, "node")).toBeNull();
  });
});
