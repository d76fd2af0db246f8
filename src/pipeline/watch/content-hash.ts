// The index's content hash on the main thread: xxHash64 of the raw bytes as 16 hex digits, the same
// value the index worker stores (src/workers/index.worker.ts `hashBytes`). ipuaro's edit tools use it to
// register the hash of what they are about to write.
import xxhash from "xxhash-wasm";

type Hasher = (content: string | Uint8Array) => string;

let loading: Promise<Hasher> | null = null;

/** Loads the wasm module once; the returned function hashes synchronously. */
export function loadContentHasher(): Promise<Hasher> {
  loading ??= xxhash().then(({ h64Raw }) => (content: string | Uint8Array) => {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    return h64Raw(bytes).toString(16).padStart(16, "0");
  });
  return loading;
}

/** Hash of a file's future content; strings are hashed as their UTF-8 bytes, as they will be written. */
export async function hashContent(content: string | Uint8Array): Promise<string> {
  return (await loadContentHasher())(content);
}
