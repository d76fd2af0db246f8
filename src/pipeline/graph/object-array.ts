// Arrays the graph code reads in its hot loops (a file's imports, symbols, calls, a barrel's re-exports).
// To V8 an empty array is one of small integers, a filled one an array of objects, and what `.map()`
// returns is packed while its caller runs unoptimised but holey once the caller is optimised: hidden
// classes the graph code met one after the other as files arrived, each time throwing its optimised
// code away and compiling it again. Arrays made here all have the class of a filled packed one.

const FILLER = {};

/** An empty array with the elements kind of an array of objects (or strings). */
export function objectArray<T>(): T[] {
  const out = [FILLER] as unknown as T[];
  out.length = 0;
  return out;
}

/** `items` itself when it holds something, else an empty objectArray(). */
export function objectsOr<T>(items: T[] | undefined): T[] {
  return Array.isArray(items) && items.length ? items : objectArray<T>();
}

/** `items.map(fn)` as an objectArray() (see above: `.map()` in optimised code makes holey arrays). */
export function mapObjects<T, U>(items: readonly T[], fn: (item: T) => U): U[] {
  const out = objectArray<U>();
  for (const item of items) out.push(fn(item));
  return out;
}
