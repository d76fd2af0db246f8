// Read tools check the index's copy against the disk: a file rewritten behind ipuaro's back (a formatter
// run by run_command, `ipuaro run` with no watcher) is served as it is now, and can then be edited.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { editLines } from "../../../src/main/tools/edit-lines.js";
import { getFunction } from "../../../src/main/tools/get-function.js";
import { getLines } from "../../../src/main/tools/get-lines.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { externalWrite, openEditHarness, type EditHarness } from "./edit-test-kit.js";

const server = useRedisServer();
const STRINGS = "packages/core/src/utils/strings.ts";

let h: EditHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const refreshes = (harness: EditHarness) => harness.calls.filter((c) => c.call === "refreshIndex").length;

describe("reads against a file changed on disk since it was indexed", () => {
  it("get_lines serves the disk's content (the index refreshed first), and the edit that follows applies", async () => {
    h = await openEditHarness(server().url);
    const formatted = `// formatted header\n${h.read(STRINGS)}`;
    await externalWrite(h, STRINGS, formatted, false);
    const read = await getLines.run("r", { path: STRINGS, start: 1, end: 3 }, h.ctx);
    expect(read.success).toBe(true);
    expect(read.data).toContain("1│ // formatted header");
    expect(refreshes(h)).toBe(1);
    const stored = await h.project.store.getFile(STRINGS);
    expect(stored?.kind === "text" && stored.lines[0]).toBe("// formatted header");

    const edit = await editLines.run("e", { path: STRINGS, start: 1, end: 1, content: "// header" }, h.ctx);
    expect(edit.success).toBe(true);
    expect(h.read(STRINGS)).toBe(formatted.replace("// formatted header", "// header"));
  });

  it("get_function finds a declaration where the rewritten file has it now", async () => {
    h = await openEditHarness(server().url);
    await externalWrite(h, STRINGS, `\n\n\n${h.read(STRINGS)}`, false);
    const fn = await getFunction.run("f", { path: STRINGS, name: "truncate" }, h.ctx);
    expect(fn.success).toBe(true);
    expect(fn.data).toContain("lines 12-14 of 14\n12│ export function truncate(");
  });

  it("a touched file with the same bytes is served from the index without a refresh", async () => {
    h = await openEditHarness(server().url);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(h.abs(STRINGS), later, later);
    const read = await getLines.run("r", { path: STRINGS }, h.ctx);
    expect(read.success).toBe(true);
    expect(refreshes(h)).toBe(0);
  });
});
