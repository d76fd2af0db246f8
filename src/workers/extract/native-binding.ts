// Direct access to node tree-sitter 0.22.4's native binding, for the deep pass's node table
// (deep-nodes.ts). The package's JS wrapper marshals a node as 6 uint32 words in the binding's
// `nodeTransferArray` (node id ×2, start byte, start row, start column, alias) and calls
// `NodeMethods.<fn>(tree, …)`; this module uses the same protocol without creating node objects.
// It returns null when the binding does not look like that, and deep-nodes.ts only uses it after a
// self-check against the public API, so a tree-sitter upgrade degrades to the public path, not to
// wrong results.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type Parser from "tree-sitter";

export interface NativeBinding {
  NodeMethods: {
    descendantsOfType(tree: Parser.Tree, types: string[]): Array<number | Parser.SyntaxNode>;
    endIndex(tree: Parser.Tree): number;
    type(tree: Parser.Tree): string;
    childForFieldName(tree: Parser.Tree, field: string): number | Parser.SyntaxNode | null;
  };
  readonly nodeTransferArray: Uint32Array;
  /** Puts a node object's fields in the transfer buffer's first slot. */
  loadNode(node: Parser.SyntaxNode): void;
  /** Puts 6 words from `fields` (at `offset`) in the transfer buffer's first slot. */
  loadFields(fields: Uint32Array, offset: number): void;
}

let loaded: NativeBinding | null | undefined;

export function nativeBinding(): NativeBinding | null {
  if (loaded === undefined) loaded = loadBinding();
  return loaded;
}

function loadBinding(): NativeBinding | null {
  try {
    const require = createRequire(import.meta.url);
    const entry = require.resolve("tree-sitter");
    // The same loader and directory as tree-sitter's index.js, so Node returns the already-loaded addon.
    const nodeGypBuild = createRequire(entry)("node-gyp-build") as (dir: string) => Record<string, unknown>;
    const raw = nodeGypBuild(dirname(entry)) as { NodeMethods?: Record<string, unknown>; nodeTransferArray?: unknown };
    const methods = raw.NodeMethods;
    const required = ["descendantsOfType", "endIndex", "type", "childForFieldName"];
    if (!methods || required.some((name) => typeof methods[name] !== "function")) return null;
    if (!(raw.nodeTransferArray instanceof Uint32Array)) return null;
    return {
      NodeMethods: methods as unknown as NativeBinding["NodeMethods"],
      get nodeTransferArray() {
        // Re-read every time: the binding swaps in a bigger buffer when a call returns many nodes.
        return raw.nodeTransferArray as Uint32Array;
      },
      loadNode(node) {
        const transfer = raw.nodeTransferArray as Uint32Array;
        const words = node as unknown as ArrayLike<number>;
        for (let f = 0; f < 6; f++) transfer[f] = words[f]!;
      },
      loadFields(fields, offset) {
        (raw.nodeTransferArray as Uint32Array).set(fields.subarray(offset, offset + 6), 0);
      },
    };
  } catch {
    return null;
  }
}
