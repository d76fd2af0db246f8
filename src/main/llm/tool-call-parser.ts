// Finds tool calls in a model reply. The taught form is XML (`<tool_call name="…"><param>…</param></tool_call>`),
// but small Qwen models mostly answer with Qwen's native `<tool_call>{json}</tool_call>`, a ```json fence or bare
// JSON, and Qwen3-coder with `<function=…><parameter=…>` (with or without the <tool_call> around it), so all of
// those are accepted, plus the server's own `message.tool_calls`. Nothing here throws: what cannot be read
// becomes an error whose message shows the expected form, for the model to retry.
import { callShape, isPlainObject, topLevelNames, ARGUMENT_KEYS, CALL_KEYS } from "./call-json-shape.js";
import type { NativeToolCall } from "./ollama-client.js";
import { parseTolerantJson, scanJsonEnd } from "./tolerant-json.js";

export type ToolCallFormat = "xml" | "function-tag" | "json-tag" | "json-fence" | "bare-json" | "native";

export interface ParsedCall {
  name: string;
  /** XML values are raw strings (coerced against the schema later); JSON values keep their JSON types. */
  arguments: Record<string, unknown>;
  format: ToolCallFormat;
  /** The text of the call as the model wrote it (empty for native calls). */
  raw: string;
}

export interface ToolCallParseError {
  kind: "malformed" | "truncated" | "unknown-tool";
  /** The tool name, when one could be read. */
  name?: string;
  raw: string;
  /** For the model: what went wrong and the form to use instead. */
  message: string;
  /** For the user, in a few words ("incomplete call: …", "unknown tool"): the chat shows it beside the call. */
  summary: string;
}

/** One call attempt of a reply: a call to run, or one that failed to parse. */
export type ParsedItem = { call: ParsedCall; error?: never } | { error: ToolCallParseError; call?: never };

export interface ToolCallParseResult {
  /** The reply without the calls (and without the unreadable attempts). */
  text: string;
  calls: ParsedCall[];
  errors: ToolCallParseError[];
  /** Calls and errors together, in the order the model made them (native calls last): results follow it. */
  items: ParsedItem[];
}

export interface ParseToolCallsOptions {
  /** Calls the server parsed itself; merged after the text calls, duplicates dropped. */
  nativeCalls?: readonly NativeToolCall[];
  /**
   * The example call error messages show. A function gets the name of the tool the broken call was for
   * (undefined when none could be read or the tool does not exist), to show that tool's own form.
   */
  example?: string | ((toolName: string | undefined) => string);
}

export type KnownTools = ReadonlySet<string> | ((name: string) => boolean);

export const GENERIC_CALL_FORM = '<tool_call name="TOOL_NAME"><param_name>value</param_name></tool_call>';
const FENCE_LANGS = new Set(["", "json", "jsonc", "json5", "tool_call", "tool_code", "tool"]);
const RAW_PREVIEW = 200;

type Found = { start: number; end: number } & ({ call: ParsedCall } | { error: ToolCallParseError });
interface Segment { start: number; end: number }

export function parseToolCalls(reply: string, knownTools: KnownTools, options: ParseToolCallsOptions = {}): ToolCallParseResult {
  const ctx = new ParseContext(reply, knownTools, options.example);
  let text: Segment[] = [{ start: 0, end: reply.length }];
  text = ctx.extract(text, (seg) => ctx.findTags(seg));
  text = ctx.extract(text, (seg) => ctx.findFunctionTags(seg));
  text = ctx.extract(text, (seg) => ctx.findFences(seg));
  // The whole reply being one JSON value is a stronger signal than JSON inside prose (see readJsonCandidate).
  const wholeReply = ctx.found.length === 0 && text.length === 1;
  text = ctx.extract(text, (seg) => ctx.findBareJson(seg, wholeReply));
  // Stable: calls sharing a span (an array of calls) keep their order.
  const items: ParsedItem[] = ctx.found.sort((a, b) => a.start - b.start).map((f) => ("call" in f ? { call: f.call } : { error: f.error }));
  // A native call the text also wrote out is one call; two identical native calls are two (the model
  // asked twice, and each gets its result).
  const inText = new Set(items.flatMap((i) => (i.call ? [callKey(i.call)] : [])));
  for (const native of options.nativeCalls ?? []) {
    const call: ParsedCall = { name: native.name, arguments: native.arguments ?? {}, format: "native", raw: "" };
    if (inText.has(callKey(call))) continue;
    // The server passes on any name the model made up; it goes back to the model like a text call's would.
    if (ctx.isKnown(call.name)) items.push({ call });
    else items.push({ error: ctx.unknownTool(call.name, JSON.stringify({ name: call.name, arguments: call.arguments })) });
  }
  return {
    text: cleanText(text.map((s) => reply.slice(s.start, s.end)).join("")),
    calls: items.flatMap((i) => (i.call ? [i.call] : [])),
    errors: items.flatMap((i) => (i.error ? [i.error] : [])),
    items,
  };
}

