// Backups by content: `$IPUARO_HOME/file-history/blobs/<sha256[0:2]>/<sha256>` holds a file's raw bytes
// (no compression, line endings and BOM untouched). The same content is stored once however many
// checkpoints, sessions or projects refer to it. Writes go to a temp name first and are renamed, so a
// blob under its final name is always complete.
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { ipuaroHome } from "../config/paths.js";

const SHA256 = /^[0-9a-f]{64}$/;
/** Temp files carry this, so GC recognises the leftovers of a killed process. */
export const BLOB_TEMP_MARKER = ".tmp-";

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function isBlobName(name: string): boolean {
  return SHA256.test(name);
}

export function fileHistoryDir(home = ipuaroHome()): string {
  return path.join(home, "file-history");
}

export class BlobStore {
  readonly dir: string;

  constructor(dir = path.join(fileHistoryDir(), "blobs")) {
    this.dir = dir;
  }

  static forHome(home: string): BlobStore {
    return new BlobStore(path.join(fileHistoryDir(home), "blobs"));
  }

  pathOf(hash: string): string {
    if (!isBlobName(hash)) throw new Error(`not a sha256 blob name: ${JSON.stringify(hash)}`);
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  /** Stores `bytes` (once) and returns their sha256. */
  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256(bytes);
    const target = this.pathOf(hash);
    try {
      // Already there: its mtime is refreshed so GC's "older than a day" grace starts again.
      const now = new Date();
      await fsp.utimes(target, now, now);
      return hash;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}${BLOB_TEMP_MARKER}${process.pid}-${randomBytes(4).toString("hex")}`;
    const handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fsp.unlink(temp).catch(() => {});
      throw error;
    }
    await handle.close();
    try {
      await fsp.rename(temp, target);
    } catch (error) {
      await fsp.unlink(temp).catch(() => {});
      throw error;
    }
    return hash;
  }

  /** The bytes of a blob, checked against its name; null when it is gone or damaged. */
  async get(hash: string): Promise<Buffer | null> {
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(this.pathOf(hash));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    return sha256(bytes) === hash ? bytes : null;
  }

  async has(hash: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }
}
