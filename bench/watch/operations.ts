// The file operations the watch bench performs, each with the condition that tells when the index
// reflects it: the new content's hash in `stat` (edits, creates), the path gone (deletes), both (renames).
import fs from "node:fs";
import path from "node:path";
import { hashContent } from "../../src/pipeline/watch/content-hash.js";

export type OpKind = "edit" | "create" | "delete" | "rename";

/** What the index must show for the operation to count as landed: path → hash, or null = absent. */
export type Expectation = Map<string, string | null>;

export interface Operation {
  kind: OpKind;
  label: string;
  /** Performs the write; returns what to wait for. Timing starts right before it runs. */
  apply(): Promise<Expectation>;
}

let counter = 0;

async function writeAndExpect(abs: string, rel: string, content: string): Promise<Expectation> {
  fs.writeFileSync(abs, content);
  return new Map([[rel, await hashContent(content)]]);
}

export function editOp(root: string, rel: string): Operation {
  return {
    kind: "edit",
    label: `edit ${rel}`,
    async apply() {
      const abs = path.join(root, rel);
      const n = ++counter;
      const next = `${fs.readFileSync(abs, "utf8")}\nexport function benchEdit${n}(): number {\n  return ${n};\n}\n`;
      return writeAndExpect(abs, rel, next);
    },
  };
}

export function createOp(root: string, neighbour: string): Operation {
  const dir = path.posix.dirname(neighbour);
  const stem = path.posix.basename(neighbour).replace(/\.[^.]+$/, "");
  // A fresh name even when a previous run on the same folder left its files behind.
  let n = ++counter;
  while (fs.existsSync(path.join(root, dir, `bench-created-${n}.ts`))) n = ++counter;
  const rel = `${dir}/bench-created-${n}.ts`;
  return {
    kind: "create",
    label: `create ${rel}`,
    apply: () =>
      writeAndExpect(path.join(root, rel), rel, `import * as neighbour from "./${stem}.js";\n\nexport function benchCreated${n}(): unknown {\n  return neighbour;\n}\n`),
  };
}

export function deleteOp(root: string, rel: string): Operation {
  return {
    kind: "delete",
    label: `delete ${rel}`,
    async apply() {
      fs.rmSync(path.join(root, rel));
      return new Map([[rel, null]]);
    },
  };
}

export function renameOp(root: string, rel: string): Operation {
  const to = rel.replace(/(\.[^./]+)$/, `.renamed${++counter}$1`);
  return {
    kind: "rename",
    label: `rename ${rel}`,
    async apply() {
      const hash = await hashContent(fs.readFileSync(path.join(root, rel)));
      fs.renameSync(path.join(root, rel), path.join(root, to));
      return new Map<string, string | null>([
        [rel, null],
        [to, hash],
      ]);
    },
  };
}

/** Appends one line to every file at once (a branch switch's worth of changes); one expectation for all. */
export async function burstEdit(root: string, rels: string[]): Promise<Expectation> {
  const out: Expectation = new Map();
  for (const rel of rels) {
    const abs = path.join(root, rel);
    const next = `${fs.readFileSync(abs, "utf8")}\nexport const benchBurst${++counter} = 1;\n`;
    fs.writeFileSync(abs, next);
    out.set(rel, await hashContent(next));
  }
  return out;
}
