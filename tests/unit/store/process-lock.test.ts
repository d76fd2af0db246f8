import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireFileLock } from "../../../src/main/store/process-lock.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

let dir: string;
afterEach(() => removeDir(dir));

const opts = { timeoutMs: 1000, staleMs: 150_000 };

describe("the start lock", () => {
  it("takes over a lock file left empty (its writer died between open and write) once it is a few seconds old", async () => {
    dir = makeTempDir();
    const lock = path.join(dir, "start.lock");
    fs.writeFileSync(lock, "");
    const old = new Date(Date.now() - 5000);
    fs.utimesSync(lock, old, old);
    const release = await acquireFileLock(lock, opts);
    expect(Number(fs.readFileSync(lock, "utf8").split("\n")[0])).toBe(process.pid);
    release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("waits for an empty lock that was just made, and for a live holder", async () => {
    dir = makeTempDir();
    const lock = path.join(dir, "start.lock");
    fs.writeFileSync(lock, "");
    await expect(acquireFileLock(lock, { timeoutMs: 300, staleMs: 150_000 })).rejects.toThrow(/Timed out waiting/);
    fs.writeFileSync(lock, `${process.pid}\n${Date.now()}\nx\n`);
    await expect(acquireFileLock(lock, { timeoutMs: 300, staleMs: 150_000 })).rejects.toThrow(`held by pid ${process.pid}`);
  });

  it("takes over the lock of a process that is gone", async () => {
    dir = makeTempDir();
    const lock = path.join(dir, "start.lock");
    fs.writeFileSync(lock, "999999999\n1\nx\n");
    const release = await acquireFileLock(lock, opts);
    release();
  });
});
