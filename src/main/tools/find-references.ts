// find_references: every line where a symbol is used as code. The indexed files are prefiltered by a
// substring test on their stored JSON, the survivors parsed with tree-sitter and each text hit checked
// against its syntax node (comments and strings drop out). The index adds what syntax cannot: declared
// locations (symbol table), the calling function (call graph) and the enclosing declaration (AST).
import { z } from "zod";
import type { FileAST } from "../../workers/ast-types.js";
import { languageForPath } from "../../workers/extract/index.js";
import { TimeSlicer } from "../../pipeline/graph/time-slicer.js";
import { callsTargeting, callSitesOf, indexReaderOf, scanIndexedTexts, symbolLocations, type IndexReader, type SymbolLocation } from "../store/index-queries.js";
import type { ProjectStore } from "../store/project-store.js";
import { defineTool } from "./define-tool.js";
import { lineText, pastBudget } from "./search-output.js";
import { CODE_LANGUAGES, findIdentifierOccurrences, identifierPattern, type ReferenceRole } from "./identifier-occurrences.js";
import { didYouMean, suggestSymbols } from "./symbol-suggestions.js";
import { parseSymbolName } from "./symbol-name.js";
import { toolPath } from "./tool-paths.js";
import { counted } from "../plural.js";

/** Reference lines shown to the model; the rest are counted. */
export const MAX_REFERENCES = 100;
/** Calls under another name shown (`import { slugify as toSlug }`, a renamed re-export, `ns.fn()`). */
export const MAX_RENAMED_CALLS = 20;
/**
 * Past this, once MAX_REFERENCES lines are found (or past twice this regardless), the remaining candidate
 * files are counted by text match without parsing and reported as approximate: a name used in thousands
 * of files must not stall a turn.
 */
export const REFERENCE_SCAN_BUDGET_MS = 3000;

interface ReferenceLine {
  line: number;
  roles: Set<ReferenceRole>;
  text: string;
}

const ROLE_ORDER: ReferenceRole[] = ["definition", "import", "export", "call", "new", "jsx", "type", "member", "ref"];

/** Innermost function or method (as `Class.method`) around a line, from the stored AST. */
export function enclosingDeclaration(ast: FileAST | undefined, line: number): string | null {
  if (!ast) return null;
  let best: { name: string; span: number } | null = null;
  const consider = (name: string, start: number, end: number) => {
    if (line < start || line > end) return;
    if (!best || end - start < best.span) best = { name, span: end - start };
  };
  for (const f of ast.functions) consider(f.name, f.lineStart, f.lineEnd);
  for (const c of ast.classes) {
    consider(c.name, c.lineStart, c.lineEnd);
    for (const m of c.methods) consider(`${c.name}.${m.name}`, m.lineStart, m.lineEnd);
  }
  return (best as { name: string } | null)?.name ?? null;
}

interface RenamedCall {
  path: string;
  line: number;
  callee: string;
  caller: string;
  text: string;
}

/**
 * Calls the call graph leads to the declarations under a name the text search cannot see: the callee
 * does not contain the name (an alias, a renamed re-export, a namespace member is found by the text
 * search already). Lines the text search found are left out.
 */
async function renamedCalls(reader: IndexReader, store: ProjectStore, declared: SymbolLocation[], name: string, seen: (path: string, line: number) => boolean, under: string | undefined): Promise<{ shown: RenamedCall[]; total: number }> {
  const targets = new Set(declared.map((d) => `${d.path}#${name}`));
  const needle = name.slice(name.lastIndexOf(".") + 1);
  const inScope = (p: string) => !under || p === under || p.startsWith(`${under}/`);
  const calls = (await callsTargeting(reader, targets))
    .filter((c) => inScope(c.path) && !seen(c.path, c.line) && !c.callee.split(".").includes(needle))
    .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const shown = await Promise.all(
    calls.slice(0, MAX_RENAMED_CALLS).map(async (c) => {
      const lines = await store.getLines(c.path, c.line, c.line).catch(() => null);
      return { path: c.path, line: c.line, callee: c.callee, caller: c.caller, text: lineText(lines?.lines[0]) };
    }),
  );
  return { shown, total: calls.length };
}

function countTextHits(lines: readonly string[], pattern: RegExp): number {
  let n = 0;
  for (const l of lines) {
    pattern.lastIndex = 0;
    if (pattern.test(l)) n++;
  }
  return n;
}

