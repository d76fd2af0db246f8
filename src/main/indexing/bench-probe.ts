// Measures what `ipuaro index --bench` reports about the process itself while a run is in flight:
// main-thread event-loop delay (the UI's responsiveness) and peak RSS (worker threads included).
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

export class BenchProbe {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  start(): void {
    this.histogram.enable();
  }

  stop(): { peakRssMb: number; eventLoopDelayMs: { p50: number; p99: number; max: number } } {
    this.histogram.disable();
    // The kernel keeps the process's peak (ru_maxrss, KiB): exact, where sampling could miss a spike.
    const peakRss = process.resourceUsage().maxRSS * 1024;
    const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
    return {
      peakRssMb: Math.round(peakRss / 1024 / 1024),
      eventLoopDelayMs: { p50: ms(this.histogram.percentile(50)), p99: ms(this.histogram.percentile(99)), max: ms(this.histogram.max) },
    };
  }
}
