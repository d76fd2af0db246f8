// find_definition: where a symbol is declared, from the index's symbol table (`sym:<name>`), with the
// declaring line. A method name without its class is looked up across classes.
import { z } from "zod";
import { globLiteral, indexReaderOf, scanSymbols, symbolLocations, type SymbolLocation } from "../store/index-queries.js";
import { defineTool } from "./define-tool.js";
import { lineText } from "./search-output.js";
import { didYouMean, suggestSymbols } from "./symbol-suggestions.js";
import { parseSymbolName } from "./symbol-name.js";
import type { ToolContext } from "./tool-types.js";
import { counted } from "../plural.js";

export const MAX_DEFINITIONS = 50;

interface Definition extends SymbolLocation {
  name: string;
}

async function methodsNamed(ctx: ToolContext, name: string): Promise<Definition[]> {
  const out: Definition[] = [];
  for await (const chunk of scanSymbols(indexReaderOf(ctx.store), `*.${globLiteral(name)}`)) {
    for (const [qualified, locs] of chunk) for (const l of locs) out.push({ ...l, name: qualified });
  }
  return out;
}

function readHint(d: Definition): string {
  if (d.kind === "function" || d.kind === "method") return `get_function path=${d.path} name=${d.name}`;
  if (d.kind === "const") return `get_lines path=${d.path} start=${d.line}`;
  return `get_class path=${d.path} name=${d.name}`;
}

export const findDefinition = defineTool({
  name: "find_definition",
  category: "search",
  description:
    'Find where a symbol is declared: functions, classes, methods ("Class.method"), what a namespace declares ("ns.name"), interfaces, types, enums and exported constants. Returns path, line, kind and the declaring line. Local variables are not indexed; use find_references for them.',
  parameters: z.object({ symbol: z.string().min(1).describe('Symbol name, e.g. "formatMoney", "Money" or "Money.add"') }).strict(),
  requiresConfirmation: false,
  title: (a) => `find_definition ${a.symbol}`,
  async execute(args, ctx) {
    const parsed = parseSymbolName(args.symbol, "symbol");
    if (!parsed.ok) return parsed;
    const name = parsed.name;
    const reader = indexReaderOf(ctx.store);
    let defs: Definition[] = (await symbolLocations(reader, name)).map((l) => ({ ...l, name }));
    let note = "";
    if (!defs.length && !name.includes(".")) {
      defs = await methodsNamed(ctx, name);
      if (defs.length) note = defs.every((d) => d.kind === "method") ? " (as a method name)" : " (as a member name: of a class or a namespace)";
    }
    if (!defs.length) {
      const suggestions = await suggestSymbols(reader, name);
      return {
        ok: false,
        code: "NOT_FOUND",
        message: `no declaration of "${name}" in the index.${didYouMean(suggestions)} Local variables and non-exported constants are not indexed; find_references ${name} searches the code itself.`,
      };
    }
    defs.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
    const shown = defs.slice(0, MAX_DEFINITIONS);
    const paths = [...new Set(shown.map((d) => d.path))];
    const files = await Promise.all(paths.map((p) => ctx.store.getFile(p)));
    const linesOf = new Map(paths.map((p, i) => [p, files[i]?.kind === "text" ? files[i].lines : []]));
    const rows = shown.map((d) => `${d.path}:${d.line} ${d.kind} ${d.name} │ ${lineText(linesOf.get(d.path)?.[d.line - 1])}`);
    const head = `${name}${note}: ${defs.length} declaration${defs.length === 1 ? "" : "s"}`;
    const more = defs.length > shown.length ? `\n… ${defs.length - shown.length} more not shown` : "";
    const first = shown[0]!;
    const hint = `\nRead it with ${readHint(first)}`;
    return {
      ok: true,
      llm: `${head}\n${rows.join("\n")}${more}${hint}`,
      data: { symbol: name, definitions: defs.map((d) => ({ name: d.name, path: d.path, line: d.line, kind: d.kind })) },
      display: { summary: counted(defs.length, "declaration") },
    };
  },
});
