// "Did you mean …?" for symbol names the index does not know: case-insensitive matches, a method name
// given without its class, then near spellings. One HSCAN over the symbol index, only on a miss.
import { scanSymbols, type IndexReader } from "../store/index-queries.js";

export const MAX_SUGGESTIONS = 5;

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** Rank of a candidate name for a query: lower is closer; null when it is not close at all. */
export function suggestionRank(query: string, candidate: string): number | null {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  const member = c.slice(c.lastIndexOf(".") + 1);
  if (c === q || member === q) return 0;
  const max = Math.max(1, Math.floor(q.length / 4));
  const d = Math.min(editDistance(q, c, max), editDistance(q, member, max));
  if (d <= max) return d;
  if (q.length >= 3 && (c.includes(q) || (c.length >= 3 && q.includes(c)))) return max + 1;
  return null;
}

export async function suggestSymbols(reader: IndexReader, query: string): Promise<string[]> {
  const ranked: Array<{ name: string; rank: number }> = [];
  for await (const chunk of scanSymbols(reader)) {
    for (const [name] of chunk) {
      if (name === query) continue;
      const rank = suggestionRank(query, name);
      if (rank !== null) ranked.push({ name, rank });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return [...new Set(ranked.map((r) => r.name))].slice(0, MAX_SUGGESTIONS);
}

export function didYouMean(names: readonly string[]): string {
  return names.length ? ` Did you mean ${names.map((n) => `"${n}"`).join(", ")}?` : "";
}