export const findReferences = defineTool({
  name: "find_references",
  category: "search",
  description:
    'Find where a symbol is used in the code (not in comments or strings): each line with its path, line number, role (definition, import, call, new, type, member, ref), the enclosing function and the line\'s text. "Class.method" finds member uses of that method name in files that mention the class (receiver types are not checked); "ns.member" of a TypeScript namespace finds the member\'s uses. Calls under another name (an import alias, a renamed re-export) follow from the call graph. Give path (a folder or file) to narrow the search.',
  parameters: z
    .object({
      symbol: z.string().min(1).describe('Symbol name, e.g. "formatMoney", "Money" or "Money.add"'),
      path: z.string().optional().describe("Folder or file to search in, relative to the root; omit for the whole project"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `find_references ${a.symbol}${a.path ? ` in ${a.path}` : ""}`,
  async execute(args, ctx) {
    const parsed = parseSymbolName(args.symbol, "symbol");
    if (!parsed.ok) return parsed;
    const name = parsed.name;
    let under: string | undefined;
    if (args.path && args.path !== "." && args.path !== "/") {
      const p = toolPath(ctx.root, args.path, { mustExist: false });
      if (!p.ok) return p;
      if (p.rel !== ".") under = p.rel;
    }
    const dot = name.lastIndexOf(".");
    const needle = dot > 0 ? name.slice(dot + 1) : name;
    const reader = indexReaderOf(ctx.store);
    const declared = await symbolLocations(reader, name);
    const declaredAt = new Set(declared.map((d) => `${d.path}:${d.line}`));
    // `Class.method` (or a dotted name the index does not hold, like a static property): member uses in
    // files that mention the class. `util.assertEqual`, declared in `namespace util`: uses of the name,
    // `util.assertEqual(…)` and bare ones inside the namespace, in files that mention the namespace.
    const inNamespace = dot > 0 && declared.some((d) => d.kind !== "method");
    const owner = dot > 0 && !inNamespace ? name.slice(name.lastIndexOf(".", dot - 1) + 1, dot) : null;
    const mentions = inNamespace ? name.slice(0, name.indexOf(".")) : owner;

    const started = performance.now();
    const slicer = new TimeSlicer();
    const pattern = identifierPattern(needle);
    const byFile = new Map<string, ReferenceLine[]>();
    let found = 0;
    let approxFiles = 0;
    let approxLines = 0;
    let scanned = 0;
    // Identifiers need no JSON escaping, so a substring test on the stored JSON is a safe prefilter.
    const mayContain = (raw: string) => raw.includes(needle) && (!mentions || raw.includes(mentions));
    for await (const file of scanIndexedTexts(ctx.store, { ...(under ? { under } : {}), mayContain })) {
      ctx.signal?.throwIfAborted();
      const language = languageForPath(file.path);
      if (!language || !CODE_LANGUAGES.has(language)) continue;
      if (pastBudget(performance.now() - started, found >= MAX_REFERENCES, REFERENCE_SCAN_BUDGET_MS)) {
        const hits = countTextHits(file.lines, pattern);
        if (hits) {
          approxFiles++;
          approxLines += hits;
        }
        continue;
      }
      scanned++;
      const occurrences = findIdentifierOccurrences(file.lines.join("\n"), language, needle, { membersOnly: !!owner });
      const lines = new Map<number, ReferenceLine>();
      let ownerRanges: Array<[number, number]> | null = null;
      for (const o of occurrences) {
        const at = `${file.path}:${o.line}`;
        // For `Class.method`, a member of that name declared in another class is not a reference.
        if (owner && o.role === "definition" && !declaredAt.has(at)) {
          ownerRanges ??= ((await ctx.store.getAst(file.path))?.classes ?? []).filter((c) => c.name === owner).map((c) => [c.lineStart, c.lineEnd]);
          if (!ownerRanges.some(([a, b]) => o.line >= a && o.line <= b)) continue;
        }
        let entry = lines.get(o.line);
        if (!entry) lines.set(o.line, (entry = { line: o.line, roles: new Set(), text: lineText(file.lines[o.line - 1]) }));
        entry.roles.add(declaredAt.has(at) ? "definition" : o.role);
      }
      if (lines.size) {
        byFile.set(file.path, [...lines.values()]);
        found += lines.size;
      }
      await slicer.maybeYield();
    }

    const renamed = declared.length
      ? await renamedCalls(reader, ctx.store, declared, name, (p, line) => !!byFile.get(p)?.some((r) => r.line === line), under)
      : { shown: [], total: 0 };
    if (!found && !approxLines && !renamed.total) {
      const scope = under ? ` under ${under}` : "";
      const suggestions = under ? [] : await suggestSymbols(reader, name);
      return {
        ok: false,
        code: "NOT_FOUND",
        message: `no code references to "${name}"${scope} (comments and strings are not counted).${didYouMean(suggestions)}`,
      };
    }

    // Files that declare the symbol first, then by path. When there are more lines than MAX_REFERENCES,
    // uses come before lines that only import or re-export it: 74 of 100 shown lines were imports once,
    // and the uses were cut off.
    const declaringFiles = new Set(declared.map((d) => d.path));
    const files = [...byFile.keys()].sort((a, b) => Number(declaringFiles.has(b)) - Number(declaringFiles.has(a)) || a.localeCompare(b));
    const onlyImports = (r: ReferenceLine) => [...r.roles].every((role) => role === "import" || role === "export");
    const picked = new Set<ReferenceLine>();
    for (const pass of [false, true]) {
      for (const f of files) {
        for (const r of byFile.get(f)!) {
          if (picked.size >= MAX_REFERENCES) break;
          if (onlyImports(r) === pass) picked.add(r);
        }
      }
    }
    const shownFiles = files.filter((f) => byFile.get(f)!.some((r) => picked.has(r)));
    const [asts, calls] = await Promise.all([ctx.store.getAsts(shownFiles), callSitesOf(reader, shownFiles)]);

    const roleCounts = new Map<ReferenceRole, number>();
    for (const refs of byFile.values()) for (const r of refs) for (const role of r.roles) roleCounts.set(role, (roleCounts.get(role) ?? 0) + 1);
    const out: string[] = [];
    let shown = 0;
    const hiddenFiles = files.length - shownFiles.length;
    let hiddenImports = 0;
    for (const refs of byFile.values()) for (const r of refs) if (!picked.has(r) && onlyImports(r)) hiddenImports++;
    for (const f of shownFiles) {
      const refs = byFile.get(f)!.filter((r) => picked.has(r));
      out.push(f);
      const callers = new Map<number, string>();
      for (const c of calls.get(f) ?? []) if (c.callee === needle || c.callee.endsWith(`.${needle}`)) callers.set(c.line, c.caller);
      const width = String(refs[refs.length - 1]!.line).length;
      for (const r of refs) {
        shown++;
        const roles = ROLE_ORDER.filter((x) => r.roles.has(x)).join(",");
        const caller = callers.get(r.line);
        const inside = caller && caller !== "<module>" ? caller : enclosingDeclaration(asts.get(f), r.line);
        const where = inside && !r.roles.has("definition") ? ` in ${inside}` : "";
        out.push(`  ${String(r.line).padStart(width)} ${roles}${where} │ ${r.text}`);
      }
    }
    const counts = ROLE_ORDER.filter((r) => roleCounts.has(r)).map((r) => `${roleCounts.get(r)} ${r}`).join(", ");
    const head = `${name}: ${found} line${found === 1 ? "" : "s"} in ${byFile.size} file${byFile.size === 1 ? "" : "s"}${under ? ` under ${under}` : ""} (${counts})${owner ? `; member uses of .${needle} in files mentioning ${owner}, receivers not type-checked` : ""}`;
    if (renamed.total) {
      out.push(`called under other names (${renamed.total}):`);
      for (const c of renamed.shown) out.push(`  ${c.path}:${c.line} ${c.callee}()${c.caller !== "<module>" ? ` in ${c.caller}` : ""} │ ${c.text}`);
      if (renamed.total > renamed.shown.length) out.push(`  … ${renamed.total - renamed.shown.length} more`);
    }
    const tail: string[] = [];
    if (found > shown) {
      const imports = hiddenImports ? ` (${hiddenImports} of them import lines)` : "";
      tail.push(`… ${found - shown} more lines${imports}${hiddenFiles ? `, ${hiddenFiles} file${hiddenFiles === 1 ? "" : "s"} not shown at all` : ""}; narrow with path=<folder>`);
    }
    if (approxLines) tail.push(`… about ${approxLines} more text matches in ${approxFiles} files not checked (parsing stopped after ${REFERENCE_SCAN_BUDGET_MS / 1000} s)`);
    return {
      ok: true,
      llm: [head, ...out, ...tail].join("\n"),
      data: {
        symbol: name,
        total: found,
        files: byFile.size,
        approximateMore: approxLines,
        renamedCalls: renamed.shown,
        references: shownFiles.flatMap((f) => byFile.get(f)!.filter((r) => picked.has(r)).map((r) => ({ path: f, line: r.line, roles: [...r.roles], text: r.text }))),
      },
      display: { summary: `${counted(found, "reference")} in ${counted(byFile.size, "file")}${renamed.total ? ` + ${renamed.total} under other names` : ""} (${scanned} parsed)` },
    };
  },
});
