// Arrays the graph code reads in its hot loops (a file's imports, symbols, calls, a barrel's re-exports).
// An empty array is one of small integers to V8 and a filled one an array of objects: two hidden classes
// that the graph code met one after the other as files arrived (the first file without imports, say),
// each time throwing its optimised code away and compiling it again. Empty ones made here have the
// class of the filled ones.

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
