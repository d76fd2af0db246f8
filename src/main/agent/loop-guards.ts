// Named limits that end a runaway turn (STYLE 8).
import type { ParsedItem, ToolCallParseError } from "../llm/tool-call-parser.js";

/** The same tool with the same arguments this many times in a row is a doom loop. */
export const DOOM_LOOP_THRESHOLD = 3;
/**
 * Two different calls taking turns (A B A B), each with the same arguments, this many times over is a doom
 * loop too. By the second pass both calls have been repeated once and nothing new can come back; the turn
 * still ends with an answer (the model is asked for one without tools), so stopping early costs little.
 */
export const ALTERNATION_CYCLES = 2;

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

/**
 * Key of a call that could not be read (or names no tool): the same broken text again is the same call.
 * Whitespace is not what makes two attempts different.
 */
export function failedCallKey(error: ToolCallParseError): string {
  return `!${error.kind}:${error.name ?? ""}:${error.raw.replace(/\s+/g, " ").trim()}`;
}

function itemKey(item: ParsedItem): string {
  return item.call ? callKey(item.call.name, item.call.arguments) : failedCallKey(item.error);
}

/** What the detector saw: one call repeated, or two calls taking turns. */
export type DoomLoop = { kind: "repeat"; item: ParsedItem } | { kind: "alternation"; items: [ParsedItem, ParsedItem] };

export class DoomLoopDetector {
  /** The last calls of the turn, oldest first. */
  private recent: Array<{ key: string; item: ParsedItem }> = [];

  /**
   * Records a call, a failed one too (a model sending the same broken call again is as stuck as one
   * repeating a good one); returns the loop it completes, if any.
   */
  record(item: ParsedItem): DoomLoop | null {
    const key = itemKey(item);
    this.recent.push({ key, item });
    const keep = Math.max(DOOM_LOOP_THRESHOLD, 2 * ALTERNATION_CYCLES);
    if (this.recent.length > keep) this.recent.splice(0, this.recent.length - keep);
    const last = this.recent.slice(-DOOM_LOOP_THRESHOLD);
    if (last.length === DOOM_LOOP_THRESHOLD && last.every((c) => c.key === key)) return { kind: "repeat", item };
    const cycle = this.recent.slice(-2 * ALTERNATION_CYCLES);
    const [a, b] = cycle;
    if (cycle.length === 2 * ALTERNATION_CYCLES && a!.key !== b!.key && cycle.every((c, i) => c.key === (i % 2 === 0 ? a : b)!.key)) {
      return { kind: "alternation", items: [a!.item, b!.item] };
    }
    return null;
  }
}

/** The loop in words, for the user and the turn's outcome ("the model called get_lines with …"). */
export function describeLoop(loop: DoomLoop): string {
  if (loop.kind === "alternation") {
    const [a, b] = loop.items.map(callLabel);
    return `the model kept alternating between the same two calls (${a}, ${b}, ${a}, ${b}), with the same arguments each time`;
  }
  const { call, error } = loop.item;
  const times = `${DOOM_LOOP_THRESHOLD} times in a row`;
  if (call) return `the model called ${call.name} with the same arguments ${times}`;
  if (error.kind === "unknown-tool") return `the model called ${error.name}, a tool that does not exist, ${times}`;
  return `the model sent the same ${error.kind === "truncated" ? "incomplete" : "unreadable"} tool call${error.name ? ` to ${error.name}` : ""} ${times}`;
}

function callLabel(item: ParsedItem): string {
  if (item.call) return item.call.name;
  return item.error.kind === "unknown-tool" ? `${item.error.name} (no such tool)` : `a broken call${item.error.name ? ` to ${item.error.name}` : ""}`;
}
