// "1 line", "2 lines": counts in messages people read.

/** `n` and the word, in the plural unless n is 1 (`plural` for irregular words). */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}
