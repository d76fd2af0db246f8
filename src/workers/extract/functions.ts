// FunctionInfo from function declarations, overload signatures, and function values bound to
// const/let/var. Overloads fold into one record per name and container: the implementation gives the
// params and return type, the record spans from the first signature to the last declaration.
import type { FunctionInfo } from "../ast-types.js";
import type { CodeContext } from "./code-context.js";
import { annotationText, nameText, paramNames, readModifiers, type SyntaxNode } from "./node-helpers.js";

/** Where a declaration sits: its outer start (export keyword, decorators) and export state. */
export interface Placement {
  start: number;
  end: number;
  isExported: boolean;
  /** Identifies the enclosing program or namespace body, so overloads fold only within it. */
  containerKey: number;
}

export const FUNCTION_VALUE_TYPES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** function_declaration, generator_function_declaration, or a bodiless function_signature. */
export function addFunctionDeclaration(ctx: CodeContext, node: SyntaxNode, place: Placement, nameOverride?: string): FunctionInfo {
  const nameNode = node.childForFieldName("name");
  const name = nameOverride ?? (nameNode ? nameText(ctx.text, nameNode) : "default");
  const params = node.childForFieldName("parameters");
  const mods = readModifiers(ctx.text, node);
  const hasBody = node.childForFieldName("body") !== null;
  const info: FunctionInfo = {
    name,
    lineStart: ctx.text.lineAt(place.start),
    lineEnd: ctx.text.lineAt(place.end - 1),
    params: paramNames(ctx.text, params),
    isAsync: mods.isAsync,
    isExported: place.isExported,
  };
  const returnType = annotationText(ctx.text, node.childForFieldName("return_type"));
  if (returnType !== undefined) info.returnType = returnType;
  if (mods.isGenerator || node.type === "generator_function_declaration") info.isGenerator = true;
  return foldIntoGroup(ctx, info, hasBody, place);
}

/** Returns the record that represents the group (the first declaration's, updated). */
function foldIntoGroup(ctx: CodeContext, info: FunctionInfo, hasBody: boolean, place: Placement): FunctionInfo {
  const key = `${place.containerKey}:${info.name}`;
  const group = ctx.functionGroups.get(key);
  if (!group) {
    const scope = { start: place.start, end: place.end, name: info.name };
    ctx.functionGroups.set(key, { info, hasBody, bodiless: hasBody ? 0 : 1, declarations: 1, scope });
    ctx.ast.functions.push(info);
    ctx.scopes.push(scope);
    return info;
  }
  const folded = group.info;
  group.declarations += 1;
  if (hasBody && !group.hasBody) {
    group.hasBody = true;
    folded.params = info.params;
    folded.isAsync = info.isAsync;
    if (info.returnType !== undefined) folded.returnType = info.returnType;
    else delete folded.returnType;
    if (info.isGenerator) folded.isGenerator = true;
  } else if (!hasBody) {
    group.bodiless += 1;
  }
  folded.isExported = folded.isExported || info.isExported;
  folded.lineEnd = Math.max(folded.lineEnd, info.lineEnd);
  folded.overloads = group.bodiless;
  group.scope.end = Math.max(group.scope.end, place.end);
  return folded;
}

/**
 * `const f = () => …`, `let g = function* () {…}` (isBound), or `export default async () => …`.
 * isArrow marks arrows and function expressions bound to a variable; an anonymous default-exported
 * `function () {}` is not one.
 */
export function addFunctionValue(ctx: CodeContext, value: SyntaxNode, name: string, place: Placement, isBound: boolean): FunctionInfo {
  const params = value.childForFieldName("parameters") ?? value.childForFieldName("parameter");
  const paramList = params?.type === "formal_parameters" ? paramNames(ctx.text, params) : params ? [ctx.text.text(params)] : [];
  const mods = readModifiers(ctx.text, value);
  const info: FunctionInfo = {
    name,
    lineStart: ctx.text.lineAt(place.start),
    lineEnd: ctx.text.lineAt(place.end - 1),
    params: paramList,
    isAsync: mods.isAsync,
    isExported: place.isExported,
  };
  if (isBound || value.type === "arrow_function") info.isArrow = true;
  const returnType = annotationText(ctx.text, value.childForFieldName("return_type"));
  if (returnType !== undefined) info.returnType = returnType;
  if (mods.isGenerator || value.type === "generator_function") info.isGenerator = true;
  ctx.ast.functions.push(info);
  ctx.scopes.push({ start: place.start, end: place.end, name });
  return info;
}
