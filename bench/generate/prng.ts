// Deterministic randomness for the generator. The output must be byte-identical for the same
// arguments, so nothing here (or anywhere in bench/generate) reads Math.random or the clock.

/** mulberry32: tiny, fast, good enough for picking names and shapes. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: derives an independent stream per file path. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class Rng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  /** A stream keyed by (seed, key): a file's content does not depend on what was generated before it. */
  static forKey(seed: number, key: string): Rng {
    return new Rng((hashString(key) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0);
  }

  next(): number {
    return this.#next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.#next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick: empty list");
    return items[Math.floor(this.#next() * items.length)] as T;
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const taken: T[] = [];
    while (taken.length < count && pool.length > 0) {
      const index = Math.floor(this.#next() * pool.length);
      taken.push(pool[index] as T);
      pool[index] = pool[pool.length - 1] as T;
      pool.pop();
    }
    return taken;
  }

  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.#next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error("Rng.weighted: empty list");
    return last[0];
  }

  /** Log-normal integer: most values near `median`, a long right tail, clamped to [min, max]. */
  skewedInt(median: number, spread: number, min: number, max: number): number {
    const u1 = Math.max(this.#next(), 1e-12);
    const u2 = this.#next();
    const gaussian = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    const value = Math.round(median * Math.exp(spread * gaussian));
    return Math.min(max, Math.max(min, value));
  }
}
