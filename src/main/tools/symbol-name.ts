// Symbol names the model passes to the read and search tools: `sum`, `Money`, `Money.add`, `#secret`.
// Checked in execute rather than by a zod regex, so the JSON schema in the prompt stays plain.
import type { ToolOutcome } from "./tool-types.js";

const PART = String.raw`#?[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*`;
const SYMBOL_NAME = new RegExp(`^${PART}(\\.${PART})?$`, "u");

export const MAX_SYMBOL_NAME_CHARS = 200;

/** `Money.add()` → `Money.add`; an error naming the expected form for anything else. */
export function parseSymbolName(raw: string, param = "name"): { ok: true; name: string } | Extract<ToolOutcome, { ok: false }> {
  const name = raw.trim().replace(/\(\s*\)$/, "");
  if (name.length <= MAX_SYMBOL_NAME_CHARS && SYMBOL_NAME.test(name)) return { ok: true, name };
  const shown = JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
  return {
    ok: false,
    code: "INVALID_ARGS",
    message: `"${param}" must be one identifier such as "sum" or "Money", or "Class.method" such as "Money.add"; got ${shown}`,
  };
}
