// Temporary folders for tests, with a declarative file tree and cleanup.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type FileTree = Record<string, string | Buffer>;

export function makeTempDir(prefix = "ipuaro-test-"): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function writeTree(root: string, tree: FileTree): void {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

export function copyFixture(name: string, into: string): string {
  const src = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), "..", "fixtures", name);
  fs.cpSync(src, into, { recursive: true });
  return into;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
