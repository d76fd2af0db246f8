// A UTF-16 file with its byte order mark is text in an encoding ipuaro does not read: counted and named
// as not UTF-8, never as binary (its NUL bytes made it "binary"), by a full index and by the watcher.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexJson } from "../../../src/main/cli/index-report.js";
import { closeIndexedProject, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { makeTempDir, writeTree } from "../../helpers/temp-dir.js";
import { startWatching, type WatchHarness } from "../watch/watch-harness.js";

const server = useRedisServer();

const TEXT = 'export const greeting = "hello";\n';
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);

let project: IndexedProject;
let run: Awaited<ReturnType<IndexedProject["reindex"]>>;
let w: WatchHarness | undefined;

beforeAll(async () => {
  const root = makeTempDir("ipuaro-utf16-");
  writeTree(root, {
    "package.json": '{"name":"utf16"}',
    "src/ok.ts": "export const ok = 1;\n",
    "src/greeting-le.ts": utf16le(TEXT),
    "src/strings-be.json": utf16be('{"hello": "world"}\n'),
    // NUL bytes without a byte order mark: binary, as before.
    "src/blob.ts": Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02, 0x70]),
  });
  project = await openIndexedProject(root, server().url);
  run = await project.reindex();
}, 60_000);
afterAll(async () => {
  await w?.stop();
  await closeIndexedProject(project);
});

describe("UTF-16 files", () => {
  it("are skipped as not UTF-8, and named so by `index --json`", async () => {
    expect(run.skipped).toMatchObject({ binary: 1, nonUtf8: 2 });
    const json = indexJson("utf16", run, null) as { nonUtf8Files: string[]; skipped: Record<string, number> };
    expect([...json.nonUtf8Files].sort()).toEqual(["src/greeting-le.ts", "src/strings-be.json"]);
    expect(await project.store.getFile("src/greeting-le.ts")).toBeNull();
    expect(await project.store.getFile("src/blob.ts")).toMatchObject({ kind: "binary" });
  });

  it("written while watched, one is not indexed and the update says not UTF-8", async () => {
    w = await startWatching(project);
    const from = w.events.length;
    w.write("src/notes-le.ts", utf16le(TEXT));
    expect(await w.waitUpdate((e) => e.path === "src/notes-le.ts", from)).toMatchObject({ type: "ignored", reason: "nonUtf8", hash: null });
    expect(await project.store.getFile("src/notes-le.ts")).toBeNull();
  });
});
