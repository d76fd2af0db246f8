// ImportInfo records: static imports, TS `import x = require()`, re-export edges, require() bindings and
// dynamic imports. One record per binding; a statement without bindings yields one record named `*`.
import { builtinModules } from "node:module";
import type { ImportInfo, ImportKind } from "../ast-types.js";
import type { CodeContext } from "./code-context.js";
import { boundNames, type SyntaxNode } from "./node-helpers.js";
import { stringLiteralValue } from "./source-text.js";

const BUILTINS = new Set(builtinModules);

/**
 * builtin: `node:` or a Node core module; internal: relative or absolute path; external: the rest.
 * The main thread's resolver later upgrades path aliases and workspace packages to internal.
 */
export function classifyImport(from: string): ImportKind {
  if (from.startsWith("node:") || BUILTINS.has(from)) return "builtin";
  if (from.startsWith(".") || from.startsWith("/")) return "internal";
  return "external";
}

export function importRecord(name: string, from: string, line: number, isDefault: boolean): ImportInfo {
  return { name, from, line, type: classifyImport(from), isDefault };
}

/** The module specifier of a `source:` string node. */
export function specifierOf(ctx: CodeContext, source: SyntaxNode | null): string | undefined {
  if (!source || source.type !== "string") return undefined;
  return stringLiteralValue(ctx.text.text(source));
}

export function addImportStatement(ctx: CodeContext, stmt: SyntaxNode): void {
  const line = ctx.text.lineAt(stmt.startIndex);
  let from = specifierOf(ctx, stmt.childForFieldName("source"));
  let statementTypeOnly = false;
  const records: ImportInfo[] = [];
  for (const child of stmt.children) {
    if (child.type === "type") statementTypeOnly = true;
    else if (child.type === "import_clause") readImportClause(ctx, child, records, line);
    else if (child.type === "import_require_clause") {
      from = specifierOf(ctx, child.childForFieldName("source"));
      const local = child.firstNamedChild;
      if (local?.type === "identifier") records.push(importRecord(ctx.text.text(local), "", line, false));
    }
  }
  if (from === undefined) return;
  if (records.length === 0) records.push(importRecord("*", from, line, false));
  const type = classifyImport(from);
  for (const record of records) {
    record.from = from;
    record.type = type;
    if (statementTypeOnly) record.isTypeOnly = true;
    ctx.ast.imports.push(record);
  }
}

/** import_clause: `def`, `* as ns`, `{ a as b, type C }`. `from` is filled in by the caller. */
function readImportClause(ctx: CodeContext, clause: SyntaxNode, out: ImportInfo[], line: number): void {
  const text = ctx.text;
  for (const part of clause.namedChildren) {
    if (part.type === "identifier") {
      out.push(importRecord(text.text(part), "", line, true));
    } else if (part.type === "namespace_import") {
      const local = part.firstNamedChild;
      if (!local) continue;
      const record = importRecord(text.text(local), "", line, false);
      ctx.importedNames.set(record, "*");
      out.push(record);
    } else if (part.type === "named_imports") {
      for (const spec of part.namedChildren) {
        if (spec.type !== "import_specifier") continue;
        const local = spec.childForFieldName("alias") ?? spec.childForFieldName("name");
        if (!local) continue;
        const localName = local.type === "string" ? stringLiteralValue(text.text(local)) : text.text(local);
        const imported = spec.childForFieldName("name");
        const importedName = imported === null ? localName : imported.type === "string" ? stringLiteralValue(text.text(imported)) : text.text(imported);
        const record = importRecord(localName, "", line, importedName === "default");
        if (spec.firstChild?.type === "type") record.isTypeOnly = true;
        if (importedName !== localName) ctx.importedNames.set(record, importedName);
        out.push(record);
      }
    }
  }
}

/** Names a destructuring `require()` binds, with the module's name for each when the pattern says it. */
function requireBindings(ctx: CodeContext, pattern: SyntaxNode): Array<[local: string, source: string | undefined]> {
  if (pattern.type === "identifier") return [[ctx.text.text(pattern), "="]];
  if (pattern.type !== "object_pattern") return boundNames(ctx.text, pattern).map((n) => [n, undefined]);
  return pattern.namedChildren.flatMap((p): Array<[string, string | undefined]> => {
    if (p.type === "shorthand_property_identifier_pattern") return [[ctx.text.text(p), undefined]];
    const key = p.type === "pair_pattern" ? p.childForFieldName("key") : null;
    const value = p.type === "pair_pattern" ? p.childForFieldName("value") : null;
    if (key?.type === "property_identifier" && value?.type === "identifier") return [[ctx.text.text(value), ctx.text.text(key)]];
    return boundNames(ctx.text, p).map((n) => [n, undefined]);
  });
}

/**
 * `const x = require("m")`, `const { a, b: c } = require("m")`: one import per bound name. The call is
 * remembered so the deep pass does not record it again as an anonymous `*` import. `x` binds the module
 * object (`=`: the value of `module.exports`), `c` the module's `b`.
 */
export function addRequireDeclarator(ctx: CodeContext, nameNode: SyntaxNode, value: SyntaxNode): boolean {
  const from = requireSpecifier(ctx, value);
  if (from === undefined) return false;
  const line = ctx.text.lineAt(value.startIndex);
  const bindings = requireBindings(ctx, nameNode);
  for (const [name, source] of bindings.length > 0 ? bindings : [["*", undefined] as [string, undefined]]) {
    const record = importRecord(name, from, line, false);
    record.isDynamic = true;
    ctx.ast.imports.push(record);
    if (source !== undefined && source !== name) ctx.importedNames.set(record, source);
  }
  ctx.recordedRequireCalls.add(value.startIndex);
  return true;
}

/** The specifier of `require("m")` (a call with one string literal), else undefined. */
function requireSpecifier(ctx: CodeContext, call: SyntaxNode): string | undefined {
  if (call.type !== "call_expression") return undefined;
  const callee = call.childForFieldName("function");
  if (callee?.type !== "identifier" || ctx.text.text(callee) !== "require") return undefined;
  const args = call.childForFieldName("arguments");
  const first = args?.firstNamedChild;
  return first ? specifierOf(ctx, first) : undefined;
}
