// GraphFacts: the slice of a file's AST the graph pass needs, kept small to cross threads cheaply.
import type { CallSite, FileAST, ImportInfo } from "../ast-types.js";
import type { GraphFacts } from "../protocol.js";

/** What the statement walk learnt about names that the AST does not keep (code-context.ts says what each is). */
export interface FactNames {
  reExportAliases?: ReadonlyMap<ImportInfo, string>;
  importedNames?: ReadonlyMap<ImportInfo, string>;
  defaultLocal?: string;
}

export function buildGraphFacts(ast: FileAST, calls: CallSite[], names: FactNames = {}): GraphFacts {
  const aliases = names.reExportAliases ?? new Map<ImportInfo, string>();
  const importedNames = names.importedNames ?? new Map<ImportInfo, string>();
  const imports = ast.imports.map((i) => {
    const fact: GraphFacts["imports"][number] = { from: i.from, name: i.name };
    if (i.isTypeOnly) fact.isTypeOnly = true;
    if (i.isReExport) fact.isReExport = true;
    const alias = aliases.get(i);
    if (alias !== undefined) fact.as = alias;
    // A default import names the module's default export, whatever the local name.
    const imported = importedNames.get(i) ?? (i.isDefault && !i.isReExport ? "default" : undefined);
    if (imported !== undefined && imported !== i.name) fact.imported = imported;
    if (i.isDynamic) fact.isDynamic = true;
    return fact;
  });
  const exports = ast.exports.map((e) => {
    const fact: GraphFacts["exports"][number] = { name: e.name, type: e.type, line: e.line };
    if (e.from !== undefined) fact.from = e.from;
    return fact;
  });
  const symbols: GraphFacts["symbols"] = [];
  for (const f of ast.functions) symbols.push({ name: f.name, kind: "function", line: f.lineStart });
  for (const c of ast.classes) {
    symbols.push({ name: c.name, kind: "class", line: c.lineStart });
    for (const m of c.methods) symbols.push({ name: `${c.name}.${m.name}`, kind: "method", line: m.lineStart });
  }
  for (const t of ast.types) {
    if (t.kind !== "namespace") symbols.push({ name: t.name, kind: t.kind, line: t.lineStart });
  }
  for (const e of ast.exports) {
    if (e.type === "const" && e.from === undefined) symbols.push({ name: e.name, kind: "const", line: e.line });
  }
  const facts: GraphFacts = { imports, exports, symbols, calls };
  const defaultExport = ast.exports.find((e) => e.isDefault && e.from === undefined);
  const defaultName = defaultExport && defaultExport.name !== "default" ? defaultExport.name : names.defaultLocal;
  if (defaultName && symbols.some((s) => s.name === defaultName)) facts.defaultName = defaultName;
  return facts;
}

export function emptyFacts(): GraphFacts {
  return { imports: [], exports: [], symbols: [], calls: [] };
}