class ParseContext {
  readonly found: Found[] = [];
  constructor(
    private readonly reply: string,
    private readonly known: KnownTools,
    private readonly example: ParseToolCallsOptions["example"],
  ) {}

  readonly isKnown = (name: string): boolean => (typeof this.known === "function" ? this.known(name) : this.known.has(name));

  /** Runs a finder over each text segment and returns the text left between what it found. */
  extract(segments: Segment[], finder: (seg: Segment) => Found[]): Segment[] {
    const out: Segment[] = [];
    for (const seg of segments) {
      let cursor = seg.start;
      for (const f of finder(seg)) {
        if (f.start > cursor) out.push({ start: cursor, end: f.start });
        cursor = f.end;
        this.found.push(f);
      }
      if (cursor < seg.end) out.push({ start: cursor, end: seg.end });
    }
    return out;
  }

  findTags(seg: Segment): Found[] {
    const out: Found[] = [];
    const code = codeBlocks(this.reply);
    const re = /<tool_call\b/gi;
    re.lastIndex = seg.start;
    for (let m = re.exec(this.reply); m && m.index < seg.end; m = re.exec(this.reply)) {
      if (isQuotedAt(this.reply, m.index, code)) continue;
      const f = this.readTag(m.index);
      out.push(f);
      re.lastIndex = f.end;
    }
    return out;
  }

