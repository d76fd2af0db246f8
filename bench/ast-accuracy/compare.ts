// Agreement between two record lists per kind: matched / union, with records compared as multisets of
// `name|kind|line`-style keys (see reference.ts for what each kind holds).
import type { FileAST } from "../../src/workers/ast-types.js";

export const KINDS = ["functions", "classes", "methods", "imports", "exports", "types"] as const;
export type KindName = (typeof KINDS)[number];

/** extractFile's AST in the reference's key format. */
export function ourRecords(ast: FileAST): Record<KindName, string[]> {
  return {
    functions: ast.functions.map((f) => `${f.name}|${f.lineStart}`),
    classes: ast.classes.map((c) => `${c.name}|${c.lineStart}`),
    methods: ast.classes.flatMap((c) => c.methods.map((m) => `${c.name}.${m.name}|${m.accessor ?? ""}|${m.lineStart}`)),
    imports: ast.imports.map((i) => `${i.from}|${i.name}|${i.line}`),
    exports: ast.exports.map((e) => `${e.name}|${e.type}|${e.line}|${e.from ?? ""}`),
    types: ast.types.map((t) => `${t.name}|${t.kind}|${t.lineStart}`),
  };
}

export interface KindTally {
  ts: number;
  ours: number;
  matched: number;
}

/** Counts matches and returns the keys present on one side only. */
export function compareKeys(reference: string[], ours: string[], tally: KindTally): { onlyTs: string[]; onlyOurs: string[] } {
  const pool = new Map<string, number>();
  for (const key of reference) pool.set(key, (pool.get(key) ?? 0) + 1);
  const onlyOurs: string[] = [];
  for (const key of ours) {
    const left = pool.get(key) ?? 0;
    if (left > 0) {
      pool.set(key, left - 1);
      tally.matched++;
    } else onlyOurs.push(key);
  }
  const onlyTs: string[] = [];
  for (const [key, left] of pool) for (let i = 0; i < left; i++) onlyTs.push(key);
  tally.ts += reference.length;
  tally.ours += ours.length;
  return { onlyTs, onlyOurs };
}

/** matched / (ts + ours − matched); 1 when both sides are empty. */
export function agreement(t: KindTally): number {
  const union = t.ts + t.ours - t.matched;
  return union === 0 ? 1 : t.matched / union;
}
