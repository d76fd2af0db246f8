// ExportInfo records: `export …` statements (declarations, default, clauses, `export =`, re-exports) and
// CommonJS `module.exports` / `exports.x` assignments at the top level.
import type { ExportInfo, ExportKind, ImportInfo } from "../ast-types.js";
import { pushExport, type CodeContext, type ExportMark } from "./code-context.js";
import { addClass } from "./classes.js";
import { addDeclaration } from "./declarations.js";
import { addFunctionValue, FUNCTION_VALUE_TYPES } from "./functions.js";
import { importRecord, specifierOf } from "./imports.js";
import { decoratorName, nameText, type SyntaxNode } from "./node-helpers.js";
import { stringLiteralValue } from "./source-text.js";

export function addExportStatement(ctx: CodeContext, stmt: SyntaxNode, topLevel: boolean, containerKey: number): void {
  const text = ctx.text;
  const line = text.lineAt(stmt.startIndex);
  const decorators: string[] = [];
  let isDefault = false;
  let isEquals = false;
  let isTypeOnly = false;
  let clause: SyntaxNode | null = null;
  let namespaceExport: SyntaxNode | null = null;
  for (const child of stmt.children) {
    switch (child.type) {
      case "decorator":
        decorators.push(decoratorName(text.text(child)));
        break;
      case "default":
        isDefault = true;
        break;
      case "=":
        isEquals = true;
        break;
      case "type":
        isTypeOnly = true;
        break;
      case "export_clause":
        clause = child;
        break;
      case "namespace_export":
        namespaceExport = child;
        break;
    }
  }
  const from = specifierOf(ctx, stmt.childForFieldName("source"));
  if (from !== undefined) {
    // `export type * from` is newer than the grammar (an ERROR node), so the text decides type-only.
    if (topLevel) addReExport(ctx, stmt, from, clause, namespaceExport, isTypeOnly || /^export\s+type\b/.test(text.text(stmt)));
    return;
  }
  const mark: ExportMark | null = topLevel ? { line, isDefault } : null;
  const place = { start: stmt.startIndex, end: stmt.endIndex, isExported: true, containerKey };
  const declaration = stmt.childForFieldName("declaration");
  if (declaration) {
    addDeclaration(ctx, declaration, place, mark, decorators, topLevel);
    return;
  }
  const value = stmt.childForFieldName("value");
  if (value && isDefault) {
    addDefaultValue(ctx, value, place, mark, decorators);
    return;
  }
  if (isEquals) {
    // `export = x`
    const target = stmt.namedChildren.find((c) => c.type !== "comment" && c.type !== "decorator");
    if (mark) pushExport(ctx, "=", "default", { line, isDefault: false });
    if (target?.type === "identifier") {
      ctx.localExports.push({ local: text.text(target) });
      ctx.moduleLocal = text.text(target);
    }
    return;
  }
  if (clause && topLevel) {
    for (const spec of clause.namedChildren) {
      if (spec.type !== "export_specifier") continue;
      const local = spec.childForFieldName("name");
      if (!local) continue;
      const alias = spec.childForFieldName("alias");
      const exported = nameText(text, alias ?? local);
      const info = pushExport(ctx, exported, "const", { line: text.lineAt(spec.startIndex), isDefault: exported === "default" });
      ctx.localExports.push({ local: nameText(text, local), info });
      if (exported === "default") ctx.defaultLocal = nameText(text, local);
    }
  }
  // `export as namespace X` (UMD global name) declares no module export.
}

/** `export default <expr>`: functions and classes keep their own name or become `default`. */
function addDefaultValue(
  ctx: CodeContext,
  value: SyntaxNode,
  place: { start: number; end: number; isExported: boolean; containerKey: number },
  mark: ExportMark | null,
  decorators: string[],
): void {
  const ownName = value.childForFieldName("name");
  const name = ownName ? ctx.text.text(ownName) : "default";
  if (FUNCTION_VALUE_TYPES.has(value.type)) {
    addFunctionValue(ctx, value, name, place, false);
    if (mark) pushExport(ctx, name, "function", mark);
  } else if (value.type === "class") {
    addClass(ctx, value, place, { name, decorators });
    if (mark) pushExport(ctx, name, "class", mark);
  } else {
    if (mark) pushExport(ctx, "default", "default", mark);
    if (value.type === "identifier") {
      ctx.localExports.push({ local: ctx.text.text(value) });
      ctx.defaultLocal = ctx.text.text(value);
    }
  }
}

