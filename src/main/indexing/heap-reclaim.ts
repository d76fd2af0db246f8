// A full garbage collection of the main thread's heap, once a large index change has settled. V8 runs
// one when it must, not when the process goes quiet: after a restored package or a branch switch the
// UI kept 200–300 MB of the batch's garbage for as long as nothing else allocated (measured: heap used
// 390 MB → 78 MB, the collection ~50 ms). node offers gc() only behind --expose-gc, a flag the `ipuaro`
// binary cannot pass itself; V8 accepts it at run time, after which a new context has the function.
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    if (typeof globalThis.gc === "function") collect = globalThis.gc;
    else {
      v8.setFlagsFromString("--expose-gc");
      const gc: unknown = vm.runInNewContext("gc");
      collect = typeof gc === "function" ? (gc as () => void) : null;
    }
  } catch {
    collect = null;
  }
  return collect;
}

/** Collects the heap now (a pause of tens of ms); does nothing where that is not possible. */
export function reclaimHeap(): void {
  collector()?.();
}
