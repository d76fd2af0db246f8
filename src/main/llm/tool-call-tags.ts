// Reads the tag forms of a call: `<tool_call name="…">` with XML parameters or a JSON body, and Qwen3-coder's
// `<function=…><parameter=…>` with or without a <tool_call> around it. Separate from the JSON forms
// (tool-call-json.ts): the markup's syntax and when JSON counts as a call change for different reasons.
import { ARGUMENT_KEYS, isPlainObject, topLevelNames } from "./call-json-shape.js";
import { fromJsonValue } from "./tool-call-json.js";
import { codeBlocks, isQuotedAt, type Found, type ParseContext, type Segment } from "./tool-call-parse-context.js";
import { parseTolerantJson, scanJsonEnd } from "./tolerant-json.js";

export function findTags(ctx: ParseContext, seg: Segment): Found[] {
  const out: Found[] = [];
  const code = codeBlocks(ctx.reply);
  const re = /<tool_call\b/gi;
  re.lastIndex = seg.start;
  for (let m = re.exec(ctx.reply); m && m.index < seg.end; m = re.exec(ctx.reply)) {
    if (isQuotedAt(ctx.reply, m.index, code)) continue;
    const f = readTag(ctx, m.index);
    out.push(f);
    re.lastIndex = f.end;
  }
  return out;
}

function readTag(ctx: ParseContext, start: number): Found {
  const r = ctx.reply;
  const open = /^<tool_call\b([^>]*?)(\/?)>/i.exec(r.slice(start));
  if (!open) return ctx.fail(start, r.length, "truncated", "the reply ended inside the opening <tool_call> tag");
  const attrName = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s/>]+))/i.exec(open[1]!);
  const tagName = attrName ? (attrName[1] ?? attrName[2] ?? attrName[3])!.trim() : undefined;
  const bodyStart = start + open[0].length;
  if (open[2] === "/") {
    if (!tagName) return ctx.fail(start, bodyStart, "malformed", "the tool call has no name");
    return ctx.accept(start, bodyStart, tagName, {}, "xml");
  }
  const first = skipSpace(r, bodyStart);
  if (r[first] === "{" || r[first] === "[") return readJsonTag(ctx, start, first, tagName);
  return readXmlTag(ctx, start, bodyStart, tagName);
}

