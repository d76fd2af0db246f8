// Tools that read a file from disk by path (get_lines for a file the index does not hold, the edit
// tools' "before"): a FIFO is refused at once (it hung `ipuaro tool get_lines`), a file too large to
// read whole is refused by its size (a 3 GB one was "does not exist", a 600 MB one read whole), and
// UTF-16 text is named as such (it was "a binary file").
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deleteFile } from "../../../src/main/tools/delete-file.js";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { getLines } from "../../../src/main/tools/get-lines.js";
import type { ToolResult } from "../../../src/main/tools/tool-types.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();
let h: EditHarness;
let writer: ChildProcess | null = null;

beforeAll(async () => {
  h = await openEditHarness(server().url);
}, 60_000);
afterAll(() => h?.close());
afterEach(() => {
  // The writer blocks opening a FIFO nobody reads; its group is ended with it.
  if (writer?.pid && writer.exitCode === null) process.kill(-writer.pid, "SIGKILL");
  writer = null;
});

function failed(r: ToolResult): { code: string | undefined; error: string | undefined } {
  expect(r.success).toBe(false);
  return { code: r.code, error: r.error };
}

/**
 * A FIFO with a writer that comes after 2 s: a tool that opened it for reading would wait that long
 * and then read the text (and fail the test) instead of hanging the test run for good.
 */
function fifoWithLateWriter(rel: string): void {
  execFileSync("mkfifo", [h.abs(rel)]);
  writer = spawn("sh", ["-c", `sleep 2; printf 'export const late = 1;\\n' > '${h.abs(rel)}'`], { detached: true, stdio: "ignore" });
}

describe("a FIFO", () => {
  it("get_lines refuses it at once, without opening it", async () => {
    fifoWithLateWriter("src-pipe.ts");
    const started = Date.now();
    const r = await getLines.run("r", { path: "src-pipe.ts" }, h.ctx);
    expect(failed(r)).toEqual({ code: "NOT_TEXT", error: "src-pipe.ts is a FIFO (named pipe), not a regular file; it was not opened (reading it could wait forever)" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("edit_lines and delete_file refuse it by what it is", async () => {
    fifoWithLateWriter("edit-pipe.ts");
    expect(failed(await editLines.run("e", { path: "edit-pipe.ts", start: 1, end: 1, content: "x" }, h.ctx)).error).toBe(
      "edit-pipe.ts is a FIFO (named pipe), not a regular file; it was not opened (reading it could wait forever)",
    );
    expect(failed(await deleteFile.run("d", { path: "edit-pipe.ts" }, h.ctx)).code).toBe("NOT_TEXT");
    expect(fs.statSync(h.abs("edit-pipe.ts")).isFIFO()).toBe(true);
  });
});

describe("a file too large to read whole", () => {
  it("get_lines names its size and how to read part of it (3 GB was 'does not exist')", async () => {
    fs.writeFileSync(h.abs("huge.log"), "");
    fs.truncateSync(h.abs("huge.log"), 3 * 1024 ** 3); // sparse
    expect(failed(await getLines.run("r", { path: "huge.log", start: 1, end: 5 }, h.ctx))).toEqual({
      code: "FILE_TOO_LARGE",
      error: "huge.log is 3.0 GiB, too large to read whole (the limit is 64 MiB); read part of it with run_command, e.g. `sed -n '1,200p' huge.log` or `tail -n 200 huge.log`",
    });
  });

  it("get_lines does not read a 600 MB file whole", async () => {
    fs.writeFileSync(h.abs("big.log"), "");
    fs.truncateSync(h.abs("big.log"), 600 * 1024 * 1024);
    expect(failed(await getLines.run("r", { path: "big.log" }, h.ctx)).error).toMatch(/^big\.log is 600 MiB, too large to read whole/);
  });

  it("edit_lines refuses it with the size", async () => {
    fs.writeFileSync(h.abs("huge-edit.ts"), "");
    fs.truncateSync(h.abs("huge-edit.ts"), 100 * 1024 * 1024);
    const r = failed(await editLines.run("e", { path: "huge-edit.ts", start: 1, end: 1, content: "x" }, h.ctx));
    expect(r).toEqual({
      code: "FILE_TOO_LARGE",
      error: "huge-edit.ts is 100 MiB, too large to read whole (the limit is 64 MiB); ipuaro edits files up to that size; change it with run_command (e.g. `sed -i`) instead",
    });
  });
});

describe("UTF-16 text", () => {
  const text = "export const hello = 1;\n";
  it.each([
    ["UTF-16LE", "notes-le.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]), "FF FE"],
    ["UTF-16BE", "notes-be.txt", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]), "FE FF"],
  ])("get_lines and edit_lines call %s text that, not binary", async (bom, rel, bytes, mark) => {
    fs.writeFileSync(h.abs(rel), bytes);
    expect(failed(await getLines.run("r", { path: rel }, h.ctx))).toEqual({
      code: "NOT_TEXT",
      error: `${rel} is ${bom} text (it starts with the byte order mark ${mark}), not UTF-8; get_lines reads UTF-8 text only`,
    });
    expect(failed(await editLines.run("e", { path: rel, start: 1, end: 1, content: "x" }, h.ctx)).error).toBe(
      `${rel} is ${bom} text (it starts with the byte order mark ${mark}), not UTF-8; ipuaro edits UTF-8 text files only`,
    );
  });
});
