// What first touching a page of memory costs on this machine. On bare metal a minor fault is a fraction
// of a microsecond; on some virtual machines (the host backs guest memory lazily and takes freed pages
// back) it is 10+ µs, and a run that touches more memory than its baseline pays for it in the ratio.
const PAGE = 4096;

/** Microseconds per 4 KiB page first written, less the cost of writing it again (median of three). */
export function pageFaultMicros(megabytes = 128): number {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    // Past glibc's largest mmap threshold (32 MB), so each allocation is fresh pages from the kernel.
    const t0 = performance.now();
    const buf = Buffer.alloc(megabytes * 1024 * 1024, 1);
    const first = performance.now() - t0;
    const t1 = performance.now();
    buf.fill(2);
    const again = performance.now() - t1;
    samples.push(((first - again) * 1000) / (buf.length / PAGE));
  }
  samples.sort((a, b) => a - b);
  return Math.round(Math.max(0, samples[1] as number) * 100) / 100;
}
