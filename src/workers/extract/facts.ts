// GraphFacts: the slice of a file's AST the graph pass needs, kept small to cross threads cheaply.
import type { CallSite, FileAST, ImportInfo } from "../ast-types.js";
import type { GraphFacts } from "../protocol.js";

/** What the statement walk learnt about names that the AST does not keep (code-context.ts says what each is). */
export interface FactNames {
  reExportAliases?: ReadonlyMap<ImportInfo, string>;
  importedNames?: ReadonlyMap<ImportInfo, string>;
  defaultLocal?: string;
  moduleLocal?: string;
  /** `export { a as b }` without `from` and the like: the local name and, when known, the export record. */
  localExports?: ReadonlyArray<{ local: string; info?: { name: string } }>;
  /** Declarations inside namespaces (and the namespaces) → `ns.name` (see CodeContext). */
  qualifiedNames?: ReadonlyMap<object, string>;
}

type ImportFact = GraphFacts["imports"][number];

/**
 * Imported bindings the file exports again (`import { Button } from "./Button"; export { Button }`,
 * `import Card from "./card"; export default Card`): re-exports as far as the graph is concerned, so a
 * call through this file reaches the declaring one. require() bindings are left out: the routes read a
 * module object only where a call starts, not one passed on by another module.
 */
function forwardedImports(imports: ImportFact[], names: FactNames): ImportFact[] {
  const byLocal = new Map<string, ImportFact>();
  for (const i of imports) if (!i.isReExport && !i.isDynamic && i.name !== "*") byLocal.set(i.name, i);
  if (!byLocal.size) return [];
  const exported = new Map<string, string>();
  for (const e of names.localExports ?? []) if (e.info && byLocal.has(e.local)) exported.set(e.info.name, e.local);
  if (names.defaultLocal && byLocal.has(names.defaultLocal)) exported.set("default", names.defaultLocal);
  const out: ImportFact[] = [];
  for (const [as, local] of exported) {
    const i = byLocal.get(local) as ImportFact;
    const source = i.imported ?? i.name;
    const edge: ImportFact = { from: i.from, name: source, isReExport: true };
    if (i.isTypeOnly) edge.isTypeOnly = true;
    if (as !== source) edge.as = as;
    out.push(edge);
  }
  return out;
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
  const forwarded = forwardedImports(imports, names);
  imports.push(...forwarded);
  const forwardedNames = new Set(forwarded.map((f) => f.as ?? f.name));
  const exports = ast.exports.map((e) => {
    const fact: GraphFacts["exports"][number] = { name: e.name, type: e.type, line: e.line };
    if (e.from !== undefined) fact.from = e.from;
    return fact;
  });
  const symbols: GraphFacts["symbols"] = [];
  const qualified = names.qualifiedNames;
  const nameOf = (d: { name: string }) => qualified?.get(d) ?? d.name;
  for (const f of ast.functions) symbols.push({ name: nameOf(f), kind: "function", line: f.lineStart });
  for (const c of ast.classes) {
    const name = nameOf(c);
    symbols.push({ name, kind: "class", line: c.lineStart });
    for (const m of c.methods) symbols.push({ name: `${name}.${m.name}`, kind: "method", line: m.lineStart });
  }
  for (const t of ast.types) {
    // A namespace with a name of its own is a symbol (`util` in `util.assertEqual()`); `declare global`
    // and `declare module "m"` are not.
    if (t.kind !== "namespace" || qualified?.has(t)) symbols.push({ name: nameOf(t), kind: t.kind, line: t.lineStart });
  }
  for (const e of ast.exports) {
    // An imported binding exported again is declared where it comes from, not here.
    if (e.type === "const" && e.from === undefined && !forwardedNames.has(e.name)) symbols.push({ name: e.name, kind: "const", line: e.line });
  }
  const facts: GraphFacts = { imports, exports, symbols, calls };
  const defaultExport = ast.exports.find((e) => e.isDefault && e.from === undefined);
  const defaultName = defaultExport && defaultExport.name !== "default" ? defaultExport.name : names.defaultLocal;
  if (defaultName && symbols.some((s) => s.name === defaultName)) facts.defaultName = defaultName;
  if (names.moduleLocal && symbols.some((s) => s.name === names.moduleLocal)) facts.moduleName = names.moduleLocal;
  return facts;
}

export function emptyFacts(): GraphFacts {
  return { imports: [], exports: [], symbols: [], calls: [] };
}
