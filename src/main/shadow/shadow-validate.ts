// Argument checks of the shadow tools. The tools' zod schemas accept any value so that every bad
// argument gets the seed's own error code (SHADOW_ERR_INVALID_LIMIT, …) rather than a generic one.
import path from "node:path";
import { ShadowError, type ShadowErrorCode } from "./shadow-errors.js";

export const TIMEFRAMES = ["7d", "30d", "90d", "all"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const DAY_MS = 24 * 3600 * 1000;

export const MIN_LIMIT = 1;
export const MAX_LIMIT = 100;
export const MIN_DEPTH = 1;
export const MAX_DEPTH = 3;

/** Start of the window (ms); "all" starts at 0. */
export function windowStart(timeframe: Timeframe, now: number): number {
  return timeframe === "all" ? 0 : now - Number(timeframe.slice(0, -1)) * DAY_MS;
}

export function windowDays(timeframe: Timeframe): number | null {
  return timeframe === "all" ? null : Number(timeframe.slice(0, -1));
}

function described(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : `${JSON.stringify(value) ?? String(value)} (${typeof value})`;
}

export function parseTimeframe(value: unknown, fallback: Timeframe): Timeframe {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string" && (TIMEFRAMES as readonly string[]).includes(value.trim())) return value.trim() as Timeframe;
  throw new ShadowError("SHADOW_ERR_INVALID_TIMEFRAME", `timeframe ${described(value)} is not one of ${TIMEFRAMES.join(", ")}.`, { timeframe: value, allowed: TIMEFRAMES });
}

function boundedInteger(value: unknown, fallback: number, min: number, max: number, name: string, code: ShadowErrorCode): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw new ShadowError(code, `${name} must be a whole number from ${min} to ${max}; got ${described(value)}.`, { [name]: value, min, max });
  }
  return n;
}

export function parseLimit(value: unknown, fallback: number): number {
  return boundedInteger(value, fallback, MIN_LIMIT, MAX_LIMIT, "limit", "SHADOW_ERR_INVALID_LIMIT");
}

export function parseDepth(value: unknown, fallback = 1): number {
  return boundedInteger(value, fallback, MIN_DEPTH, MAX_DEPTH, "depth", "SHADOW_ERR_INVALID_DEPTH");
}

/** One value of a fixed list, or the given error code. */
export function parseChoice<T extends string>(value: unknown, allowed: readonly T[], name: string, code: ShadowErrorCode): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value.trim())) return value.trim() as T;
  throw new ShadowError(code, `${name} ${value === undefined ? "is missing" : described(value)}; use one of ${allowed.join(", ")}.`, { [name]: value ?? null, allowed });
}

/** An optional list whose items must come from `allowed`; null when not given. */
export function parseChoiceList<T extends string>(value: unknown, allowed: readonly T[], name: string, code: ShadowErrorCode): T[] | null {
  if (value === undefined || value === null) return null;
  let list = value;
  if (typeof list === "string") list = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(list)) throw new ShadowError(code, `${name} must be a list of ${allowed.join(", ")}; got ${described(value)}.`, { [name]: value, allowed });
  const bad = list.filter((v) => typeof v !== "string" || !(allowed as readonly string[]).includes(v));
  if (bad.length) throw new ShadowError(code, `${name} has unknown value${bad.length > 1 ? "s" : ""} ${bad.map(described).join(", ")}; allowed: ${allowed.join(", ")}.`, { invalid: bad, allowed });
  return [...new Set(list as T[])];
}

/** A string argument, trimmed; undefined when absent or blank. */
export function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ShadowError("SHADOW_ERR_INVALID_QUERY", `${name} must be text; got ${described(value)}.`, { [name]: value });
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A list of strings (tags, alternatives, files): at most `max` items of at most `maxChars` each. */
export function stringList(value: unknown, name: string, max: number, maxChars = 500): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
    throw new ShadowError("SHADOW_ERR_INVALID_QUERY", `${name} must be a list of strings; got ${described(value)}.`, { [name]: value });
  }
  const items = (list as string[]).map((s) => s.trim()).filter(Boolean);
  if (items.length > max) throw new ShadowError("SHADOW_ERR_INVALID_LIMIT", `${name} may have at most ${max} items; got ${items.length}.`, { count: items.length, max });
  const long = items.find((s) => s.length > maxChars);
  if (long) throw new ShadowError("SHADOW_ERR_CONTENT_TOO_LONG", `an item of ${name} is longer than ${maxChars} characters.`, { length: long.length, max: maxChars });
  return [...new Set(items)];
}

/**
 * A project path given by the model or the user, as the project-relative `/` path the history uses.
 * Absolute paths must lie under the root; `..` escapes and NUL are refused. Nothing is required to
 * exist: deleted files keep their history.
 */
export function projectRelative(root: string, input: string): string {
  if (input.includes("\0")) throw new ShadowError("SHADOW_ERR_INVALID_QUERY", "the path contains a NUL character.", { target: input });
  const abs = path.resolve(root, input.trim());
  const rel = path.relative(path.resolve(root), abs).split(path.sep).join("/");
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new ShadowError("SHADOW_ERR_PATH_OUTSIDE_ROOT", `${input} is outside the project root; give a path relative to the root.`, { target: input });
  }
  return rel === "" ? "." : rel;
}
