// ClassInfo from class declarations and class expressions (TS and JS grammars): methods, accessors,
// fields, constructor parameter properties, decorators and heritage.
import type { ClassInfo, MethodInfo, PropertyInfo } from "../ast-types.js";
import type { CodeContext } from "./code-context.js";
import type { Placement } from "./functions.js";
import {
  annotationText,
  decoratorName,
  nameText,
  paramNames,
  readModifiers,
  visibilityOf,
  type SyntaxNode,
} from "./node-helpers.js";
import { compact } from "./source-text.js";

const METHOD_TYPES = new Set(["method_definition", "method_signature", "abstract_method_signature"]);
const FIELD_TYPES = new Set(["public_field_definition", "field_definition"]);

interface ClassOptions {
  /** Name from the binding (`const Foo = class {}`) or `default`; else the class's own name. */
  name?: string;
  /** Decorators written before `export`. */
  decorators: string[];
}

export function addClass(ctx: CodeContext, node: SyntaxNode, place: Placement, options: ClassOptions): ClassInfo {
  const text = ctx.text;
  const ownName = node.childForFieldName("name");
  const name = options.name ?? (ownName ? text.text(ownName) : "default");
  const info: ClassInfo = {
    name,
    lineStart: text.lineAt(place.start),
    lineEnd: text.lineAt(place.end - 1),
    methods: [],
    properties: [],
    implements: [],
    isExported: place.isExported,
  };
  const decorators = [...options.decorators];
  let body: SyntaxNode | null = null;
  for (const child of node.children) {
    if (child.type === "decorator") decorators.push(decoratorName(text.text(child)));
    else if (child.type === "class_heritage") readHeritage(ctx, child, info);
    else if (child.type === "class_body") body = child;
  }
  if (node.type === "abstract_class_declaration") info.isAbstract = true;
  if (decorators.length > 0) info.decorators = decorators;
  ctx.ast.classes.push(info);
  ctx.scopes.push({ start: place.start, end: place.end, name });
  if (body) readMembers(ctx, body, info);
  return info;
}

function readHeritage(ctx: CodeContext, heritage: SyntaxNode, info: ClassInfo): void {
  const source = ctx.text.source;
  for (const clause of heritage.namedChildren) {
    if (clause.type === "extends_clause") {
      const first = clause.firstNamedChild;
      if (first) info.extends = compact(source.slice(first.startIndex, clause.endIndex));
    } else if (clause.type === "implements_clause") {
      for (const type of clause.namedChildren) {
        if (type.type !== "comment") info.implements.push(ctx.text.compactText(type));
      }
    } else if (clause.type !== "comment") {
      // JS grammar: class_heritage holds the extended expression directly.
      info.extends = compact(source.slice(clause.startIndex, heritage.endIndex));
      return;
    }
  }
}

function readMembers(ctx: CodeContext, body: SyntaxNode, info: ClassInfo): void {
  const methodsByKey = new Map<string, { method: MethodInfo; hasBody: boolean }>();
  // TS grammar puts member decorators before the member as siblings; JS nests them in the member.
  let pending: SyntaxNode[] = [];
  for (const member of body.namedChildren) {
    if (member.type === "comment") continue;
    if (member.type === "decorator") {
      pending.push(member);
      continue;
    }
    if (METHOD_TYPES.has(member.type)) addMethod(ctx, member, pending, info, methodsByKey);
    else if (FIELD_TYPES.has(member.type)) addField(ctx, member, pending, info);
    pending = [];
  }
}

function addMethod(
  ctx: CodeContext,
  member: SyntaxNode,
  pending: SyntaxNode[],
  info: ClassInfo,
  methodsByKey: Map<string, { method: MethodInfo; hasBody: boolean }>,
): void {
  const text = ctx.text;
  const nameNode = member.childForFieldName("name");
  if (!nameNode) return;
  const name = nameText(text, nameNode);
  const mods = readModifiers(text, member);
  const params = member.childForFieldName("parameters");
  const hasBody = member.type === "method_definition";
  const start = pending.length > 0 ? pending[0]!.startIndex : member.startIndex;
  const decorators = [...pending.map((d) => decoratorName(text.text(d))), ...mods.decorators];
  const method: MethodInfo = {
    name,
    lineStart: text.lineAt(start),
    lineEnd: text.lineAt(member.endIndex - 1),
    params: paramNames(text, params),
    visibility: visibilityOf(name, mods.visibility),
    isStatic: mods.isStatic,
    isAsync: mods.isAsync,
  };
  const returnType = annotationText(text, member.childForFieldName("return_type"));
  if (returnType !== undefined) method.returnType = returnType;
  if (mods.isAbstract || member.type === "abstract_method_signature") method.isAbstract = true;
  if (mods.accessor) method.accessor = mods.accessor;
  if (decorators.length > 0) method.decorators = decorators;
  if (hasBody) ctx.scopes.push({ start, end: member.endIndex, name: `${info.name}.${name}` });
  if (name === "constructor" && params) addParameterProperties(ctx, params, info);

  // Overload signatures fold into one MethodInfo, like functions; the implementation wins.
  const key = `${mods.isStatic ? "static " : ""}${mods.accessor ?? ""} ${name}`;
  const existing = methodsByKey.get(key);
  if (!existing) {
    methodsByKey.set(key, { method, hasBody });
    info.methods.push(method);
    return;
  }
  const folded = existing.method;
  folded.lineEnd = Math.max(folded.lineEnd, method.lineEnd);
  if (hasBody && !existing.hasBody) {
    existing.hasBody = true;
    folded.params = method.params;
    folded.isAsync = method.isAsync;
    if (method.returnType !== undefined) folded.returnType = method.returnType;
    else delete folded.returnType;
  }
}

function addField(ctx: CodeContext, member: SyntaxNode, pending: SyntaxNode[], info: ClassInfo): void {
  const text = ctx.text;
  const nameNode = member.childForFieldName("name") ?? member.childForFieldName("property");
  if (!nameNode) return;
  const name = nameText(text, nameNode);
  const mods = readModifiers(text, member);
  const property: PropertyInfo = {
    name,
    line: text.lineAt(nameNode.startIndex),
    visibility: visibilityOf(name, mods.visibility),
    isStatic: mods.isStatic,
    isReadonly: mods.isReadonly,
  };
  const type = annotationText(text, member.childForFieldName("type"));
  if (type !== undefined) property.type = type;
  if (mods.isAbstract) property.isAbstract = true;
  const decorators = [...pending.map((d) => decoratorName(text.text(d))), ...mods.decorators];
  if (decorators.length > 0) property.decorators = decorators;
  info.properties.push(property);
}

/** `constructor(private readonly x: T)`: a modifier on a parameter declares a property. */
function addParameterProperties(ctx: CodeContext, params: SyntaxNode, info: ClassInfo): void {
  const text = ctx.text;
  for (const param of params.namedChildren) {
    if (param.type !== "required_parameter" && param.type !== "optional_parameter") continue;
    const pattern = param.childForFieldName("pattern");
    if (!pattern) continue;
    const mods = readModifiers(text, param);
    if (!mods.visibility && !mods.isReadonly && !mods.isOverride) continue;
    const name = text.text(pattern);
    const property: PropertyInfo = {
      name,
      line: text.lineAt(pattern.startIndex),
      visibility: visibilityOf(name, mods.visibility),
      isStatic: false,
      isReadonly: mods.isReadonly,
    };
    const type = annotationText(text, param.childForFieldName("type"));
    if (type !== undefined) property.type = type;
    if (mods.decorators.length > 0) property.decorators = mods.decorators;
    info.properties.push(property);
  }
}