function addReExport(
  ctx: CodeContext,
  stmt: SyntaxNode,
  from: string,
  clause: SyntaxNode | null,
  namespaceExport: SyntaxNode | null,
  isTypeOnly: boolean,
): void {
  const text = ctx.text;
  const line = text.lineAt(stmt.startIndex);
  const edge = (name: string, typeOnly: boolean, alias?: string): void => {
    const record: ImportInfo = importRecord(name, from, line, name === "default");
    record.isReExport = true;
    if (typeOnly) record.isTypeOnly = true;
    ctx.ast.imports.push(record);
    if (alias !== undefined && alias !== name) ctx.reExportAliases.set(record, alias);
  };
  const exportOf = (name: string, at: number): void => {
    const info: ExportInfo = { name, type: "reexport", line: at, from };
    if (name === "default") info.isDefault = true;
    ctx.ast.exports.push(info);
  };
  if (clause) {
    for (const spec of clause.namedChildren) {
      if (spec.type !== "export_specifier") continue;
      const source = spec.childForFieldName("name");
      if (!source) continue;
      const alias = spec.childForFieldName("alias");
      const sourceName = nameText(text, source);
      const exportedName = alias ? nameText(text, alias) : sourceName;
      edge(sourceName, isTypeOnly || spec.firstChild?.type === "type", exportedName);
      exportOf(exportedName, text.lineAt(spec.startIndex));
    }
    if (clause.namedChildCount === 0) edge("*", isTypeOnly);
    return;
  }
  const nsName = namespaceExport?.firstNamedChild;
  // `export * as ns from`: one name, the module's namespace; not a star that forwards its names.
  edge("*", isTypeOnly, nsName ? nameText(text, nsName) : undefined);
  exportOf(nsName ? nameText(text, nsName) : "*", line);
}

/** `module.exports = …`, `module.exports.x = …`, `exports.x = …` as top-level statements. */
export function addCommonJsExport(ctx: CodeContext, stmt: SyntaxNode, assignment: SyntaxNode): void {
  const left = assignment.childForFieldName("left");
  const right = assignment.childForFieldName("right");
  if (left?.type !== "member_expression" || !right) return;
  const target = ctx.text.text(left).replace(/\s+/g, "");
  const line = ctx.text.lineAt(stmt.startIndex);
  if (target === "module.exports") {
    if (right.type === "object") addCommonJsObject(ctx, right, line);
    else {
      pushExport(ctx, "=", "default", { line, isDefault: false });
      if (right.type === "identifier") {
        ctx.localExports.push({ local: ctx.text.text(right) });
        ctx.moduleLocal = ctx.text.text(right);
      }
    }
    return;
  }
  const match = /^(?:module\.)?exports\.([\w$]+)$/.exec(target);
  if (!match) return;
  const name = match[1]!;
  const mark = { line, isDefault: name === "default" };
  if (right.type === "identifier") {
    ctx.localExports.push({ local: ctx.text.text(right), info: pushExport(ctx, name, "const", mark) });
  } else {
    pushExport(ctx, name, valueKind(right), mark);
  }
}

/** `module.exports = { a, b: c, d() {} }`: one export per key; shorthand and identifier values resolve locally. */
function addCommonJsObject(ctx: CodeContext, object: SyntaxNode, line: number): void {
  const text = ctx.text;
  for (const prop of object.namedChildren) {
    if (prop.type === "shorthand_property_identifier") {
      const name = text.text(prop);
      ctx.localExports.push({ local: name, info: pushExport(ctx, name, "const", { line, isDefault: false }) });
    } else if (prop.type === "pair") {
      const key = prop.childForFieldName("key");
      const value = prop.childForFieldName("value");
      if (!key || key.type === "computed_property_name") continue;
      const name = key.type === "string" ? stringLiteralValue(text.text(key)) : text.text(key);
      if (value?.type === "identifier") {
        ctx.localExports.push({ local: text.text(value), info: pushExport(ctx, name, "const", { line, isDefault: false }) });
      } else {
        pushExport(ctx, name, value ? valueKind(value) : "const", { line, isDefault: false });
      }
    } else if (prop.type === "method_definition") {
      const key = prop.childForFieldName("name");
      if (key && key.type !== "computed_property_name") pushExport(ctx, nameText(text, key), "function", { line, isDefault: false });
    }
  }
}

function valueKind(value: SyntaxNode): ExportKind {
  if (FUNCTION_VALUE_TYPES.has(value.type)) return "function";
  return value.type === "class" ? "class" : "const";
}

/**
 * After the walk: `export { a }`-style exports take the kind of the local declaration, the declaration is
 * marked exported, and duplicate export records (overloads, merged declarations) collapse to the first.
 */
export function resolveLocalExports(ctx: CodeContext): void {
  for (const { local, info } of ctx.localExports) {
    const declared = ctx.topLevel.get(local);
    if (!declared) continue;
    for (const record of declared.records) record.isExported = true;
    if (info && info.type === "const") info.type = declared.kind;
  }
  const seen = new Set<string>();
  ctx.ast.exports = ctx.ast.exports.filter((info) => {
    const key = `${info.name}\0${info.from ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
