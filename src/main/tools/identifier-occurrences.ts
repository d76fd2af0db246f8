// Where a name occurs as code in a JS/TS source: text matches checked against the tree-sitter node at
// their position, so hits in comments, strings, template text and JSX text are dropped. Only the matches'
// nodes are materialised (a few native calls each), never the whole tree.
import type Parser from "tree-sitter";
import { parseSource } from "../../workers/extract/parsers.js";
import { SourceText } from "../../workers/extract/source-text.js";
import type { SourceLanguage } from "../../workers/protocol.js";

/** What an occurrence does with the name, as far as syntax tells. */
export type ReferenceRole = "definition" | "import" | "export" | "call" | "new" | "type" | "jsx" | "member" | "ref";

export interface IdentifierOccurrence {
  /** 1-based. */
  line: number;
  role: ReferenceRole;
}

/** Grammars whose identifiers can reference project symbols. */
export { CODE_LANGUAGES } from "../../workers/extract/index.js";

const IDENTIFIER_TYPES = new Set([
  "identifier",
  "type_identifier",
  "property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "private_property_identifier",
]);
const MEMBER_TYPES = new Set(["property_identifier", "private_property_identifier"]);

/** Nodes whose `name` field declares what it holds. */
const DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_signature",
  "function_expression",
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "method_definition",
  "method_signature",
  "abstract_method_signature",
  "public_field_definition",
  "variable_declarator",
  "internal_module",
]);
const IMPORT_PARENTS = new Set(["import_specifier", "import_clause", "namespace_import", "import_require_clause"]);
const JSX_PARENTS = new Set(["jsx_opening_element", "jsx_closing_element", "jsx_self_closing_element"]);
// `field_definition` (JS) names its field `property`; parameters name theirs `pattern`.
const DECLARING_FIELDS = ["name", "property", "pattern"] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The name as a whole identifier: not part of a longer one (`$` and `_` count as identifier characters). */
export function identifierPattern(name: string): RegExp {
  return new RegExp(`(?<![\\p{ID_Continue}$\\u200c\\u200d#])${escapeRegExp(name)}(?![\\p{ID_Continue}$\\u200c\\u200d])`, "gu");
}

function same(a: Parser.SyntaxNode | null | undefined, b: Parser.SyntaxNode): boolean {
  return !!a && a.startIndex === b.startIndex && a.endIndex === b.endIndex;
}

function declares(parent: Parser.SyntaxNode, node: Parser.SyntaxNode): boolean {
  return DECLARING_FIELDS.some((f) => same(parent.childForFieldName(f), node));
}

export function roleOf(node: Parser.SyntaxNode): ReferenceRole {
  const parent = node.parent;
  if (!parent) return "ref";
  const pt = parent.type;
  if (node.type === "shorthand_property_identifier_pattern") return "definition";
  if (IMPORT_PARENTS.has(pt)) return "import";
  if (pt === "export_specifier") return "export";
  if ((DECLARATIONS.has(pt) || pt === "field_definition" || pt === "required_parameter" || pt === "optional_parameter") && declares(parent, node)) {
    return "definition";
  }
  if (node.type === "type_identifier") return "type";
  if (pt === "call_expression" && same(parent.childForFieldName("function"), node)) return "call";
  if (pt === "new_expression" && same(parent.childForFieldName("constructor"), node)) return "new";
  if (pt === "member_expression" && same(parent.childForFieldName("property"), node)) {
    const grand = parent.parent;
    if (grand?.type === "call_expression" && same(grand.childForFieldName("function"), parent)) return "call";
    return "member";
  }
  if (JSX_PARENTS.has(pt)) return "jsx";
  if (node.type === "property_identifier") return "member";
  return "ref";
}

export interface OccurrenceOptions {
  /** Only member names (`x.name`, `name() {}` in a class): for `Class.method` lookups. */
  membersOnly?: boolean;
}

/** Occurrences of `name` as an identifier in code; one entry per hit, in source order. */
export function findIdentifierOccurrences(source: string, language: SourceLanguage, name: string, opts: OccurrenceOptions = {}): IdentifierOccurrence[] {
  const pattern = identifierPattern(name);
  const starts: number[] = [];
  for (const m of source.matchAll(pattern)) starts.push(m.index);
  if (!starts.length) return [];
  const root = parseSource(source, language).rootNode;
  const text = new SourceText(source);
  const out: IdentifierOccurrence[] = [];
  for (const start of starts) {
    const end = start + name.length;
    const node = root.descendantForIndex(start, end);
    if (node.startIndex !== start || node.endIndex !== end || !IDENTIFIER_TYPES.has(node.type)) continue;
    if (opts.membersOnly && !MEMBER_TYPES.has(node.type)) continue;
    out.push({ line: text.lineAt(start), role: roleOf(node) });
  }
  return out;
}
