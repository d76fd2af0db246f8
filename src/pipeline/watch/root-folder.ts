// The project folder the live index watches, held open so that a folder removed and made again at the
// same path (`rm -rf P && cp -r P.bak P`, a re-clone) is told from the one the OS watcher subscribed to.
// On ext4 the new folder got the freed inode number at once: the identity adds the birth time (0 where
// the file system keeps none), and the open handle keeps the old inode in use, so it is not reused.
import fs from "node:fs";

/** A folder's identity: device, inode and birth time; null when no folder is there. */
function folderIdentity(st: fs.Stats): string | null {
  return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeMs}` : null;
}

function identityAt(abs: string): string | null {
  try {
    return folderIdentity(fs.statSync(abs));
  } catch {
    return null;
  }
}

export type RootFolderState = "same" | "missing" | "replaced";

export class RootFolder {
  /** The identity of the folder held (the one subscribed to). */
  private id: string | null = null;
  /** A handle on it (null where folders cannot be opened): its link count says when it is removed. */
  private handle: number | null = null;

  constructor(private readonly abs: string) {}

  /** Takes hold of the folder now at the path (before subscribing: a swap in between is seen next check). */
  hold(): void {
    this.release();
    try {
      this.handle = fs.openSync(this.abs, "r");
      this.id = folderIdentity(fs.fstatSync(this.handle));
    } catch {
      // Windows cannot open a folder: its identity alone is compared.
      this.release();
      this.id = identityAt(this.abs);
    }
  }

  release(): void {
    if (this.handle !== null) fs.closeSync(this.handle);
    this.handle = null;
  }

  /** What is at the path now, against the folder held. */
  check(): RootFolderState {
    const now = identityAt(this.abs);
    if (now === null) return "missing";
    return now === this.id && !this.removed() ? "same" : "replaced";
  }

  /** The folder held was removed (its last link gone), whatever is at its path now. */
  private removed(): boolean {
    if (this.handle === null) return false;
    try {
      return fs.fstatSync(this.handle).nlink === 0;
    } catch {
      return false;
    }
  }
}
