// Reads the JSON forms of a call outside a <tool_call> tag (a ```json fence, bare JSON), and turns a parsed
// JSON value into calls, for those and for a tag's JSON body. Separate from the tag forms (tool-call-tags.ts):
// the question here is when JSON is a call and when it is only JSON the model shows.
import { ARGUMENT_KEYS, CALL_KEYS, callShape, isPlainObject, topLevelNames } from "./call-json-shape.js";
import { codeBlocks, FENCE_LANGS, type Found, type ParseContext, type Segment } from "./tool-call-parse-context.js";
import type { ToolCallFormat } from "./tool-call-parser.js";
import { parseTolerantJson, scanJsonEnd } from "./tolerant-json.js";

export function findFences(ctx: ParseContext, seg: Segment): Found[] {
  const out: Found[] = [];
  const r = ctx.reply;
  const re = /^[ \t]*```[ \t]*([\w-]*)[^\n]*\n/gm;
  re.lastIndex = seg.start;
  for (let m = re.exec(r); m && m.index < seg.end; m = re.exec(r)) {
    const lang = m[1]!.toLowerCase();
    const bodyStart = m.index + m[0].length;
    const closeRe = /^[ \t]*```[ \t]*$/gm;
    closeRe.lastIndex = bodyStart;
    const close = closeRe.exec(r);
    const bodyEnd = close && close.index < seg.end ? close.index : -1;
    if (bodyEnd === -1) {
      const body = r.slice(bodyStart, seg.end);
      const name = FENCE_LANGS.has(lang) ? ctx.knownCallName(body) : undefined;
      if (name) out.push(ctx.fail(m.index, seg.end, "truncated", "the reply ended inside the ``` block of a tool call", name));
      break;
    }
    const end = bodyEnd + close![0].length;
    const body = r.slice(bodyStart, bodyEnd).trim();
    if (FENCE_LANGS.has(lang) && (body.startsWith("{") || body.startsWith("["))) {
      const f = readJsonCandidate(ctx, m.index, end, body, "json-fence", true);
      if (f) out.push(f);
    }
    re.lastIndex = end;
  }
  return out;
}

export function findBareJson(ctx: ParseContext, seg: Segment, wholeReply: boolean): Found[] {
  const r = ctx.reply;
  const whole = wholeReply && r.slice(seg.start, seg.end).trim();
  if (whole && (whole.startsWith("{") || whole.startsWith("["))) {
    const start = seg.start + r.slice(seg.start, seg.end).indexOf(whole[0]!);
    const end = scanJsonEnd(r, start);
    if (end !== -1 && r.slice(end, seg.end).trim() === "") {
      const f = readJsonCandidate(ctx, start, end, r.slice(start, end), "bare-json", true);
      return f ? [f] : [];
    }
  }
  const out: Found[] = [];
  const code = codeBlocks(r);
  const re = /\{\s*["']?(?:name|function)["']?\s*:/g;
  re.lastIndex = seg.start;
  for (let m = re.exec(r); m && m.index < seg.end; m = re.exec(r)) {
    if (code.some((b) => m!.index >= b.start && m!.index < b.end)) continue;
    const end = scanJsonEnd(r, m.index);
    if (end === -1 || end > seg.end) {
      const name = ctx.knownCallName(r.slice(m.index, seg.end));
      if (name) out.push(ctx.fail(m.index, seg.end, "truncated", "the reply ended in the middle of the call's JSON", name));
      break;
    }
    const f = readJsonCandidate(ctx, m.index, end, r.slice(m.index, end), "bare-json", false);
    if (f) {
      out.push(f);
      re.lastIndex = end;
    }
  }
  return out;
}

/**
 * JSON outside a <tool_call> tag is a call only if it names a registered tool; with `strict`, an object
 * shaped exactly like a call ({name, arguments}) but naming an unknown tool is reported, else it is text.
 */
function readJsonCandidate(ctx: ParseContext, start: number, end: number, json: string, format: ToolCallFormat, strict: boolean): Found | null {
  const parsed = parseTolerantJson(json);
  if (!parsed.ok) {
    const name = ctx.knownCallName(json);
    return name ? ctx.fail(start, end, "malformed", `its JSON could not be read (${parsed.error})`, name) : null;
  }
  const names = topLevelNames(json);
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const shapes = items.map((v, k) => (isPlainObject(v) ? callShape(v, ctx.isKnown, names[k]) : null));
  if (shapes.length === 0 || shapes.some((c) => c === null)) return null;
  const named = shapes as NonNullable<(typeof shapes)[number]>[];
  const anyKnown = named.some((c) => ctx.isKnown(c.name));
  const exact = items.every((v) => Object.keys(v as object).every((k) => CALL_KEYS.has(k)));
  // An unknown name is a call (reported as such) only with its arguments: `{"name": "@acme/core",
  // "type": "module"}` in a json block is the model showing a package.json.
  const withArgs = exact && items.every((v) => Object.keys(v as object).some((k) => ARGUMENT_KEYS.has(k)));
  // In a fence or as the whole reply, a known name is enough; JSON inside prose must also look exactly like a call.
  if (strict ? !anyKnown && !withArgs : !anyKnown || !exact) return null;
  return fromJsonValue(ctx, start, end, parsed.value, format, names);
}

/**
 * A parsed JSON value inside a call context: one call or an array of calls. `names`: topLevelNames of its
 * text, one list per object (an array of plain objects only: else the lists do not line up and are unused).
 */
export function fromJsonValue(ctx: ParseContext, start: number, end: number, value: unknown, format: ToolCallFormat, names: string[][] = []): Found {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return ctx.fail(start, end, "malformed", "the call is empty");
  const aligned = names.length === items.length;
  const results: Found[] = [];
  for (const [k, item] of items.entries()) {
    const shape = isPlainObject(item) ? callShape(item, ctx.isKnown, aligned ? names[k] : []) : null;
    if (!shape) {
      results.push(ctx.fail(start, end, "malformed", 'the JSON needs a "name" and an "arguments" object'));
      continue;
    }
    if (shape.argsError) {
      results.push(ctx.fail(start, end, "malformed", shape.argsError, shape.name));
      continue;
    }
    results.push(ctx.accept(start, end, shape.name, shape.args, format));
  }
  // Several calls in one array share the span; all but the first are zero-width so text removal stays right.
  for (let k = 1; k < results.length; k++) ctx.found.push({ ...results[k]!, start: end, end });
  return results[0]!;
}
