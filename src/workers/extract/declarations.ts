// The statement walk: visits the program's statements (and namespace / `declare module` bodies) once and
// dispatches each declaration to its extractor. Function bodies are never entered here; the deep pass
// (calls.ts) covers what lives inside them.
import type { ExportKind, TypeDeclInfo } from "../ast-types.js";
import { pushExport, type CodeContext, type ExportMark } from "./code-context.js";
import { addClass } from "./classes.js";
import { addCommonJsExport, addExportStatement } from "./exports.js";
import { addFunctionDeclaration, addFunctionValue, FUNCTION_VALUE_TYPES, type Placement } from "./functions.js";
import { addImportStatement, addRequireDeclarator } from "./imports.js";
import { LightNode } from "./light-tree.js";
import { boundNames, nameText, type SyntaxNode } from "./node-helpers.js";

const TYPE_KINDS: Record<string, TypeDeclInfo["kind"]> = {
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
  module: "namespace",
};

/** The container key of top-level statements (any other container's is its start offset). */
const TOP_LEVEL = -1;

export function walkStatements(ctx: CodeContext, container: SyntaxNode, topLevel: boolean): void {
  // The program is one container even when a large file is walked a piece at a time (source-pieces.ts).
  const containerKey = topLevel ? TOP_LEVEL : container.startIndex;
  let previous: SyntaxNode | null = null;
  for (const stmt of container.namedChildren) {
    const place: Placement = { start: stmt.startIndex, end: stmt.endIndex, isExported: false, containerKey };
    const before = previous;
    previous = stmt;
    if (stmt.type === "statement_block" && before && isGlobalKeyword(ctx, before)) {
      // `global { … }` inside `declare module "m" { … }` parses as the word `global` and a block.
      addType(ctx, "global", "namespace", { ...place, start: before.startIndex }, null, topLevel);
      walkStatements(ctx, stmt, false);
      continue;
    }
    if (hasError(stmt) && recoverDefaultSignature(ctx, stmt, topLevel, containerKey)) continue;
    switch (stmt.type) {
      case "import_statement":
        if (topLevel) addImportStatement(ctx, stmt);
        break;
      case "export_statement":
        addExportStatement(ctx, stmt, topLevel, containerKey);
        break;
      case "expression_statement": {
        const expr = stmt.firstNamedChild;
        if (expr?.type === "internal_module") addDeclaration(ctx, expr, place, null, [], topLevel);
        else if (expr?.type === "assignment_expression" && topLevel) addCommonJsExport(ctx, stmt, expr);
        break;
      }
      default:
        addDeclaration(ctx, stmt, place, null, [], topLevel);
    }
  }
}

function isGlobalKeyword(ctx: CodeContext, stmt: SyntaxNode): boolean {
  return stmt.type === "expression_statement" && ctx.text.text(stmt) === "global";
}

function hasError(stmt: SyntaxNode): boolean {
  return (stmt.type === "expression_statement" || stmt.type === "export_statement") && stmt.children.some((c) => c.type === "ERROR");
}

/**
 * `export default function (a: T): R;` (emitted in .d.ts files) is beyond the grammar and comes back as an
 * ERROR holding the parameters and return type: recovered as the default-exported function signature.
 */
function recoverDefaultSignature(ctx: CodeContext, stmt: SyntaxNode, topLevel: boolean, containerKey: number): boolean {
  if (!/^export\s+default\s+(?:async\s+)?function\b/.test(ctx.text.text(stmt))) return false;
  const error = stmt.children.find((c) => c.type === "ERROR");
  const params = error?.children.find((c) => c.type === "formal_parameters");
  if (!error || !params) return false;
  // Rebuilt as a bodiless signature; the return type is kept only when the recovery labelled it.
  const returnType = error.childForFieldName("return_type");
  const signature = new LightNode("function_signature", null, true, error.startIndex, error.endIndex, [
    new LightNode(params.type, "parameters", true, params.startIndex, params.endIndex, params.children),
    ...(returnType ? [returnType] : []),
  ]);
  const info = addFunctionDeclaration(ctx, signature, { start: stmt.startIndex, end: stmt.endIndex, isExported: true, containerKey }, "default");
  declare(ctx, info.name, "function", info, topLevel ? { line: ctx.text.lineAt(stmt.startIndex), isDefault: true } : null, topLevel);
  return true;
}

