// JSON as small models write it: trailing commas, single quotes, bare keys, Python literals, comments,
// raw newlines inside strings. Repairs those and nothing else; an incomplete value stays an error.

export type JsonParseResult = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

const PY_LITERALS: Record<string, string> = { True: "true", False: "false", None: "null", undefined: "null" };

export function parseTolerantJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (err) {
    const firstError = err instanceof Error ? err.message : String(err);
    try {
      return { ok: true, value: JSON.parse(repairJson(text)), repaired: true };
    } catch {
      return { ok: false, error: firstError };
    }
  }
}

/** Rewrites the common slips into strict JSON (valid JSON stays equivalent). Throws on an unterminated string. */
export function repairJson(text: string): string {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(text, i);
      out += JSON.stringify(value);
      i = end;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? n : close + 2;
    } else if (ch === ",") {
      let j = i + 1;
      while (j < n && /\s/.test(text[j]!)) j++;
      if (text[j] !== "}" && text[j] !== "]") out += ch;
      i++;
    } else if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < n && /[\w$]/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      let k = j;
      while (k < n && /\s/.test(text[k]!)) k++;
      if (text[k] === ":") out += JSON.stringify(word);
      else out += PY_LITERALS[word] ?? word;
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Reads a '…' or "…" string starting at `start`; raw newlines/tabs inside are kept as characters. */
function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === quote) return { value, end: i + 1 };
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", "/": "/", "\\": "\\", '"': '"', "'": "'" };
      if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      value += simple[next] ?? next;
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  throw new SyntaxError(`Unterminated string starting at position ${start}`);
}

/**
 * End (exclusive) of the JSON object/array starting at `start`, skipping brackets inside '…' and "…"
 * strings, or -1 when the text ends first (a truncated value).
 */
export function scanJsonEnd(text: string, start: number): number {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{" || ch === "[") stack.push(ch === "{" ? "}" : "]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return i + 1; // mismatched: let the parser report it
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}
