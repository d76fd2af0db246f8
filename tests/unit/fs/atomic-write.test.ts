import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AtomicWriteError, deleteFileAtomic, TEMP_MARKER, writeFileAtomic, type AtomicFs } from "../../../src/main/fs/atomic-write.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const isRoot = process.getuid?.() === 0;

let dir: string;
beforeEach(() => {
  dir = makeTempDir("ipuaro-atomic-");
});
afterEach(() => {
  removeDir(dir);
});

function tempsIn(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((n) => n.includes(TEMP_MARKER));
}

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(AtomicWriteError);
    return (error as AtomicWriteError).reason;
  }
  throw new Error("expected the call to fail");
}

describe("writeFileAtomic", () => {
  it("with realParent: a folder swapped for a symlink during the write is refused, nothing lands through it", async () => {
    const outside = makeTempDir("ipuaro-atomic-outside-");
    try {
      fs.mkdirSync(path.join(dir, "src"));
      const file = path.join(dir, "src", "a.ts");
      const realParent = path.join(fs.realpathSync(dir), "src");
      // The swap comes after the first check, while the temp file is written.
      let swapped = false;
      const open: AtomicFs["open"] = async (...args) => {
        const handle = await fsp.open(...args);
        if (!swapped) {
          swapped = true;
          fs.renameSync(path.join(dir, "src"), path.join(dir, "src-moved"));
          fs.symlinkSync(outside, path.join(dir, "src"));
        }
        return handle;
      };
      expect(await reason(writeFileAtomic(file, "x\n", { exclusive: true, createParents: true, realParent, fs: { open } }))).toBe("PARENT_MOVED");
      // (The temp file stays in the moved folder: its path now leads elsewhere, so it cannot be removed by name.)
      expect(fs.readdirSync(outside)).toEqual([]);
      // Already swapped before the write: refused at once; a parent that is where it should be is fine.
      expect(await reason(writeFileAtomic(file, "x\n", { realParent }))).toBe("PARENT_MOVED");
      expect(await reason(deleteFileAtomic(file, { realParent }))).toBe("PARENT_MOVED");
      await writeFileAtomic(path.join(dir, "src-moved", "b.ts"), "b\n", { realParent: path.join(fs.realpathSync(dir), "src-moved") });
      expect(fs.readFileSync(path.join(dir, "src-moved", "b.ts"), "utf8")).toBe("b\n");
    } finally {
      removeDir(outside);
    }
  });

  it("replaces the content and keeps the file's mode", async () => {
    const file = path.join(dir, "run.sh");
    fs.writeFileSync(file, "old\n");
    fs.chmodSync(file, 0o754);
    await writeFileAtomic(file, "new\n");
    expect(fs.readFileSync(file, "utf8")).toBe("new\n");
    expect(fs.statSync(file).mode & 0o7777).toBe(0o754);
    expect(tempsIn(dir)).toEqual([]);
  });

  it("replaces the inode (rename), so a reader holding the old file still sees the old content", async () => {
    const file = path.join(dir, "a.txt");
    fs.writeFileSync(file, "before");
    const before = fs.statSync(file).ino;
    const held = fs.openSync(file, "r");
    await writeFileAtomic(file, Buffer.from("after"));
    expect(fs.readFileSync(held, "utf8")).toBe("before");
    fs.closeSync(held);
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(fs.readFileSync(file, "utf8")).toBe("after");
  });

  it.runIf(isRoot)("keeps the owner when running as root", async () => {
    const file = path.join(dir, "owned.txt");
    fs.writeFileSync(file, "x");
    fs.chownSync(file, 1234, 2345);
    await writeFileAtomic(file, "y");
    const st = fs.statSync(file);
    expect([st.uid, st.gid]).toEqual([1234, 2345]);
  });

  it("refuses a symlink target and leaves the link and its target alone", async () => {
    const real = path.join(dir, "real.txt");
    fs.writeFileSync(real, "real");
    fs.symlinkSync("real.txt", path.join(dir, "link.txt"));
    expect(await reason(writeFileAtomic(path.join(dir, "link.txt"), "evil"))).toBe("SYMLINK");
    expect(fs.readFileSync(real, "utf8")).toBe("real");
    expect(fs.lstatSync(path.join(dir, "link.txt")).isSymbolicLink()).toBe(true);
    // A dangling link is refused too: writing through it would create its target.
    fs.symlinkSync("nowhere.txt", path.join(dir, "dangling.txt"));
    expect(await reason(writeFileAtomic(path.join(dir, "dangling.txt"), "x"))).toBe("SYMLINK");
    expect(fs.existsSync(path.join(dir, "nowhere.txt"))).toBe(false);
  });

  it("refuses a folder", async () => {
    fs.mkdirSync(path.join(dir, "sub"));
    expect(await reason(writeFileAtomic(path.join(dir, "sub"), "x"))).toBe("NOT_A_FILE");
  });

  it("leaves the original intact and no temp file behind when the rename fails", async () => {
    const file = path.join(dir, "keep.ts");
    fs.writeFileSync(file, "original\n");
    const failingRename: Partial<AtomicFs> = {
      rename: async () => {
        throw Object.assign(new Error("EIO: injected rename failure"), { code: "EIO" });
      },
    };
    expect(await reason(writeFileAtomic(file, "replacement\n", { fs: failingRename }))).toBe("IO");
    expect(fs.readFileSync(file, "utf8")).toBe("original\n");
    expect(tempsIn(dir)).toEqual([]);
  });

  it("leaves the original intact when writing the temp file fails half way", async () => {
    const file = path.join(dir, "keep.ts");
    fs.writeFileSync(file, "original\n");
    const failingWrite: Partial<AtomicFs> = {
      open: (async (...args: Parameters<typeof fsp.open>) => {
        const handle = await fsp.open(...args);
        handle.writeFile = async () => {
          await fsp.appendFile(args[0] as string, "half");
          throw Object.assign(new Error("ENOSPC: injected"), { code: "ENOSPC" });
        };
        return handle;
      }) as typeof fsp.open,
    };
    await expect(writeFileAtomic(file, "replacement\n", { fs: failingWrite })).rejects.toThrow(/ENOSPC/);
    expect(fs.readFileSync(file, "utf8")).toBe("original\n");
    expect(tempsIn(dir)).toEqual([]);
  });

  it.skipIf(isRoot)("fails cleanly in a read-only folder", async () => {
    const ro = path.join(dir, "ro");
    fs.mkdirSync(ro);
    fs.writeFileSync(path.join(ro, "f.txt"), "original");
    fs.chmodSync(ro, 0o555);
    try {
      expect(await reason(writeFileAtomic(path.join(ro, "f.txt"), "new"))).toBe("IO");
      expect(fs.readFileSync(path.join(ro, "f.txt"), "utf8")).toBe("original");
    } finally {
      fs.chmodSync(ro, 0o755);
    }
  });

  it("creates parent folders for a new file and removes them again when the write fails", async () => {
    await writeFileAtomic(path.join(dir, "a", "b", "new.ts"), "x\n", { exclusive: true, createParents: true });
    expect(fs.readFileSync(path.join(dir, "a", "b", "new.ts"), "utf8")).toBe("x\n");

    const failingLink: Partial<AtomicFs> = {
      link: async () => {
        throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
      },
    };
    expect(await reason(writeFileAtomic(path.join(dir, "c", "d", "new.ts"), "x", { exclusive: true, createParents: true, fs: failingLink }))).toBe("IO");
    expect(fs.existsSync(path.join(dir, "c"))).toBe(false);
    // Folders that existed before are kept.
    expect(await reason(writeFileAtomic(path.join(dir, "a", "e", "new.ts"), "x", { exclusive: true, createParents: true, fs: failingLink }))).toBe("IO");
    expect(fs.existsSync(path.join(dir, "a", "e"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "a", "b", "new.ts"))).toBe(true);
  });

  it("exclusive: never replaces a file, even one that appears while the temp file is written", async () => {
    const file = path.join(dir, "new.ts");
    fs.writeFileSync(file, "theirs");
    expect(await reason(writeFileAtomic(file, "mine", { exclusive: true }))).toBe("EXISTS");
    fs.rmSync(file);

    const racingOpen: Partial<AtomicFs> = {
      open: (async (...args: Parameters<typeof fsp.open>) => {
        const handle = await fsp.open(...args);
        fs.writeFileSync(file, "theirs, written meanwhile");
        return handle;
      }) as typeof fsp.open,
    };
    expect(await reason(writeFileAtomic(file, "mine", { exclusive: true, fs: racingOpen }))).toBe("EXISTS");
    expect(fs.readFileSync(file, "utf8")).toBe("theirs, written meanwhile");
    expect(tempsIn(dir)).toEqual([]);
  });

  it("exclusive falls back to check-and-rename where hard links are not supported", async () => {
    const noLinks: Partial<AtomicFs> = {
      link: async () => {
        throw Object.assign(new Error("EPERM: no hard links here"), { code: "EPERM" });
      },
    };
    await writeFileAtomic(path.join(dir, "n.ts"), "x", { exclusive: true, fs: noLinks });
    expect(fs.readFileSync(path.join(dir, "n.ts"), "utf8")).toBe("x");
    expect(tempsIn(dir)).toEqual([]);
  });

  it("handles a 255-byte file name (the temp name stays within the limit)", async () => {
    const file = path.join(dir, `${"n".repeat(252)}.ts`);
    await writeFileAtomic(file, "long");
    expect(fs.readFileSync(file, "utf8")).toBe("long");
  });
});

describe("deleteFileAtomic", () => {
  it("deletes a regular file", async () => {
    const file = path.join(dir, "gone.ts");
    fs.writeFileSync(file, "x");
    await deleteFileAtomic(file);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("refuses symlinks, folders and missing files", async () => {
    fs.writeFileSync(path.join(dir, "real.txt"), "real");
    fs.symlinkSync("real.txt", path.join(dir, "link.txt"));
    fs.mkdirSync(path.join(dir, "sub"));
    expect(await reason(deleteFileAtomic(path.join(dir, "link.txt")))).toBe("SYMLINK");
    expect(await reason(deleteFileAtomic(path.join(dir, "sub")))).toBe("NOT_A_FILE");
    expect(await reason(deleteFileAtomic(path.join(dir, "missing.txt")))).toBe("MISSING");
    expect(fs.readFileSync(path.join(dir, "real.txt"), "utf8")).toBe("real");
    expect(fs.lstatSync(path.join(dir, "link.txt")).isSymbolicLink()).toBe(true);
  });
});
