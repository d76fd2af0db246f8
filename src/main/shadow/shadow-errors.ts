// The error envelope of seed 001 (§9): `{error: true, code: "SHADOW_ERR_…", message, details{retryable…}}`.
// Shadow tools return it as the message of a failed ToolOutcome (the framework's own code beside it), so
// the model reads the seed's code and the CLI can print it as is.
import { isIpuaroError } from "../errors.js";
import { MAX_TOOL_OUTPUT_CHARS } from "../tools/define-tool.js";
import type { ToolErrorCode, ToolOutcome } from "../tools/tool-types.js";

/**
 * Seed 001's codes, plus INVALID_DEPTH / INVALID_STATUS / INVALID_INCLUDE for the parameters it gave no
 * code, and PATH_OUTSIDE_ROOT / MEMORY_NOT_FOUND where its nearest code (FILE_NOT_FOUND) said the wrong thing.
 */
export const SHADOW_ERROR_CODES = {
  SHADOW_ERR_DATABASE_LOCKED: { tool: "UNAVAILABLE", retryable: true },
  SHADOW_ERR_DATABASE_CORRUPT: { tool: "INTERNAL", retryable: false },
  SHADOW_ERR_NOT_INITIALIZED: { tool: "UNAVAILABLE", retryable: true },
  SHADOW_ERR_INSUFFICIENT_DATA: { tool: "NOT_FOUND", retryable: true },
  SHADOW_ERR_TIMEOUT: { tool: "TIMEOUT", retryable: true },
  SHADOW_ERR_INTERNAL: { tool: "INTERNAL", retryable: false },
  SHADOW_ERR_MISSING_TARGET: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_QUERY: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_TIMEFRAME: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_LIMIT: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_DEPTH: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_STATUS: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_INCLUDE: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_INVALID_SOURCES: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_UNKNOWN_CATEGORY: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_FILE_NOT_FOUND: { tool: "FILE_NOT_FOUND", retryable: false },
  SHADOW_ERR_PATH_OUTSIDE_ROOT: { tool: "PATH_OUTSIDE_ROOT", retryable: false },
  SHADOW_ERR_MEMORY_NOT_FOUND: { tool: "NOT_FOUND", retryable: false },
  SHADOW_ERR_NO_HOTSPOTS: { tool: "NOT_FOUND", retryable: false },
  SHADOW_ERR_NO_PREDICTION_DATA: { tool: "NOT_FOUND", retryable: true },
  SHADOW_ERR_NO_DEPENDENCIES: { tool: "NOT_FOUND", retryable: false },
  SHADOW_ERR_EMPTY_KNOWLEDGE_GRAPH: { tool: "NOT_FOUND", retryable: true },
  SHADOW_ERR_NO_DECISIONS: { tool: "NOT_FOUND", retryable: false },
  SHADOW_ERR_NO_CONTEXT_AVAILABLE: { tool: "NOT_FOUND", retryable: true },
  SHADOW_ERR_INVALID_FOCUS: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_SEARCH_QUERY_EMPTY: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_SEARCH_TOO_BROAD: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_NO_SOURCES: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_CONTENT_TOO_SHORT: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_CONTENT_TOO_LONG: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_DUPLICATE_MEMORY: { tool: "CONFLICT", retryable: false },
  SHADOW_ERR_TITLE_TOO_SHORT: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_DESCRIPTION_TOO_SHORT: { tool: "INVALID_ARGS", retryable: false },
  SHADOW_ERR_DECISION_EXISTS: { tool: "CONFLICT", retryable: false },
} as const satisfies Record<string, { tool: ToolErrorCode; retryable: boolean }>;

export type ShadowErrorCode = keyof typeof SHADOW_ERROR_CODES;

export interface ShadowErrorEnvelope {
  error: true;
  code: ShadowErrorCode;
  message: string;
  details: Record<string, unknown> & { retryable: boolean; timestamp: number };
}

export class ShadowError extends Error {
  override readonly name = "ShadowError";
  constructor(
    readonly code: ShadowErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return SHADOW_ERROR_CODES[this.code].retryable;
  }

  toJSON(now = Date.now()): ShadowErrorEnvelope {
    return { error: true, code: this.code, message: this.message, details: { ...this.details, retryable: this.retryable, timestamp: now } };
  }
}

