// `ipuaro index --drop [path]`: deletes one project's index from Redis and says what that freed. The
// project's sessions and memory stay (store/index-drop.ts). A folder that is gone can still have its
// index dropped, and so can `/`, which ipuaro no longer indexes but an older one may have.
import fs from "node:fs";
import path from "node:path";
import { formatBytes } from "../../checkpoints/blob-gc.js";
import { loadConfig } from "../../config/loader.js";
import { counted } from "../../plural.js";
import { dropProjectIndex, type DroppedIndex } from "../../store/index-drop.js";
import { openProjectStore } from "../../store/open-project-store.js";
import { resolveProjectRoot } from "../project-root.js";

export interface DropOptions {
  json?: boolean;
}

/** The project folder: as `ipuaro index` resolves it, or, for a folder that no longer exists, its path. */
function dropRoot(target: string): string {
  return fs.existsSync(target) ? resolveProjectRoot(target) : path.resolve(target);
}

export function dropText(project: string, root: string, dropped: DroppedIndex): string {
  if (dropped.keys === 0) return `${project} (${root}) has no index to drop`;
  const freed = dropped.bytes === null ? "" : `, ${formatBytes(dropped.bytes)} freed`;
  return `dropped the index of ${project} (${root}): ${counted(dropped.files, "file")}, ${counted(dropped.keys, "key")}${freed}; its sessions and memory are kept (an ipuaro UI or \`ipuaro index --watch\` running on it indexes the project again)`;
}

export async function dropIndexAction(target: string, opts: DropOptions): Promise<void> {
  const root = dropRoot(target);
  const { config } = loadConfig({ projectRoot: root });
  const opened = await openProjectStore(config, root);
  try {
    const dropped = await dropProjectIndex(opened.store, "ipuaro index --drop");
    const project = opened.store.projectName;
    if (opts.json) process.stdout.write(`${JSON.stringify({ project, root, dropped: dropped.keys > 0, files: dropped.files, keys: dropped.keys, bytesFreed: dropped.bytes })}\n`);
    else process.stdout.write(`${dropText(project, root, dropped)}\n`);
  } finally {
    await opened.release();
  }
}
