// The OS watcher: @parcel/watcher subscribed to the project root, with the ignore rules parcel can
// express (so ignored trees such as node_modules are not even watched). Every event is still filtered
// by IgnoreRules downstream: nested .gitignore files change while we run and parcel cannot follow them.
import fs from "node:fs";
import path from "node:path";
import watcher, { type AsyncSubscription, type Event } from "@parcel/watcher";
import { virtualFolders } from "../virtual-mounts.js";
import type { RawChange } from "./event-coalescer.js";

/** Never indexed: VCS internals, ipuaro's own state, dependencies (mirrors ignore-rules.ts). */
const ALWAYS_IGNORED = [".git", ".hg", ".svn", ".ipuaro", "node_modules"];
const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * gitignore patterns as parcel ignore entries, where that is safe: parcel must never ignore more than
 * the rules do, so a negation (`!keep.min.js`) keeps every wildcard pattern out of the list. Anchored
 * names become absolute paths so the list also works for subscriptions on subfolders; anchored globs
 * (relative to the root) are only used for the root's subscription.
 */
export function parcelIgnoreList(root: string, patterns: readonly string[], forSubfolder = false): string[] {
  const cleaned = patterns.map((p) => p.trim()).filter((p) => p && !p.startsWith("#") && !p.includes("\\"));
  const negated = cleaned.filter((p) => p.startsWith("!")).map((p) => p.slice(1).replace(/^\/|\/$/g, ""));
  const out = new Set<string>();
  for (const name of ALWAYS_IGNORED) out.add(`**/${name}`);
  // A /proc mounted under the project (a chroot's) holds thousands of folders nothing reads: not watched.
  for (const rel of virtualFolders(root)) if (rel) out.add(path.join(root, rel));
  for (const raw of cleaned) {
    if (raw.startsWith("!")) continue;
    const pattern = raw.replace(/\/+$/, "");
    const anchored = pattern.includes("/"); // a slash at the start or in the middle anchors it to the root
    const bare = pattern.replace(/^\//, "");
    if (!bare || negated.includes(bare)) continue;
    const glob = GLOB_CHARS.test(bare);
    if (glob && negated.length) continue;
    if (!anchored) out.add(`**/${bare}`);
    else if (!glob) out.add(path.join(root, bare));
    else if (!forSubfolder) out.add(bare);
  }
  return [...out];
}

export interface TreeWatch {
  /**
   * Watches folders that appeared with subfolders inside: parcel only adds the new folder itself, so
   * each gets a subscription of its own, which reads its whole tree.
   */
  watchFolders(rels: string[]): Promise<void>;
  /** Drops the subscriptions of folders that no longer exist. */
  prune(): Promise<void>;
  close(): Promise<void>;
}

export interface TreeWatchOptions {
  ignorePatterns: readonly string[];
  onChanges(changes: RawChange[]): void;
  onError(err: Error): void;
}

function isFolder(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isDirectory();
  } catch {
    return false;
  }
}

export async function watchTree(root: string, opts: TreeWatchOptions): Promise<TreeWatch> {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  const callback = (err: Error | null, events: Event[]) => {
    if (err) opts.onError(err);
    const changes: RawChange[] = [];
    for (const e of events ?? []) {
      if (e.path.startsWith(prefix)) changes.push({ path: e.path.slice(prefix.length).split(path.sep).join("/"), type: e.type });
    }
    if (changes.length) opts.onChanges(changes);
  };
  let main: AsyncSubscription | null = await watcher.subscribe(root, callback, { ignore: parcelIgnoreList(root, opts.ignorePatterns) });
  const folderIgnore = parcelIgnoreList(root, opts.ignorePatterns, true);
  const folders = new Map<string, AsyncSubscription>();
  const unwatch = async (rel: string) => {
    const sub = folders.get(rel);
    folders.delete(rel);
    await sub?.unsubscribe().catch(() => {});
  };
  return {
    async watchFolders(rels) {
      if (!main) return;
      for (const rel of rels) {
        // parcel shares a watcher per (folder, ignore list) and caches its tree: start from a clean one.
        await unwatch(rel);
        try {
          folders.set(rel, await watcher.subscribe(path.join(root, rel), callback, { ignore: folderIgnore }));
        } catch (err) {
          opts.onError(err as Error); // gone again already, or out of inotify watches
        }
      }
    },
    async prune() {
      // A folder replaced by a symlink to it (existsSync would follow the link) is gone too.
      for (const rel of [...folders.keys()]) if (!isFolder(path.join(root, rel))) await unwatch(rel);
    },
    async close() {
      const sub = main;
      main = null;
      for (const rel of [...folders.keys()]) await unwatch(rel);
      // parcel cannot remove an inotify watch the kernel already dropped (a folder moved out of the tree
      // and deleted there): EINVAL. The watch is gone either way.
      await sub?.unsubscribe().catch(() => {});
    },
  };
}
