// readRegularFile: what a tool may read by path. A FIFO is never opened (the read would wait for a
// writer forever), a device never read, a file too large to read whole is refused by its size, and a
// failed read says what failed instead of "does not exist".
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_READ_BYTES, readRegularFile } from "../../../src/main/fs/regular-file.js";
import { readFailure } from "../../../src/main/tools/disk-read.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const onLinux = process.platform === "linux";
const wording = { missing: "missing", folder: "folder", tooLarge: "read part of it" };

let dir: string;
beforeEach(() => {
  dir = makeTempDir("ipuaro-regular-");
});
afterEach(() => {
  removeDir(dir);
});

describe("readRegularFile", () => {
  it("reads a regular file whole", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "hello\n");
    const read = await readRegularFile(path.join(dir, "a.txt"));
    expect(read.kind === "file" && read.bytes.toString()).toBe("hello\n");
  });

  it("refuses a FIFO without opening it for reading", async () => {
    const fifo = path.join(dir, "pipe.ts");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    expect(await readRegularFile(fifo)).toEqual({ kind: "special", what: "a FIFO (named pipe)" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.runIf(onLinux)("refuses a character device (it never ends)", async () => {
    expect(await readRegularFile("/dev/zero")).toEqual({ kind: "special", what: "a character device" });
  });

  it("refuses a file above the limit by its size, without reading it", async () => {
    const big = path.join(dir, "huge.log");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, 3 * 1024 ** 3); // sparse: 3 GiB, no disk used
    expect(await readRegularFile(big)).toEqual({ kind: "too_large", size: 3 * 1024 ** 3, limit: MAX_READ_BYTES });
    expect(readFailure("huge.log", { kind: "too_large", size: 3 * 1024 ** 3, limit: MAX_READ_BYTES }, wording)).toEqual({
      ok: false,
      code: "FILE_TOO_LARGE",
      message: "huge.log is 3.0 GiB, too large to read whole (the limit is 64 MiB); read part of it",
    });
  });

  it("tells folders, symlinks and missing paths apart", async () => {
    fs.mkdirSync(path.join(dir, "sub"));
    fs.symlinkSync("sub", path.join(dir, "link"));
    expect(await readRegularFile(path.join(dir, "sub"))).toEqual({ kind: "folder" });
    expect(await readRegularFile(path.join(dir, "link"))).toEqual({ kind: "symlink" });
    expect(await readRegularFile(path.join(dir, "nope.txt"))).toEqual({ kind: "missing" });
    expect(await readRegularFile(path.join(dir, "nope", "deeper.txt"))).toEqual({ kind: "missing" });
  });

  // /proc/self/mem is a regular file whose read at offset 0 fails with EIO: an error that is not "missing".
  it.runIf(onLinux)("says what went wrong when the read itself fails", async () => {
    const read = await readRegularFile("/proc/self/mem");
    expect(read).toMatchObject({ kind: "unreadable", code: "EIO" });
    if (read.kind !== "unreadable") return;
    const failure = readFailure("mem", read, wording);
    expect(failure).toEqual({ ok: false, code: "UNAVAILABLE", message: `mem could not be read: ${read.reason}` });
    expect(failure.message).toMatch(/EIO: i\/o error/);
  });
});
