// Okapi BM25 over small in-memory corpora (the knowledge graph's nodes, the project memory): terms are
// words of names and text, identifiers split at camelCase and snake_case, with a light plural folding so
// "tokens" finds "token". A name counts NAME_BOOST times as much as the same word in a description.

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const NAME_BOOST = 3;

const STOPWORDS = new Set(
  (
    "a an and are as at be but by for from has have how i if in into is it its of on or so that the their then there these this to was were what when where which who why will with " +
    "и в во на не что как к с со по из за от до для это то же ли а но или у о об"
  ).split(" "),
);

/**
 * Russian inflection endings, longest first: "копейках", "копейки" and "копейка" all fold to "копейк",
 * "сервисы" to "сервис". A light suffix strip (no dictionary): a stem keeps at least 4 letters. The
 * -ия/-ие/-ье nouns lose their и/ь with every case ending ("округление", "округления", "округлением" →
 * "округлен"), as in Snowball's Russian stemmer: stripping only the last letter left a different stem per case.
 */
const RU_ENDINGS = [
  "иями", "ьями",
  "ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "ией", "иях", "иям", "ием", "ьях", "ьям", "ьем", "ьей",
  "ях", "ах", "ов", "ев", "ей", "ой", "ий", "ый", "ая", "яя", "ое", "ее", "ые", "ие", "ия", "ии", "ию", "ье", "ья", "ьи", "ью",
  "ую", "юю", "ым", "им", "ом", "ем", "ам", "ям",
  "а", "я", "ы", "и", "у", "ю", "е", "о", "ь", "й",
];
const MIN_RU_STEM = 4;

function foldRussian(term: string): string {
  const word = term.replace(/ё/g, "е");
  for (const ending of RU_ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_RU_STEM) return word.slice(0, -ending.length);
  }
  return word;
}

function fold(term: string): string {
  if (/[а-яё]/.test(term)) return foldRussian(term);
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss") && !term.endsWith("us")) return term.slice(0, -1);
  return term;
}

/** Search terms of a text: words, identifier parts (and the whole identifier), lower-cased and folded. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}_$]+/gu) ?? []) {
    const parts = word
      .replace(/([a-z\d])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .split(/[\s_$]+/)
      .filter(Boolean);
    const terms = parts.length > 1 ? [...parts, parts.join("")] : parts;
    for (const t of terms) {
      const lower = t.toLowerCase();
      if (lower.length < 2 || STOPWORDS.has(lower)) continue;
      out.push(fold(lower));
    }
  }
  return out;
}

export interface Bm25Document {
  id: string;
  /** Short, strong text: a node's name, a memory's first line. */
  name: string;
  text: string;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

export class Bm25Index {
  private readonly termFreqs: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly docFreq = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly avgLength: number;

  constructor(docs: readonly Bm25Document[]) {
    let total = 0;
    for (const doc of docs) {
      const nameTerms = tokenize(doc.name);
      const terms = tokenize(doc.text);
      const tf = new Map<string, number>();
      for (const t of nameTerms) tf.set(t, (tf.get(t) ?? 0) + NAME_BOOST);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      const length = nameTerms.length * NAME_BOOST + terms.length;
      for (const t of tf.keys()) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
      this.termFreqs.push(tf);
      this.lengths.push(length);
      this.ids.push(doc.id);
      total += length;
    }
    this.avgLength = docs.length ? total / docs.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  private idf(term: string): number {
    const df = this.docFreq.get(term) ?? 0;
    return Math.log(1 + (this.ids.length - df + 0.5) / (df + 0.5));
  }

  /** Documents matching at least one query term, best first (ties by insertion order). */
  search(query: string, limit = Number.MAX_SAFE_INTEGER): Bm25Hit[] {
    const terms = [...new Set(tokenize(query))];
    if (!terms.length || !this.ids.length) return [];
    const hits: Bm25Hit[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const tf = this.termFreqs[i]!;
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const norm = f + BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[i]!) / (this.avgLength || 1));
        score += this.idf(term) * ((f * (BM25_K1 + 1)) / norm);
      }
      if (score > 0) hits.push({ id: this.ids[i]!, score });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}

/** Scores as 0–1 relevances relative to the best hit (what the seed's `relevance` shows). */
export function relevances(hits: readonly Bm25Hit[]): Map<string, number> {
  const top = hits[0]?.score ?? 1;
  return new Map(hits.map((h) => [h.id, Math.round((h.score / top) * 100) / 100]));
}
