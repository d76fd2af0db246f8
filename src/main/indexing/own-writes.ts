// ipuaro's own writes, announced before they happen. An edit tool registers the path and the hash of
// the content it is about to write (null for a delete); when the watcher then sees that very content
// land, the update is ipuaro's, otherwise someone else's. Later features use the difference to tell the
// agent's edits from a human's.
import path from "node:path";
import { hashContent } from "../../pipeline/watch/content-hash.js";
import { symlinkTarget } from "../../workers/protocol.js";

/** How long a registration stays valid: covers the debounce and a slow batch with a wide margin. */
export const OWN_WRITE_TTL_MS = 10_000;
const HASH = /^[0-9a-f]{16}$/;
/** A content hash as the index keeps it: xxHash64 for a file, `link:TARGET` for a symlink (a rewind remakes links). */
const isIndexHash = (hash: string): boolean => HASH.test(hash) || symlinkTarget(hash) !== null;

interface Expectation {
  hash: string | null;
  at: number;
}

export interface OwnWritesOptions {
  ttlMs?: number;
  now?: () => number;
}

export class OwnWrites {
  private readonly expected = new Map<string, Expectation[]>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: OwnWritesOptions = {}) {
    this.ttlMs = opts.ttlMs ?? OWN_WRITE_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Registers an upcoming write of `relPath` (relative to the project root) with the content hash it will have. */
  register(relPath: string, expectedHash: string | null): void {
    const key = normaliseRelPath(relPath);
    if (expectedHash !== null && !isIndexHash(expectedHash)) {
      throw new Error(`OwnWrites.register: expected a 16-digit hex xxHash64, a link:TARGET or null, got ${JSON.stringify(expectedHash)}`);
    }
    this.prune();
    const list = this.expected.get(key) ?? [];
    list.push({ hash: expectedHash, at: this.now() });
    this.expected.set(key, list);
  }

  /** register() with the hash computed from the content about to be written. Returns the hash. */
  async registerContent(relPath: string, content: string | Uint8Array): Promise<string> {
    const hash = await hashContent(content);
    this.register(relPath, hash);
    return hash;
  }

  /**
   * true when `actualHash` (null = the path is gone) matches a live registration of `relPath`. The
   * match and every older registration of the path are consumed.
   */
  claim(relPath: string, actualHash: string | null): boolean {
    this.prune();
    const key = normaliseRelPath(relPath);
    const list = this.expected.get(key);
    if (!list) return false;
    const i = list.findLastIndex((e) => e.hash === actualHash);
    if (i === -1) return false;
    list.splice(0, i + 1);
    if (!list.length) this.expected.delete(key);
    return true;
  }

  /** Registrations still waiting for their write. */
  get size(): number {
    this.prune();
    let n = 0;
    for (const list of this.expected.values()) n += list.length;
    return n;
  }

  private prune(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [key, list] of this.expected) {
      const live = list.filter((e) => e.at >= cutoff);
      if (live.length) this.expected.set(key, live);
      else this.expected.delete(key);
    }
  }
}

function normaliseRelPath(relPath: string): string {
  const posix = relPath.split(path.sep).join("/");
  const norm = path.posix.normalize(posix).replace(/^\.\//, "");
  if (!relPath || path.isAbsolute(relPath) || norm === "." || norm === ".." || norm.startsWith("../")) {
    throw new Error(`OwnWrites: expected a path relative to the project root, got ${JSON.stringify(relPath)}`);
  }
  return norm;
}