function readJsonTag(ctx: ParseContext, start: number, jsonStart: number, tagName: string | undefined): Found {
  const r = ctx.reply;
  const jsonEnd = scanJsonEnd(r, jsonStart);
  // An unreadable call still names its tool, often: its error then shows that tool's form.
  const nameIn = (json: string) => tagName ?? /["']name["']\s*:\s*["']([\w.-]+)["']/.exec(json)?.[1];
  if (jsonEnd === -1) return ctx.fail(start, r.length, "truncated", "the reply ended in the middle of the call's JSON", nameIn(r.slice(jsonStart)));
  // Consume the closing tag if only whitespace or stray brackets stand before it; a missing one is tolerated.
  const close = /^[\s}\]`]*<\/tool_call\s*>/i.exec(r.slice(jsonEnd));
  const end = close ? jsonEnd + close[0].length : jsonEnd;
  const json = r.slice(jsonStart, jsonEnd);
  const parsed = parseTolerantJson(json);
  if (!parsed.ok) return ctx.fail(start, end, "malformed", `its JSON could not be read (${parsed.error})`, nameIn(json));
  const value = parsed.value;
  // With the name in the tag, the object is the arguments (get_function's own `name` among them), unless it
  // is a whole call of its own: {"name", "arguments"}, or flat and naming a tool where the tag names none.
  // A `name` repeating the tag's is not an argument.
  if (tagName !== undefined && isPlainObject(value) && !Object.keys(value).some((k) => ARGUMENT_KEYS.has(k))) {
    const { name, ...rest } = value;
    const callOfItsOwn = typeof name === "string" && !ctx.isKnown(tagName) && ctx.isKnown(name);
    if (!callOfItsOwn) return ctx.accept(start, end, tagName, name === tagName ? rest : value, "json-tag");
  }
  return fromJsonValue(ctx, start, end, value, "json-tag", topLevelNames(json));
}

function readXmlTag(ctx: ParseContext, start: number, bodyStart: number, tagName: string | undefined): Found {
  const r = ctx.reply;
  const params: Array<[string, string]> = [];
  let name = tagName;
  let i = bodyStart;
  for (;;) {
    i = skipSpace(r, i);
    if (i >= r.length) return ctx.fail(start, r.length, "truncated", "the reply ended before </tool_call>", name);
    const close = /^<\/tool_call\s*>/i.exec(r.slice(i, i + 40));
    if (close) {
      i += close[0].length;
      break;
    }
    const fn = /^<function=([^>\s]+)\s*>/.exec(r.slice(i, i + 200));
    if (fn) {
      name ??= fn[1]!;
      i += fn[0].length;
      continue;
    }
    const fnClose = /^<\/function\s*>/.exec(r.slice(i, i + 20));
    if (fnClose) {
      i += fnClose[0].length;
      continue;
    }
    const param = readParam(ctx, i);
    if (param === "truncated") return ctx.fail(start, r.length, "truncated", "the reply ended before a parameter was closed", name);
    if (!param) {
      const next = r.slice(i).search(/<\/tool_call\s*>/i);
      const end = next === -1 ? r.length : i + next + r.slice(i + next).indexOf(">") + 1;
      return ctx.fail(start, end, next === -1 ? "truncated" : "malformed", "each parameter must be its own <param_name>value</param_name> element", name);
    }
    params.push([param.key, param.value]);
    i = param.end;
  }
  if (name === undefined) {
    // With get_function's own <name> beside it, the tool is the <name> that names one.
    const named = params.flatMap(([k], i) => (k === "name" ? [i] : []));
    const idx = named.find((i) => ctx.isKnown(params[i]![1].trim())) ?? named[0];
    if (idx !== undefined) name = params.splice(idx, 1)[0]![1].trim();
  }
  if (!name) return ctx.fail(start, i, "malformed", 'the tool call has no name (write <tool_call name="TOOL_NAME">)');
  return ctx.accept(start, i, name, xmlArguments(params), "xml");
}

/** Qwen3-coder's `<function=NAME><parameter=KEY>VALUE</parameter></function>` without a <tool_call> around it. */
export function findFunctionTags(ctx: ParseContext, seg: Segment): Found[] {
  const out: Found[] = [];
  const code = codeBlocks(ctx.reply);
  const re = /<function=([^>\s]+)\s*>/g;
  re.lastIndex = seg.start;
  for (let m = re.exec(ctx.reply); m && m.index < seg.end; m = re.exec(ctx.reply)) {
    if (isQuotedAt(ctx.reply, m.index, code)) continue;
    const f = readFunctionTag(ctx, m.index, m.index + m[0].length, m[1]!, seg.end);
    if (!f) continue;
    out.push(f);
    re.lastIndex = f.end;
  }
  return out;
}

/**
 * A bare function block naming a registered tool is a call, broken or not; one naming no tool is a call
 * (to a tool that does not exist) only when it is well formed, else it is prose that mentions the syntax.
 */
function readFunctionTag(ctx: ParseContext, start: number, bodyStart: number, name: string, limit: number): Found | null {
  const r = ctx.reply;
  const known = ctx.isKnown(name);
  const params: Array<[string, string]> = [];
  let i = bodyStart;
  for (;;) {
    i = skipSpace(r, i);
    if (i >= limit) return known ? ctx.fail(start, limit, "truncated", "the reply ended before </function>", name) : null;
    const close = /^<\/function\s*>/.exec(r.slice(i, i + 20));
    if (close) {
      i += close[0].length;
      break;
    }
    const param = readParam(ctx, i);
    if (param === "truncated" || (param && param.end > limit)) {
      return known ? ctx.fail(start, limit, "truncated", "the reply ended before a parameter was closed", name) : null;
    }
    if (!param) {
      if (!known) return null;
      const next = r.slice(i, limit).search(/<\/function\s*>/);
      const end = next === -1 ? limit : i + next + r.slice(i + next).indexOf(">") + 1;
      return ctx.fail(start, end, next === -1 ? "truncated" : "malformed", "each parameter must be its own <parameter=name>value</parameter> element", name);
    }
    params.push([param.key, param.value]);
    i = param.end;
  }
  // A closing </tool_call> whose opening tag was left out belongs to the call.
  const stray = /^\s*<\/tool_call\s*>/i.exec(r.slice(i, limit));
  if (stray) i += stray[0].length;
  return ctx.accept(start, i, name, xmlArguments(params), "function-tag");
}

/** One `<key>value</key>` (or `<parameter name="key">`/`<parameter=key>`) starting at `i`. */
function readParam(ctx: ParseContext, i: number): { key: string; value: string; end: number } | "truncated" | null {
  const r = ctx.reply;
  const open = /^<([A-Za-z_][\w.-]*)(?:=([^>\s]+)|(\s[^<>]*?))?\s*(\/?)>/.exec(r.slice(i, i + 300));
  if (!open) return /^<[^>]*$/.test(r.slice(i)) ? "truncated" : null;
  const tag = open[1]!;
  const attr = open[3] ? /\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(open[3]) : null;
  const key = open[2] ?? (attr ? (attr[1] ?? attr[2])! : tag);
  const valueStart = i + open[0].length;
  if (open[4] === "/") return { key, value: "", end: valueStart };
  const closeTag = `</${tag}>`;
  // The first closing tag followed by another element, </tool_call> or the end: values may hold `</x>` text.
  let first = -1;
  for (let at = r.indexOf(closeTag, valueStart); at !== -1; at = r.indexOf(closeTag, at + 1)) {
    if (first === -1) first = at;
    const after = skipSpace(r, at + closeTag.length);
    if (after >= r.length || /^(?:<[A-Za-z_]|<\/tool_call|<\/function)/i.test(r.slice(after, after + 12))) {
      return param(ctx, key, valueStart, at, closeTag);
    }
  }
  return first === -1 ? "truncated" : param(ctx, key, valueStart, first, closeTag);
}

function param(ctx: ParseContext, key: string, valueStart: number, closeAt: number, closeTag: string) {
  return { key, value: rawValue(ctx.reply.slice(valueStart, closeAt)), end: closeAt + closeTag.length };
}

/** Repeated parameters become an array; a JSON `<arguments>` child stands for all arguments. */
function xmlArguments(params: Array<[string, string]>): Record<string, unknown> {
  if (params.length === 1 && (params[0]![0] === "arguments" || params[0]![0] === "parameters")) {
    const parsed = parseTolerantJson(params[0]![1]);
    if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const prev = args[key];
    args[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return args;
}

/** A value as written, minus a CDATA wrapper and one newline after the open/before the close tag. */
function rawValue(text: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(text);
  if (cdata) return cdata[1]!;
  return text.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}