/** Records a declaration; `mark` is set for `export …` forms, `decorators` are those written before `export`. */
export function addDeclaration(
  ctx: CodeContext,
  decl: SyntaxNode,
  place: Placement,
  mark: ExportMark | null,
  decorators: string[],
  topLevel: boolean,
): void {
  const text = ctx.text;
  switch (decl.type) {
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature": {
      const info = addFunctionDeclaration(ctx, decl, place);
      declare(ctx, info.name, "function", info, mark, topLevel);
      return;
    }
    case "class_declaration":
    case "abstract_class_declaration": {
      const info = addClass(ctx, decl, place, { decorators });
      declare(ctx, info.name, "class", info, mark, topLevel);
      return;
    }
    case "interface_declaration":
    case "type_alias_declaration":
    case "enum_declaration":
    case "internal_module":
    case "module": {
      const name = declName(ctx, decl);
      if (name === undefined) return;
      const kind = TYPE_KINDS[decl.type]!;
      const info = addType(ctx, name, kind, place, mark, topLevel);
      const body = decl.childForFieldName("body");
      if (!body || kind !== "namespace") return;
      // `declare module "m" { … }` adds to another module's names: its members stay bare.
      const named = decl.childForFieldName("name");
      if (named?.type === "identifier" || named?.type === "nested_identifier") walkNamespaceBody(ctx, name, info, body);
      else walkStatements(ctx, body, false);
      return;
    }
    case "ambient_declaration":
      for (const inner of decl.namedChildren) {
        if (inner.type === "statement_block") {
          // `declare global { … }`
          addType(ctx, "global", "namespace", place, null, topLevel);
          walkStatements(ctx, inner, false);
        } else {
          addDeclaration(ctx, inner, place, mark, decorators, topLevel);
        }
      }
      return;
    case "lexical_declaration":
    case "variable_declaration":
      addVariables(ctx, decl, place, mark, topLevel);
      return;
    case "import_alias": {
      // `export import A = B.C`: exports A; the plain form is a local alias.
      const local = decl.firstNamedChild;
      if (local && mark && topLevel) pushExport(ctx, text.text(local), "const", mark);
      return;
    }
  }
}

/**
 * Walks `namespace util { … }`: what it declares is `util.member` to the graph (symbols, and the callers
 * of calls made inside), as a class's methods are `Class.method`, so `util.member()` from elsewhere lands
 * on it. Nested namespaces add their names on the way out (`A.B.f`).
 */
function walkNamespaceBody(ctx: CodeContext, name: string, info: TypeDeclInfo, body: SyntaxNode): void {
  const { functions, classes, types } = ctx.ast;
  const from = { functions: functions.length, classes: classes.length, types: types.length, scopes: ctx.scopes.length };
  walkStatements(ctx, body, false);
  const qualified = ctx.qualifiedNames;
  const qualify = (member: { name: string }) => void qualified.set(member, `${name}.${qualified.get(member) ?? member.name}`);
  functions.slice(from.functions).forEach(qualify);
  classes.slice(from.classes).forEach(qualify);
  types.slice(from.types).forEach(qualify);
  for (const scope of ctx.scopes.slice(from.scopes)) scope.name = `${name}.${scope.name}`;
  if (!qualified.has(info)) qualified.set(info, name);
}

function declName(ctx: CodeContext, decl: SyntaxNode): string | undefined {
  const nameNode = decl.childForFieldName("name");
  return nameNode ? nameText(ctx.text, nameNode) : undefined;
}

function addType(
  ctx: CodeContext,
  name: string,
  kind: TypeDeclInfo["kind"],
  place: Placement,
  mark: ExportMark | null,
  topLevel: boolean,
): TypeDeclInfo {
  const info: TypeDeclInfo = {
    name,
    kind,
    lineStart: ctx.text.lineAt(place.start),
    lineEnd: ctx.text.lineAt(place.end - 1),
    isExported: place.isExported,
  };
  ctx.ast.types.push(info);
  declare(ctx, name, kind, info, mark, topLevel);
  return info;
}

/** Remembers a top-level declaration for `export { name }` resolution and records its export. */
function declare(
  ctx: CodeContext,
  name: string,
  kind: ExportKind,
  record: { isExported: boolean },
  mark: ExportMark | null,
  topLevel: boolean,
): void {
  if (!topLevel) return;
  const known = ctx.topLevel.get(name);
  if (known) known.records.push(record);
  else ctx.topLevel.set(name, { kind, records: [record] });
  if (mark) pushExport(ctx, name, kind, mark);
}

/** Each declarator of `const/let/var`: function values become functions, class values classes. */
function addVariables(ctx: CodeContext, decl: SyntaxNode, place: Placement, mark: ExportMark | null, topLevel: boolean): void {
  const declarators = decl.namedChildren.filter((d) => d.type === "variable_declarator");
  declarators.forEach((declarator, index) => {
    const nameNode = declarator.childForFieldName("name");
    if (!nameNode) return;
    const value = declarator.childForFieldName("value");
    // The first declarator starts with its statement (`export const`), later ones on their own line.
    const start = index === 0 ? place.start : declarator.startIndex;
    const end = declarators.length === 1 ? place.end : declarator.endIndex;
    const at: Placement = { ...place, start, end };
    const line = ctx.text.lineAt(start);
    const isName = nameNode.type === "identifier";
    let kind: ExportKind = "const";
    let record: { isExported: boolean } = { isExported: place.isExported };
    if (value && isName && FUNCTION_VALUE_TYPES.has(value.type)) {
      record = addFunctionValue(ctx, value, ctx.text.text(nameNode), at, true);
      kind = "function";
    } else if (value && isName && value.type === "class") {
      record = addClass(ctx, value, at, { name: ctx.text.text(nameNode), decorators: [] });
      kind = "class";
    } else if (value?.type === "call_expression" && topLevel) {
      addRequireDeclarator(ctx, nameNode, value);
    }
    const names = isName ? [ctx.text.text(nameNode)] : boundNames(ctx.text, nameNode);
    for (const name of names) declare(ctx, name, kind, record, mark ? { line, isDefault: false } : null, topLevel);
  });
}