export function isShadowError(err: unknown, code?: ShadowErrorCode): err is ShadowError {
  return err instanceof ShadowError && (code === undefined || err.code === code);
}

/** Redis answered but is loading its data or stuck in a script: worth a retry, unlike a lost connection. */
function isBusyRedis(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /(^|: )(LOADING|BUSY)\b/.test(message);
}

function isCorrupt(err: unknown): boolean {
  return isIpuaroError(err, "redis") && /^Corrupt/.test(err.message);
}

/** Any failure of a shadow operation as the seed's error (Redis outages stay IpuaroErrors: the loop handles those). */
export function toShadowError(err: unknown, tool: string): ShadowError {
  if (err instanceof ShadowError) return err.details.tool ? err : new ShadowError(err.code, err.message, { tool, ...err.details });
  const message = err instanceof Error ? err.message : String(err);
  if (isBusyRedis(err)) {
    return new ShadowError("SHADOW_ERR_DATABASE_LOCKED", "Redis is busy loading or running a script; retry in a second or two.", { tool, retry_after_ms: 1000 });
  }
  if (isCorrupt(err)) {
    return new ShadowError("SHADOW_ERR_DATABASE_CORRUPT", message, { tool });
  }
  if ((err as Error)?.name === "TimeoutError") {
    return new ShadowError("SHADOW_ERR_TIMEOUT", `${tool} took too long; try a shorter timeframe or a smaller limit.`, { tool });
  }
  return new ShadowError("SHADOW_ERR_INTERNAL", `internal error in ${tool}: ${message}`, { tool, original_error: message });
}

/** A ShadowError as the failed outcome the tool framework expects; the message is the seed's envelope. */
export function shadowFailure(err: ShadowError): Extract<ToolOutcome, { ok: false }> {
  return { ok: false, code: SHADOW_ERROR_CODES[err.code].tool, message: JSON.stringify(err.toJSON()) };
}

/**
 * Runs a shadow tool's body: results become compact JSON for the model, failures the seed's envelope.
 * A lost Redis connection is rethrown as it is: the agent loop reports and retries those itself.
 */
export async function runShadowTool(tool: string, body: () => Promise<{ result: unknown; summary: string }>): Promise<ToolOutcome> {
  try {
    const { result, summary } = await body();
    return { ok: true, llm: toModelJson(result), data: result, display: { summary } };
  } catch (err) {
    if (isIpuaroError(err, "redis") && !isCorrupt(err) && !isBusyRedis(err)) throw err;
    return shadowFailure(toShadowError(err, tool));
  }
}

/** Room a shadow tool's JSON may take: the tool framework cuts longer output mid-JSON, which no model can parse. */
export const MODEL_JSON_BUDGET = MAX_TOOL_OUTPUT_CHARS - 400;

/**
 * JSON for a small model: one space of indent keeps the structure visible at a modest token cost. An
 * answer over the budget (hotspots with limit 100, a deep dependency_graph) becomes compact JSON, then
 * loses items from the end of its longest lists, saying how many in `left_out` — still valid JSON.
 */
export function toModelJson(value: unknown, budget = MODEL_JSON_BUDGET): string {
  const pretty = JSON.stringify(value, null, 1);
  if (pretty === undefined || pretty.length <= budget) return pretty;
  const compact = JSON.stringify(value);
  if (compact.length <= budget || value === null || typeof value !== "object" || Array.isArray(value)) return compact;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const leftOut: Record<string, number> = {};
  const withNote = () => ({ ...out, left_out: leftOut, note: `Lists shortened to fit the answer (left_out counts the items not shown); ask with a smaller limit or a narrower target for the rest.` });
  for (;;) {
    const text = JSON.stringify(withNote());
    if (text.length <= budget) return text;
    const lists = Object.entries(out).filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && e[1].length > 0);
    if (!lists.length) return text;
    const [field, list] = lists.reduce((a, b) => (JSON.stringify(b[1]).length > JSON.stringify(a[1]).length ? b : a));
    // Drop about as much as the excess, at least one item.
    const perItem = JSON.stringify(list).length / list.length;
    const drop = Math.min(list.length, Math.max(1, Math.ceil((text.length - budget) / perItem)));
    out[field] = list.slice(0, list.length - drop);
    leftOut[field] = (leftOut[field] ?? 0) + drop;
  }
}
