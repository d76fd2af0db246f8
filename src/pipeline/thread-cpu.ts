// CPU time per thread of this process, read from /proc (Linux). The bench splits a run's CPU into the
// main thread, the index workers and everything else (V8's compiler and GC threads, libuv's pool):
// when every core is busy, that split is what says where a run's time goes. Elsewhere: null.
// Also another process's page faults: on virtual machines where a fault costs microseconds, the memory a
// run first touches is part of its time.
import fs from "node:fs";

/** USER_HZ: the unit of utime/stime in /proc/<pid>/task/<tid>/stat on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

/** Fields of /proc/…/stat after the command name (which may hold spaces; the fields after it are fixed). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * Minor page faults of process `pid` so far, when `pid` runs `command` here (a remote server's pid
 * names some other process, or none); null otherwise or without /proc.
 */
export function minorFaultsOf(pid: number, command: string): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    if (!stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).startsWith(command)) return null;
    return Number(statFields(stat)[7]);
  } catch {
    return null;
  }
}

/** tid → CPU seconds (user + system) so far; null without /proc. */
export function readThreadCpu(): Map<number, number> | null {
  let tids: string[];
  try {
    tids = fs.readdirSync("/proc/self/task");
  } catch {
    return null;
  }
  const out = new Map<number, number>();
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = statFields(stat);
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

export interface ThreadCpuSplit {
  main: number;
  workers: number;
  /** Every other thread: V8's compiler and GC helpers, libuv's pool. */
  background: number;
}

/** CPU seconds spent between two readings, by kind of thread. */
export function splitThreadCpu(before: Map<number, number> | null, after: Map<number, number> | null, workerTids: ReadonlySet<number>): ThreadCpuSplit | null {
  if (!before || !after) return null;
  const split: ThreadCpuSplit = { main: 0, workers: 0, background: 0 };
  for (const [tid, seconds] of after) {
    const spent = seconds - (before.get(tid) ?? 0);
    if (tid === process.pid) split.main += spent;
    else if (workerTids.has(tid)) split.workers += spent;
    else split.background += spent;
  }
  return split;
}
