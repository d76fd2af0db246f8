// The small fixed sections of the project map: the header (name, root, files by language) and the
// graph metrics (hubs, entry points, most complex files).
import path from "node:path";
import type { FileMeta } from "../../workers/ast-types.js";
import { largestFitting, type EstimateTokens } from "./budget-fit.js";

const LANGUAGES: Record<string, string> = {
  ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
  ".js": "JavaScript", ".jsx": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
  ".json": "JSON", ".jsonc": "JSON", ".yaml": "YAML", ".yml": "YAML", ".md": "Markdown",
};

/** `TypeScript 120, JSON 14, other 3`: by extension, most files first, then by name. */
export function languageBreakdown(paths: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const p of paths) {
    const lang = LANGUAGES[path.posix.extname(p).toLowerCase()] ?? "other";
    counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => (a[0] === "other" ? 1 : 0) - (b[0] === "other" ? 1 : 0) || b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([lang, n]) => `${lang} ${n}`)
    .join(", ");
}

export function headerSection(name: string, root: string, allPaths: readonly string[]): string {
  return [
    `# Project: ${name}`,
    `Root: ${root}`,
    `Files: ${allPaths.length} indexed (${languageBreakdown(allPaths) || "none"})`,
    "This map has no code: read code with get_lines; get_structure lists any folder.",
  ].join("\n");
}

/** How many names each metrics line lists, most detailed first. */
const METRIC_LIST_LADDER = [8, 5, 3, 1] as const;

const CODE_FILE = /\.[cm]?[jt]sx?$/;

/** The k best items by `better` (a strict order), best first; one pass, no full sort of 12K entries. */
export function topK<T>(items: Iterable<T>, k: number, better: (a: T, b: T) => boolean): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const item of items) {
    if (top.length === k && !better(item, top[k - 1]!)) continue;
    let i = top.length === k ? k - 1 : top.length;
    while (i > 0 && better(item, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = item;
  }
  return top;
}

/** The conversation-independent part of the metrics: computed once per snapshot. */
export interface GraphMetrics {
  hubs: number;
  /** `path dependents`, most imported first (files with ≥ 2 dependents). */
  imported: string[];
  importedTotal: number;
  /** `path score`, most complex code files first. */
  complex: string[];
  complexTotal: number;
}

export function computeGraphMetrics(meta: ReadonlyMap<string, FileMeta>): GraphMetrics {
  const max = METRIC_LIST_LADDER[0];
  type Entry = [string, FileMeta];
  const imported: Entry[] = [];
  const complex: Entry[] = [];
  let hubs = 0;
  for (const entry of meta) {
    const [p, m] = entry;
    if (m.isHub) hubs++;
    if (m.dependents.length >= 2) imported.push(entry);
    // Generated code (codegen output, bundles) says nothing about what is risky to change.
    if (CODE_FILE.test(p) && m.complexity.score > 0 && !m.complexity.generated) complex.push(entry);
  }
  const dependents = (e: Entry) => e[1].dependents.length;
  const score = (e: Entry) => e[1].complexity.score;
  return {
    hubs,
    imported: topK(imported, max, (a, b) => dependents(a) > dependents(b) || (dependents(a) === dependents(b) && a[0] < b[0])).map((e) => `${e[0]} ${dependents(e)}`),
    importedTotal: imported.length,
    complex: topK(complex, max, (a, b) => score(a) > score(b) || (score(a) === score(b) && a[0] < b[0])).map((e) => `${e[0]} ${score(e)}`),
    complexTotal: complex.length,
  };
}

/**
 * Hubs (most dependents), entry points (in ranking order) and the most complex code files. Shorter
 * lists until it fits `budget`; "" when not even the shortest does.
 */
export function metricsSection(
  metrics: GraphMetrics,
  isEntryPoint: (path: string) => boolean,
  rankedPaths: readonly string[],
  budget: number,
  estimate: EstimateTokens,
): string {
  const max = METRIC_LIST_LADDER[0];
  const entryPoints: string[] = [];
  let entryTotal = 0;
  for (const p of rankedPaths) {
    if (!isEntryPoint(p)) continue;
    entryTotal++;
    if (entryPoints.length < max) entryPoints.push(p);
  }
  const list = (items: readonly string[], total: number, k: number) => {
    const shown = items.slice(0, k);
    return `${shown.join(", ")}${total > shown.length ? `, +${total - shown.length} more` : ""}`;
  };
  const { hubs, imported, importedTotal, complex, complexTotal } = metrics;
  const render = (k: number) => {
    const out = ["## Dependency graph and metrics"];
    if (imported.length) out.push(`${hubs ? `Hubs (${hubs}); most imported` : "Most imported"} (dependents): ${list(imported, importedTotal, k)}`);
    if (entryPoints.length) out.push(`Entry points (${entryTotal}; package entries and code nothing imports): ${list(entryPoints, entryTotal, k)}`);
    if (complex.length) out.push(`Most complex code (cx score): ${list(complex, complexTotal, k)}`);
    return out.length > 1 ? out.join("\n") : "";
  };
  for (const k of METRIC_LIST_LADDER) {
    const text = render(k);
    if (estimate(text) <= budget) return text;
  }
  return "";
}

/** Joins non-empty sections with a blank line. */
export function joinSections(sections: readonly string[]): string {
  return sections.filter((s) => s.length > 0).join("\n\n");
}

/** A section cut to whole lines to fit (used for the header when the budget is tiny). */
export function fitLines(text: string, budget: number, estimate: EstimateTokens): string {
  const lines = text.split("\n");
  const fitted = largestFitting(lines.length, budget, (k) => lines.slice(0, k).join("\n"), estimate);
  return fitted.k > 0 ? fitted.text : "";
}
