// Measures what `ipuaro index --bench` reports about the process itself while a run is in flight:
// main-thread event-loop delay (the UI's responsiveness) and peak RSS (worker threads included).
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

const RSS_SAMPLE_MS = 50;

export class BenchProbe {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private peakRss = process.memoryUsage.rss();
  private timer: NodeJS.Timeout | null = null;

  start(): void {
    this.histogram.enable();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
    this.timer.unref();
  }

  private sample(): void {
    this.peakRss = Math.max(this.peakRss, process.memoryUsage.rss());
  }

  stop(): { peakRssMb: number; eventLoopDelayMs: { p50: number; p99: number; max: number } } {
    this.sample();
    this.histogram.disable();
    if (this.timer) clearInterval(this.timer);
    const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
    return {
      peakRssMb: Math.round(this.peakRss / 1024 / 1024),
      eventLoopDelayMs: { p50: ms(this.histogram.percentile(50)), p99: ms(this.histogram.percentile(99)), max: ms(this.histogram.max) },
    };
  }
}
