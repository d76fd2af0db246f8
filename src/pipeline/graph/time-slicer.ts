// Long loops on the main thread give the event loop a turn every few milliseconds, so the UI keeps
// drawing and Redis replies keep flowing while a 10K-file graph is built.
const SLICE_MS = 8;

export class TimeSlicer {
  private start = performance.now();

  /**
   * Whether the slice is used up. Hot loops write `if (slicer.due()) await slicer.yield()`: an `await`
   * per item, even of nothing, costs a microtask turn each (11K of them at the end of a cold index).
   */
  due(): boolean {
    return performance.now() - this.start >= SLICE_MS;
  }

  async yield(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    this.start = performance.now();
  }

  async maybeYield(): Promise<void> {
    if (this.due()) await this.yield();
  }
}
