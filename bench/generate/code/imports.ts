// Import statements and the names they bring into scope.

import type { ImportSpec, ImportedName, SymbolKind } from "../model.js";
import type { Rng } from "../prng.js";

const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(["interface", "type"]);

export function isTypeOnlyKind(kind: SymbolKind): boolean {
  return TYPE_KINDS.has(kind);
}

export function localName(name: ImportedName): string {
  return name.alias ?? name.name;
}

/** One ES import line. `inlineTypes` writes `{ A, type B }` for type-only names in a mixed import (TS only). */
export function renderImport(spec: ImportSpec, inlineTypes: boolean): string {
  const named = spec.named.map((n) => {
    const text = n.alias ? `${n.name} as ${n.alias}` : n.name;
    return inlineTypes && !spec.typeOnly && isTypeOnlyKind(n.kind) ? `type ${text}` : text;
  });
  const clause: string[] = [];
  if (spec.defaultName) clause.push(spec.defaultName);
  if (spec.namespaceName) clause.push(`* as ${spec.namespaceName}`);
  if (named.length > 0) clause.push(`{ ${named.join(", ")} }`);
  const from = JSON.stringify(spec.from);
  if (clause.length === 0) return `import ${from};`;
  return `import ${spec.typeOnly ? "type " : ""}${clause.join(", ")} from ${from};`;
}

/** The top-level import block: externals and node builtins first, then workspace and aliases, then relative. */
export function renderImportBlock(specs: readonly ImportSpec[], rng: Rng, ts: boolean): string[] {
  const rank = (from: string): number => (from.startsWith(".") ? 2 : from.startsWith("@acme/") || /^[~@]\//.test(from) ? 1 : 0);
  const statics = specs.filter((spec) => !spec.dynamic);
  const ordered = [...statics].sort((a, b) => rank(a.from) - rank(b.from));
  const inline = ts && rng.chance(0.5);
  const lines: string[] = [];
  let previousRank = -1;
  for (const spec of ordered) {
    const r = rank(spec.from);
    if (previousRank !== -1 && r !== previousRank) lines.push("");
    previousRank = r;
    lines.push(renderImport(spec, inline));
  }
  return lines;
}

/** Names usable as types in annotations. */
export function importedTypeNames(specs: readonly ImportSpec[]): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (spec.dynamic) continue;
    for (const n of spec.named) if (n.kind !== "function" && n.kind !== "const" && n.kind !== "namespace" && n.kind !== "hook") out.push(localName(n));
  }
  return out;
}

/** Imported functions that bodies may call. */
export function importedCalls(specs: readonly ImportSpec[]): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (spec.dynamic || spec.typeOnly) continue;
    for (const n of spec.named) if (n.kind === "function") out.push(localName(n));
  }
  return out;
}

/** Relative specifier from one repo file to another (extension handled by the caller). */
export function relativeSpecifier(fromFile: string, toPathNoExt: string): string {
  const fromDir = fromFile.split("/").slice(0, -1);
  const to = toPathNoExt.split("/");
  let common = 0;
  while (common < fromDir.length && common < to.length - 1 && fromDir[common] === to[common]) common++;
  const ups = fromDir.length - common;
  const rest = to.slice(common).join("/");
  return ups === 0 ? `./${rest}` : `${"../".repeat(ups)}${rest}`;
}
