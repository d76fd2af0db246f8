// Named limits that end a runaway turn (STYLE 8).

/** The same tool with the same arguments this many times in a row is a doom loop. */
export const DOOM_LOOP_THRESHOLD = 3;

/** Stable key of a call for the doom-loop check: name plus arguments with sorted keys. */
export function callKey(name: string, args: Record<string, unknown>): string {
  const sorted = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
      : Array.isArray(v)
        ? v.map(sorted)
        : v;
  return `${name}:${JSON.stringify(sorted(args))}`;
}

export class DoomLoopDetector {
  private last = "";
  private repeats = 0;

  /** Records a call; true when it is the DOOM_LOOP_THRESHOLD-th identical call in a row. */
  record(name: string, args: Record<string, unknown>): boolean {
    const key = callKey(name, args);
    this.repeats = key === this.last ? this.repeats + 1 : 1;
    this.last = key;
    return this.repeats >= DOOM_LOOP_THRESHOLD;
  }
}
