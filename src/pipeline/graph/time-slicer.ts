// Long loops on the main thread give the event loop a turn every few milliseconds, so the UI keeps
// drawing and Redis replies keep flowing while a 10K-file graph is built.
const SLICE_MS = 8;

export class TimeSlicer {
  private start = performance.now();
  async maybeYield(): Promise<void> {
    if (performance.now() - this.start < SLICE_MS) return;
    await new Promise<void>((r) => setImmediate(r));
    this.start = performance.now();
  }
}
