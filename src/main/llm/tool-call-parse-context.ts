// The state of one parse, shared by the readers of each call form: the spans taken so far, which text is
// quoted code (no call there), and how a span becomes a call or an error for the model. Separate so the
// readers (tool-call-tags.ts, tool-call-json.ts) and the entry point (tool-call-parser.ts) share one set.
import type { KnownTools, ParsedCall, ParseToolCallsOptions, ToolCallFormat, ToolCallParseError } from "./tool-call-parser.js";

export const GENERIC_CALL_FORM = '<tool_call name="TOOL_NAME"><param_name>value</param_name></tool_call>';
export const FENCE_LANGS = new Set(["", "json", "jsonc", "json5", "tool_call", "tool_code", "tool"]);
const RAW_PREVIEW = 200;

export type Found = { start: number; end: number } & ({ call: ParsedCall } | { error: ToolCallParseError });
export interface Segment { start: number; end: number }

export class ParseContext {
  readonly found: Found[] = [];
  constructor(
    readonly reply: string,
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

  accept(start: number, end: number, name: string, args: Record<string, unknown>, format: ToolCallFormat): Found {
    const raw = this.reply.slice(start, end);
    if (!this.isKnown(name)) return { start, end, error: this.unknownTool(name, raw) };
    return { start, end, call: { name, arguments: args, format, raw } };
  }

  unknownTool(name: string, raw: string): ToolCallParseError {
    const list = typeof this.known === "function" ? "" : ` Available tools: ${[...this.known].join(", ")}.`;
    return { kind: "unknown-tool", name, raw: preview(raw), message: `There is no tool named "${name}".${list} Call one as: ${this.form(undefined)}`, summary: "unknown tool" };
  }

  fail(start: number, end: number, kind: ToolCallParseError["kind"], why: string, name?: string): Found {
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
  knownCallName(text: string): string | undefined {
    const m = /["']?name["']?\s*:\s*["']([\w.-]+)["']/.exec(text);
    return m !== null && this.isKnown(m[1]!) ? m[1]! : undefined;
  }
}

/**
 * A tag quoted as `code`, or inside a ```ts block, is the model talking about tool calls, not making one.
 * Also asked of a reply still streaming (VisibleTextFilter): a fence not closed yet runs to the end.
 */
export function isQuotedAt(reply: string, index: number, code: readonly Segment[] = codeBlocks(reply)): boolean {
  return reply[index - 1] === "`" || code.some((b) => index >= b.start && index < b.end);
}

/** Fenced blocks in a language other than the ones calls come wrapped in (```ts, ```python…). */
export function codeBlocks(reply: string): Segment[] {
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