  private readTag(start: number): Found {
    const r = this.reply;
    const open = /^<tool_call\b([^>]*?)(\/?)>/i.exec(r.slice(start));
    if (!open) return this.fail(start, r.length, "truncated", "the reply ended inside the opening <tool_call> tag");
    const attrName = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s/>]+))/i.exec(open[1]!);
    const tagName = attrName ? (attrName[1] ?? attrName[2] ?? attrName[3])!.trim() : undefined;
    const bodyStart = start + open[0].length;
    if (open[2] === "/") {
      if (!tagName) return this.fail(start, bodyStart, "malformed", "the tool call has no name");
      return this.accept(start, bodyStart, tagName, {}, "xml");
    }
    const first = skipSpace(r, bodyStart);
    if (r[first] === "{" || r[first] === "[") return this.readJsonTag(start, first, tagName);
    return this.readXmlTag(start, bodyStart, tagName);
  }

  private readJsonTag(start: number, jsonStart: number, tagName: string | undefined): Found {
    const r = this.reply;
    const jsonEnd = scanJsonEnd(r, jsonStart);
    // An unreadable call still names its tool, often: its error then shows that tool's form.
    const nameIn = (json: string) => tagName ?? /["']name["']\s*:\s*["']([\w.-]+)["']/.exec(json)?.[1];
    if (jsonEnd === -1) return this.fail(start, r.length, "truncated", "the reply ended in the middle of the call's JSON", nameIn(r.slice(jsonStart)));
    // Consume the closing tag if only whitespace or stray brackets stand before it; a missing one is tolerated.
    const close = /^[\s}\]`]*<\/tool_call\s*>/i.exec(r.slice(jsonEnd));
    const end = close ? jsonEnd + close[0].length : jsonEnd;
    const json = r.slice(jsonStart, jsonEnd);
    const parsed = parseTolerantJson(json);
    if (!parsed.ok) return this.fail(start, end, "malformed", `its JSON could not be read (${parsed.error})`, nameIn(json));
    const value = parsed.value;
    // With the name in the tag, the object is the arguments (get_function's own `name` among them), unless it
    // is a whole call of its own: {"name", "arguments"}, or flat and naming a tool where the tag names none.
    // A `name` repeating the tag's is not an argument.
    if (tagName !== undefined && isPlainObject(value) && !Object.keys(value).some((k) => ARGUMENT_KEYS.has(k))) {
      const { name, ...rest } = value;
      const callOfItsOwn = typeof name === "string" && !this.isKnown(tagName) && this.isKnown(name);
      if (!callOfItsOwn) return this.accept(start, end, tagName, name === tagName ? rest : value, "json-tag");
    }
    return this.fromJsonValue(start, end, value, "json-tag", topLevelNames(json));
  }

  private readXmlTag(start: number, bodyStart: number, tagName: string | undefined): Found {
    const r = this.reply;
    const params: Array<[string, string]> = [];
    let name = tagName;
    let i = bodyStart;
    for (;;) {
      i = skipSpace(r, i);
      if (i >= r.length) return this.fail(start, r.length, "truncated", "the reply ended before </tool_call>", name);
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
      const param = this.readParam(i);
      if (param === "truncated") return this.fail(start, r.length, "truncated", "the reply ended before a parameter was closed", name);
      if (!param) {
        const next = r.slice(i).search(/<\/tool_call\s*>/i);
        const end = next === -1 ? r.length : i + next + r.slice(i + next).indexOf(">") + 1;
        return this.fail(start, end, next === -1 ? "truncated" : "malformed", "each parameter must be its own <param_name>value</param_name> element", name);
      }
      params.push([param.key, param.value]);
      i = param.end;
    }
    if (name === undefined) {
      // With get_function's own <name> beside it, the tool is the <name> that names one.
      const named = params.flatMap(([k], i) => (k === "name" ? [i] : []));
      const idx = named.find((i) => this.isKnown(params[i]![1].trim())) ?? named[0];
      if (idx !== undefined) name = params.splice(idx, 1)[0]![1].trim();
    }
    if (!name) return this.fail(start, i, "malformed", 'the tool call has no name (write <tool_call name="TOOL_NAME">)');
    return this.accept(start, i, name, xmlArguments(params), "xml");
  }

  /** Qwen3-coder's `<function=NAME><parameter=KEY>VALUE</parameter></function>` without a <tool_call> around it. */
  findFunctionTags(seg: Segment): Found[] {
    const out: Found[] = [];
    const code = codeBlocks(this.reply);
    const re = /<function=([^>\s]+)\s*>/g;
    re.lastIndex = seg.start;
    for (let m = re.exec(this.reply); m && m.index < seg.end; m = re.exec(this.reply)) {
      if (isQuotedAt(this.reply, m.index, code)) continue;
      const f = this.readFunctionTag(m.index, m.index + m[0].length, m[1]!, seg.end);
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
  private readFunctionTag(start: number, bodyStart: number, name: string, limit: number): Found | null {
    const r = this.reply;
    const known = this.isKnown(name);
    const params: Array<[string, string]> = [];
    let i = bodyStart;
    for (;;) {
      i = skipSpace(r, i);
      if (i >= limit) return known ? this.fail(start, limit, "truncated", "the reply ended before </function>", name) : null;
      const close = /^<\/function\s*>/.exec(r.slice(i, i + 20));
      if (close) {
        i += close[0].length;
        break;
      }
      const param = this.readParam(i);
      if (param === "truncated" || (param && param.end > limit)) {
        return known ? this.fail(start, limit, "truncated", "the reply ended before a parameter was closed", name) : null;
      }
      if (!param) {
        if (!known) return null;
        const next = r.slice(i, limit).search(/<\/function\s*>/);
        const end = next === -1 ? limit : i + next + r.slice(i + next).indexOf(">") + 1;
        return this.fail(start, end, next === -1 ? "truncated" : "malformed", "each parameter must be its own <parameter=name>value</parameter> element", name);
      }
      params.push([param.key, param.value]);
      i = param.end;
    }
    // A closing </tool_call> whose opening tag was left out belongs to the call.
    const stray = /^\s*<\/tool_call\s*>/i.exec(r.slice(i, limit));
    if (stray) i += stray[0].length;
    return this.accept(start, i, name, xmlArguments(params), "function-tag");
  }

  /** One `<key>value</key>` (or `<parameter name="key">`/`<parameter=key>`) starting at `i`. */
  private readParam(i: number): { key: string; value: string; end: number } | "truncated" | null {
    const r = this.reply;
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
        return this.param(key, valueStart, at, closeTag);
      }
    }
    return first === -1 ? "truncated" : this.param(key, valueStart, first, closeTag);
  }

  private param(key: string, valueStart: number, closeAt: number, closeTag: string) {
    return { key, value: rawValue(this.reply.slice(valueStart, closeAt)), end: closeAt + closeTag.length };
  }

  findFences(seg: Segment): Found[] {
    const out: Found[] = [];
    const r = this.reply;
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
        const name = FENCE_LANGS.has(lang) ? this.knownCallName(body) : undefined;
        if (name) out.push(this.fail(m.index, seg.end, "truncated", "the reply ended inside the ``` block of a tool call", name));
        break;
      }
      const end = bodyEnd + close![0].length;
      const body = r.slice(bodyStart, bodyEnd).trim();
      if (FENCE_LANGS.has(lang) && (body.startsWith("{") || body.startsWith("["))) {
        const f = this.readJsonCandidate(m.index, end, body, "json-fence", true);
        if (f) out.push(f);
      }
      re.lastIndex = end;
    }
    return out;
  }

  findBareJson(seg: Segment, wholeReply: boolean): Found[] {
    const r = this.reply;
    const whole = wholeReply && r.slice(seg.start, seg.end).trim();
    if (whole && (whole.startsWith("{") || whole.startsWith("["))) {
      const start = seg.start + r.slice(seg.start, seg.end).indexOf(whole[0]!);
      const end = scanJsonEnd(r, start);
      if (end !== -1 && r.slice(end, seg.end).trim() === "") {
        const f = this.readJsonCandidate(start, end, r.slice(start, end), "bare-json", true);
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
        const name = this.knownCallName(r.slice(m.index, seg.end));
        if (name) out.push(this.fail(m.index, seg.end, "truncated", "the reply ended in the middle of the call's JSON", name));
        break;
      }
      const f = this.readJsonCandidate(m.index, end, r.slice(m.index, end), "bare-json", false);
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
  private readJsonCandidate(start: number, end: number, json: string, format: ToolCallFormat, strict: boolean): Found | null {
    const parsed = parseTolerantJson(json);
    if (!parsed.ok) {
      const name = this.knownCallName(json);
      return name ? this.fail(start, end, "malformed", `its JSON could not be read (${parsed.error})`, name) : null;
    }
    const names = topLevelNames(json);
    const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    const shapes = items.map((v, k) => (isPlainObject(v) ? callShape(v, this.isKnown, names[k]) : null));
    if (shapes.length === 0 || shapes.some((c) => c === null)) return null;
    const named = shapes as NonNullable<(typeof shapes)[number]>[];
    const anyKnown = named.some((c) => this.isKnown(c.name));
    const exact = items.every((v) => Object.keys(v as object).every((k) => CALL_KEYS.has(k)));
    // An unknown name is a call (reported as such) only with its arguments: `{"name": "@acme/core",
    // "type": "module"}` in a json block is the model showing a package.json.
    const withArgs = exact && items.every((v) => Object.keys(v as object).some((k) => ARGUMENT_KEYS.has(k)));
    // In a fence or as the whole reply, a known name is enough; JSON inside prose must also look exactly like a call.
    if (strict ? !anyKnown && !withArgs : !anyKnown || !exact) return null;
    return this.fromJsonValue(start, end, parsed.value, format, names);
  }

  /**
   * A parsed JSON value inside a call context: one call or an array of calls. `names`: topLevelNames of its
   * text, one list per object (an array of plain objects only: else the lists do not line up and are unused).
   */
  private fromJsonValue(start: number, end: number, value: unknown, format: ToolCallFormat, names: string[][] = []): Found {
    const items = Array.isArray(value) ? value : [value];
    if (items.length === 0) return this.fail(start, end, "malformed", "the call is empty");
    const aligned = names.length === items.length;
    const results: Found[] = [];
    for (const [k, item] of items.entries()) {
      const shape = isPlainObject(item) ? callShape(item, this.isKnown, aligned ? names[k] : []) : null;
      if (!shape) {
        results.push(this.fail(start, end, "malformed", 'the JSON needs a "name" and an "arguments" object'));
        continue;
      }
      if (shape.argsError) {
        results.push(this.fail(start, end, "malformed", shape.argsError, shape.name));
        continue;
      }
      results.push(this.accept(start, end, shape.name, shape.args, format));
    }
    // Several calls in one array share the span; all but the first are zero-width so text removal stays right.
    for (let k = 1; k < results.length; k++) this.found.push({ ...results[k]!, start: end, end });
    return results[0]!;
  }

  private accept(start: number, end: number, name: string, args: Record<string, unknown>, format: ToolCallFormat): Found {
    const raw = this.reply.slice(start, end);
    if (!this.isKnown(name)) return { start, end, error: this.unknownTool(name, raw) };
    return { start, end, call: { name, arguments: args, format, raw } };
  }

  unknownTool(name: string, raw: string): ToolCallParseError {
    const list = typeof this.known === "function" ? "" : ` Available tools: ${[...this.known].join(", ")}.`;
    return { kind: "unknown-tool", name, raw: preview(raw), message: `There is no tool named "${name}".${list} Call one as: ${this.form(undefined)}`, summary: "unknown tool" };
  }

  private fail(start: number, end: number, kind: ToolCallParseError["kind"], why: string, name?: string): Found {
    const raw = this.reply.slice(start, end);
    const lead = kind === "truncated" ? "The tool call is incomplete" : "The tool call could not be read";
    // A long value (a whole file in one edit) is what usually cuts a call off.
    const hint = kind === "truncated" ? " If a value is long, make smaller changes in several calls." : "";
    const message = `${lead}: ${why}. Send the whole call again in this form: ${this.form(name)}${hint}`;
    const summary = `${kind === "truncated" ? "incomplete call" : "unreadable call"}: ${withoutDetail(why)}`;
    return { start, end, error: { kind, ...(name ? { name } : {}), raw: preview(raw), message, summary } };
  }

  /** The form to show: that of the tool the call was for, when it is a registered one. */
  private form(name: string | undefined): string {
    const example = this.example;
    if (typeof example === "function") return example(name !== undefined && this.isKnown(name) ? name : undefined);
    return example ?? GENERIC_CALL_FORM;
  }

  /**
   * The registered tool text names, when it looks like an attempt to call one (for unreadable JSON): the
   * error then shows that tool's form, and the user sees which tool the call was for.
   */
  private knownCallName(text: string): string | undefined {
    const m = /["']?name["']?\s*:\s*["']([\w.-]+)["']/.exec(text);
    return m !== null && this.isKnown(m[1]!) ? m[1]! : undefined;
  }
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

/** Fenced blocks in a language other than the ones calls come wrapped in (```ts, ```python…). */
/**
 * A tag quoted as `code`, or inside a ```ts block, is the model talking about tool calls, not making one.
 * Also asked of a reply still streaming (VisibleTextFilter): a fence not closed yet runs to the end.
 */
export function isQuotedAt(reply: string, index: number, code: readonly Segment[] = codeBlocks(reply)): boolean {
  return reply[index - 1] === "`" || code.some((b) => index >= b.start && index < b.end);
}

function codeBlocks(reply: string): Segment[] {
  const blocks: Segment[] = [];
  const re = /^[ \t]*```[ \t]*([\w-]*)[^\n]*\n/gm;
  for (let m = re.exec(reply); m; m = re.exec(reply)) {
    const close = /^[ \t]*```[ \t]*$/gm;
    close.lastIndex = m.index + m[0].length;
    const c = close.exec(reply);
    const end = c ? c.index + c[0].length : reply.length;
    const lang = m[1]!.toLowerCase();
    // Not ```xml: qwen2.5-coder wraps its real XML calls in one. A call written there only as an example
    // runs too (nothing tells the two apart); the user sees it run as any call, and the fence is not shown.
    if (!FENCE_LANGS.has(lang) && lang !== "xml") blocks.push({ start: m.index, end });
    re.lastIndex = end;
  }
  return blocks;
}

function cleanText(text: string): string {
  return text
    .replace(/^[ \t]*```[\w-]*[ \t]*\n\s*```[ \t]*$/gm, "") // fences left empty by a removed call
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function callKey(call: ParsedCall): string {
  const entries = Object.entries(call.arguments)
    .map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  return `${call.name}\u0000${JSON.stringify(entries)}`;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/**
 * A reason without its closing parenthesis, which is for the model (the JSON parser's own message, the form
 * to write): "its JSON could not be read (Unexpected token …)" → "its JSON could not be read".
 */
function withoutDetail(why: string): string {
  if (!why.endsWith(")")) return why;
  let depth = 0;
  for (let i = why.length - 1; i >= 0; i--) {
    if (why[i] === ")") depth++;
    else if (why[i] === "(" && --depth === 0) return why.slice(0, i).trimEnd() || why;
  }
  return why;
}

function preview(raw: string): string {
  return raw.length > RAW_PREVIEW ? `${raw.slice(0, RAW_PREVIEW)}…` : raw;
}
