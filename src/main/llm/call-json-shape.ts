// How a JSON object is read as a tool call: `{name, arguments}` and its variants. The tool's name and a tool
// argument that is itself called `name` (get_function's, get_class's) share a key in the flat forms, so
// which is which is settled here: by an explicit name key (`function`), else by which value names a tool.
import { parseTolerantJson, repairJson } from "./tolerant-json.js";

/** Keys a JSON object may have and still be read as "the model meant a tool call". */
export const CALL_KEYS = new Set(["name", "arguments", "parameters", "args", "type", "function", "id"]);
/** Of those, the ones that carry a call's arguments. */
export const ARGUMENT_KEYS = new Set(["arguments", "parameters", "args", "function"]);

export interface CallShape {
  name: string;
  args: Record<string, unknown>;
  argsError?: string;
}

/**
 * `{name, arguments|parameters|args}`, also wrapped as `{function: {...}}` / `{type: "function", function: …}`.
 * Without an arguments key, the other keys are taken as the arguments (`{"name": "get_lines", "path": "a.ts"}`).
 * `{"function": "get_function", "name": "main"}` names the tool by `function`; `name` is then an argument.
 * `names`: the values of every top-level "name" key as written (JSON keeps only the last of duplicates):
 * `{"name": "get_function", "path": "a.ts", "name": "main"}` is get_function with the argument name=main.
 */
export function callShape(obj: Record<string, unknown>, isKnown: (name: string) => boolean, names: readonly string[] = []): CallShape | null {
  if (typeof obj.function === "string") {
    const flat = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== "function" && k !== "type" && k !== "id"));
    return withArgs(obj.function, flat, ["name"]);
  }
  const target = isPlainObject(obj.function) ? obj.function : obj;
  if (typeof target.name !== "string") return null;
  let name = target.name;
  let argName: string | undefined;
  if (target === obj && names.length > 1) {
    // The tool is the value that names one (the first, if several do); the last other value is the argument.
    const toolAt = Math.max(0, names.findIndex(isKnown));
    name = names[toolAt]!;
    argName = names.filter((_, i) => i !== toolAt).at(-1);
  }
  const shape = withArgs(name, target, []);
  if (argName !== undefined && !shape.argsError && !hasArgumentKey(target)) shape.args = { ...shape.args, name: argName };
  return shape;
}

/** Arguments from `target`'s arguments key, or its flat keys; `keep`: call keys that are arguments here. */
function withArgs(name: string, target: Record<string, unknown>, keep: readonly string[]): CallShape {
  let args: unknown = target.arguments ?? target.parameters ?? target.args;
  if (args === undefined) {
    args = Object.fromEntries(Object.entries(target).filter(([k]) => keep.includes(k) || !CALL_KEYS.has(k)));
  }
  if (typeof args === "string") {
    const parsed = args.trim() === "" ? { ok: true as const, value: {} } : parseTolerantJson(args);
    if (!parsed.ok) return { name, args: {}, argsError: `its "arguments" string is not JSON (${parsed.error})` };
    args = parsed.value;
  }
  if (!isPlainObject(args)) return { name, args: {}, argsError: '"arguments" must be an object of parameter values' };
  return { name, args };
}

function hasArgumentKey(obj: Record<string, unknown>): boolean {
  return obj.arguments !== undefined || obj.parameters !== undefined || obj.args !== undefined;
}

/**
 * For each object at the top of `json` (the value itself, or each object of a top-level array, in order):
 * the string values of its "name" keys as written, duplicates included. Empty when it cannot be read.
 */
export function topLevelNames(json: string): string[][] {
  if ((json.match(/["']?\bname["']?\s*:/g) ?? []).length < 2) return []; // no duplicate possible
  let text: string;
  try {
    text = repairJson(json);
  } catch {
    return [];
  }
  const out: string[][] = [];
  let depth = 0;
  let objectDepth = 1;
  let current: string[] | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (end === -1) return [];
      let j = skipSpace(text, end);
      if (current && depth === objectDepth && text[j] === ":" && readString(text, i, end) === "name") {
        j = skipSpace(text, j + 1);
        const valueEnd = text[j] === '"' ? stringEnd(text, j) : -1;
        if (valueEnd !== -1) {
          current.push(readString(text, j, valueEnd));
          i = valueEnd - 1;
          continue;
        }
      }
      i = end - 1;
    } else if (ch === "{" || ch === "[") {
      if (depth === 0 && ch === "[") objectDepth = 2;
      depth++;
      if (ch === "{" && depth === objectDepth) out.push((current = []));
    } else if (ch === "}" || ch === "]") {
      if (depth === objectDepth) current = null;
      depth--;
    }
  }
  return out;
}

/** Index after the closing quote of the strict-JSON string starting at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

function readString(text: string, start: number, end: number): string {
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return "";
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
