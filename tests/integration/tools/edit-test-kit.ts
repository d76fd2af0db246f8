// Shared setup of the edit-tool tests: a fresh indexed acme-shop per test, a context whose services
// log, in call order, what was on disk at each call (to prove the undo entry precedes the write), and
// a stand-in for the read tools that puts a file in the model's read ledger.
import fs from "node:fs";
import path from "node:path";
import { rememberRead } from "../../../src/main/tools/read-snapshots.js";
import { buildAcmeShop, openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { removeDir } from "../../helpers/temp-dir.js";
import { toolContext, type PortAnswers, type TestToolContext } from "../../helpers/tool-context.js";

export interface OrderedCall {
  call: "recordEdit" | "registerOwnWrite" | "refreshIndex";
  path: string;
  /** The file's content on disk when the call was made (null = missing). */
  disk: string | null;
}

export interface EditHarness {
  project: IndexedProject;
  ctx: TestToolContext;
  calls: OrderedCall[];
  abs(rel: string): string;
  read(rel: string): string;
  /** What a read tool does: the model has now seen the indexed copy of `rel`. */
  markRead(rel: string): Promise<void>;
  close(): Promise<void>;
}

function diskOf(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export async function openEditHarness(redisUrl: string, answers: PortAnswers = {}): Promise<EditHarness> {
  const root = buildAcmeShop();
  const project = await openIndexedProject(root, redisUrl);
  await project.reindex();
  const ctx = toolContext(project, { answers });
  const calls: OrderedCall[] = [];
  const abs = (rel: string) => path.join(root, rel);
  const recording = ctx.services;
  const { recordEdit, refreshIndex, registerOwnWrite } = recording;
  ctx.services = Object.assign(recording, {
    async recordEdit(record: Parameters<typeof recordEdit>[0]) {
      calls.push({ call: "recordEdit", path: record.filePath, disk: diskOf(abs(record.filePath)) });
      await recordEdit.call(recording, record);
    },
    registerOwnWrite(rel: string, hash: string | null) {
      calls.push({ call: "registerOwnWrite", path: rel, disk: diskOf(abs(rel)) });
      registerOwnWrite.call(recording, rel, hash);
    },
    async refreshIndex(paths: string[]) {
      for (const p of paths) calls.push({ call: "refreshIndex", path: p, disk: diskOf(abs(p)) });
      await refreshIndex.call(recording, paths);
    },
  });
  return {
    project,
    ctx,
    calls,
    abs,
    read: (rel) => fs.readFileSync(abs(rel), "utf8"),
    async markRead(rel) {
      const stored = await project.store.getFile(rel);
      if (stored?.kind !== "text") throw new Error(`markRead: ${rel} is not an indexed text file`);
      rememberRead(ctx.session, rel, stored.hash, stored.lines);
    },
    async close() {
      await project.close();
      removeDir(root);
    },
  };
}

/** Writes a file the way another program would (not through ipuaro) and re-indexes, as the watcher would. */
export async function externalWrite(h: EditHarness, rel: string, content: string | Buffer, reindex = true): Promise<void> {
  fs.writeFileSync(h.abs(rel), content);
  if (reindex) await h.project.reindex();
}
