// Choosing what a module imports: only names that really exist at the target, no duplicate bindings.

import { relativeSpecifier, isTypeOnlyKind } from "../code/imports.js";
import type { ImportSpec, ImportStyle, ImportedName, SourceModule, Workspace } from "../model.js";
import type { Rng } from "../prng.js";

export function stripExtension(path: string): string {
  return path.replace(/\.(d\.ts|tsx|ts|jsx|js|cjs|mjs)$/, "");
}

/** Specifier of `target` (a file, or a folder holding index.ts) as written from `fromFile`. */
export function specifierTo(fromFile: string, target: string, style: ImportStyle, folder = false): string {
  const base = relativeSpecifier(fromFile, folder ? target : stripExtension(target));
  if (style === "bundler") return base;
  return folder ? `${base}/index.js` : `${base}.js`;
}

function nameSet(spec: ImportSpec): string[] {
  return [...(spec.defaultName ? [spec.defaultName] : []), ...(spec.namespaceName ? [spec.namespaceName] : []), ...spec.named.map((n) => n.alias ?? n.name)];
}

/** Records a spec's bindings in `taken`; returns false (and records nothing) when it would add none. */
function commit(spec: ImportSpec, taken: Set<string>): boolean {
  const names = nameSet(spec);
  if (names.length === 0) return false;
  for (const name of names) taken.add(name);
  return true;
}

/** Import 1–2 exports of another module by path. */
export function importModule(rng: Rng, fromFile: string, target: SourceModule, style: ImportStyle, taken: Set<string>): ImportSpec | undefined {
  const candidates = target.exports.filter((e) => !taken.has(e.name));
  if (candidates.length === 0) return undefined;
  const chosen = rng.sample(candidates, rng.int(1, 2));
  const spec: ImportSpec = { from: specifierTo(fromFile, target.path, style), named: [] };
  for (const symbol of chosen) {
    if (symbol.isDefault) spec.defaultName = symbol.name;
    else spec.named.push({ name: symbol.name, kind: symbol.kind });
  }
  if (!spec.defaultName && spec.named.every((n) => isTypeOnlyKind(n.kind)) && rng.chance(0.7)) spec.typeOnly = true;
  return commit(spec, taken) ? spec : undefined;
}

/** Import 1–`max` names from a barrel or package root. */
export function importPublic(rng: Rng, from: string, symbols: readonly ImportedName[], taken: Set<string>, max = 2): ImportSpec | undefined {
  const candidates = symbols.filter((s) => !taken.has(s.alias ?? s.name));
  if (candidates.length === 0) return undefined;
  const chosen = rng.sample(candidates, rng.int(1, max));
  const spec: ImportSpec = { from, named: chosen.map((s) => ({ name: s.alias ?? s.name, kind: s.kind })) };
  if (spec.named.every((n) => isTypeOnlyKind(n.kind)) && rng.chance(0.7)) spec.typeOnly = true;
  return commit(spec, taken) ? spec : undefined;
}

/** A dynamic `import()` of one value export (never a default export, never a type). */
export function importDynamic(fromFile: string, target: SourceModule, style: ImportStyle): ImportSpec | undefined {
  const value = target.exports.find((e) => !e.isDefault && (e.kind === "function" || e.kind === "class"));
  if (!value) return undefined;
  return { from: specifierTo(fromFile, target.path, style), named: [{ name: value.name, kind: value.kind }], dynamic: true };
}

/** Names from a dependency workspace: its root (`@acme/x`) or, sometimes, a deep path (`@acme/x/domain/file`). */
export function importWorkspace(rng: Rng, fromFile: string, dep: Workspace, taken: Set<string>, style: ImportStyle): ImportSpec | undefined {
  void fromFile;
  if (rng.chance(0.2)) {
    const modules = dep.domains.flatMap((d) => d.modules).filter((m) => !m.path.endsWith(".tsx"));
    if (modules.length > 0) {
      const target = rng.pick(modules);
      const candidates = target.exports.filter((e) => !e.isDefault && !taken.has(e.name));
      if (candidates.length > 0) {
        const sub = stripExtension(target.path.slice(`${dep.dir}/src/`.length));
        const from = `${dep.name}/${sub}${style === "nodenext" ? ".js" : ""}`;
        return importPublic(rng, from, candidates, taken, 1);
      }
    }
  }
  return importPublic(rng, dep.name, dep.publicSymbols, taken);
}

export function dedupeExternal(specs: ImportSpec[], taken: Set<string>): ImportSpec[] {
  return specs.filter((spec) => commit(spec, taken));
}

/** Claims `path` in `taken`, numbering the file name (before its first dot) on a clash. */
export function uniquePath(taken: Set<string>, path: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.indexOf(".", slash + 1);
  const stem = dot === -1 ? path : path.slice(0, dot);
  const ext = dot === -1 ? "" : path.slice(dot);
  let candidate = path;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate);
  return candidate;
}
