// Small readers over declaration nodes shared by the extractors: modifiers, decorators, names, params.
// Texts are sliced from the source by node range.
import type { Visibility } from "../ast-types.js";
import type { LightNode } from "./light-tree.js";
import { compact, stringLiteralValue, type SourceText } from "./source-text.js";

/** The extractors read the light mirror (light-tree.ts), which offers this subset of the SyntaxNode API. */
export type SyntaxNode = LightNode;

/** Keyword-like modifiers that tree-sitter keeps as anonymous children (or tiny named ones). */
export interface Modifiers {
  isStatic: boolean;
  isAsync: boolean;
  isAbstract: boolean;
  isReadonly: boolean;
  isGenerator: boolean;
  isOverride: boolean;
  accessor?: "get" | "set";
  visibility?: Visibility;
  decorators: string[];
}

/** Fields that end the modifier list: the name, parameters, or whatever follows them. */
const AFTER_MODIFIERS = new Set(["name", "property", "pattern", "parameters", "parameter", "return_type", "body", "value", "type"]);

/**
 * Reads the modifiers that precede a declaration's name (or, for anonymous functions, its parameters).
 * Only children before that point are inspected, so keywords in default values or bodies never count.
 */
export function readModifiers(text: SourceText, node: SyntaxNode): Modifiers {
  const mods: Modifiers = {
    isStatic: false,
    isAsync: false,
    isAbstract: false,
    isReadonly: false,
    isGenerator: false,
    isOverride: false,
    decorators: [],
  };
  for (const child of node.children) {
    if (child.field !== null && AFTER_MODIFIERS.has(child.field)) break;
    switch (child.type) {
      case "static":
        mods.isStatic = true;
        break;
      case "async":
        mods.isAsync = true;
        break;
      case "abstract":
        mods.isAbstract = true;
        break;
      case "readonly":
        mods.isReadonly = true;
        break;
      case "override_modifier":
        mods.isOverride = true;
        break;
      case "*":
        mods.isGenerator = true;
        break;
      case "get":
      case "set":
        mods.accessor = child.type;
        break;
      case "accessibility_modifier":
        mods.visibility = text.text(child) as Visibility;
        break;
      case "decorator":
        mods.decorators.push(decoratorName(text.text(child)));
        break;
    }
  }
  return mods;
}

/** `@Component({...})` → `Component`, `@a.b.c()` → `a.b.c`, `@Dec<T>()` → `Dec`. */
export function decoratorName(decoratorText: string): string {
  const body = decoratorText.startsWith("@") ? decoratorText.slice(1) : decoratorText;
  const cut = body.search(/[(<]/);
  return compact(cut === -1 ? body : body.slice(0, cut));
}

/** A member or declaration name as written; string-literal names lose their quotes. */
export function nameText(text: SourceText, nameNode: SyntaxNode): string {
  const raw = text.text(nameNode);
  if (nameNode.type === "string") return stringLiteralValue(raw);
  return nameNode.type === "computed_property_name" ? compact(raw) : raw;
}

/** Text of a `: T` annotation (type_annotation, asserts/type-predicate annotations) without the colon. */
export function annotationText(text: SourceText, annotation: SyntaxNode | null): string | undefined {
  if (!annotation) return undefined;
  const raw = text.text(annotation);
  const withoutColon = raw.startsWith(":") ? raw.slice(1) : raw;
  const result = compact(withoutColon);
  return result === "" ? undefined : result;
}

/**
 * Parameter names as written: identifiers, destructuring patterns by their text (`{ a, b }`), rest
 * parameters with their dots (`...args`). A TypeScript `this` parameter is a type annotation, not a
 * parameter, so it is left out.
 */
export function paramNames(text: SourceText, params: SyntaxNode | null): string[] {
  if (!params) return [];
  const names: string[] = [];
  for (const param of params.namedChildren) {
    const name = paramName(text, param);
    if (name !== undefined) names.push(name);
  }
  return names;
}

function paramName(text: SourceText, param: SyntaxNode): string | undefined {
  switch (param.type) {
    case "required_parameter":
    case "optional_parameter": {
      const pattern = param.childForFieldName("pattern");
      if (!pattern || pattern.type === "this") return undefined;
      return text.compactText(pattern);
    }
    case "assignment_pattern": {
      const left = param.childForFieldName("left");
      return left ? text.compactText(left) : undefined;
    }
    case "comment":
    case "decorator":
      return undefined;
    default:
      // JS: identifier, object_pattern, array_pattern, rest_pattern.
      return text.compactText(param);
  }
}

/** Identifiers bound by a declarator name: `a`, `{ a, b: c }` → a, c, `[x, ...y]` → x, y. */
export function boundNames(text: SourceText, pattern: SyntaxNode): string[] {
  switch (pattern.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      return [text.text(pattern)];
    case "pair_pattern": {
      const value = pattern.childForFieldName("value");
      return value ? boundNames(text, value) : [];
    }
    case "assignment_pattern":
    case "object_assignment_pattern": {
      const left = pattern.childForFieldName("left");
      return left ? boundNames(text, left) : [];
    }
    case "object_pattern":
    case "array_pattern":
    case "rest_pattern":
      return pattern.namedChildren.flatMap((child) => boundNames(text, child));
    default:
      return [];
  }
}

/** The visibility a `#name` implies, else the explicit modifier, else public. */
export function visibilityOf(name: string, explicit: Visibility | undefined): Visibility {
  if (name.startsWith("#")) return "private";
  return explicit ?? "public";
}
