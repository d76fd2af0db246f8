// The nodes of given types anywhere in a tree, as a read-only table for the deep pass (calls.ts).
//
// Two sources with one interface:
// - PublicDeepNodes: `rootNode.descendantsOfType()`, which materialises every match as a SyntaxNode
//   (an object, a native call per property, and a GC finaliser each).
// - RawDeepNodes: the same native walk through node tree-sitter's binding, reading each match's start
//   offset and row from the transfer buffer the binding fills anyway, so no node objects exist. On
//   call-heavy TS it makes the deep pass ~40% cheaper. It depends on tree-sitter 0.22.4 internals (see
//   native-binding.ts) and is used only when a self-check against the public API passes.
import type Parser from "tree-sitter";
import { nativeBinding, type NativeBinding } from "./native-binding.js";
import { parseSource } from "./parsers.js";
import { SourceText } from "./source-text.js";

export interface DeepNodes {
  readonly count: number;
  /** UTF-16 offset of node i. */
  start(i: number): number;
  /** 1-based line of node i. */
  line(i: number): number;
  end(i: number): number;
  type(i: number): string;
  /** [start, end) of a call's `function` child, or null. */
  functionRange(i: number): [number, number] | null;
}

export function collectDeepNodes(tree: Parser.Tree, text: SourceText, types: string[]): DeepNodes {
  const binding = verifiedBinding();
  return binding ? new RawDeepNodes(binding, tree, types) : new PublicDeepNodes(tree.rootNode, text, types);
}

let mode: "auto" | "public" = "auto";
let verified: NativeBinding | null | undefined;

/** Test and bench hook: `public` forces the SyntaxNode path. */
export function setDeepNodeSource(source: "auto" | "public"): void {
  mode = source;
}

export function usesNativeBinding(): boolean {
  return verifiedBinding() !== null;
}

function verifiedBinding(): NativeBinding | null {
  if (mode === "public") return null;
  if (verified === undefined) {
    const binding = nativeBinding();
    verified = binding && agreesWithPublicApi(binding) ? binding : null;
  }
  return verified;
}

/** Once per thread: both sources must report the same nodes for a sample with every case the pass uses. */
function agreesWithPublicApi(binding: NativeBinding): boolean {
  try {
    const sample = "/* é */ a.b(c).d`t`;\nfunction f() { if (x) { g?.(\"ü\"); } switch (y) {} }\n({ k: 1 }.toString());";
    const tree = parseSource(sample, "typescript");
    const types = ["call_expression", "comment", "statement_block", "switch_body"];
    // Raw first (nodes come through the transfer buffer), then public, then raw again (nodes the public
    // API materialised come back as objects): both raw branches are checked.
    const fresh = new RawDeepNodes(binding, tree, types);
    const expected = new PublicDeepNodes(tree.rootNode, new SourceText(sample), types);
    const cached = new RawDeepNodes(binding, tree, types);
    return expected.count >= 8 && sameNodes(expected, fresh) && sameNodes(expected, cached);
  } catch {
    return false;
  }
}

export function sameNodes(a: DeepNodes, b: DeepNodes): boolean {
  if (a.count !== b.count) return false;
  for (let i = 0; i < a.count; i++) {
    const same =
      a.start(i) === b.start(i) &&
      a.line(i) === b.line(i) &&
      a.end(i) === b.end(i) &&
      a.type(i) === b.type(i) &&
      JSON.stringify(a.functionRange(i)) === JSON.stringify(b.functionRange(i));
    if (!same) return false;
  }
  return true;
}

export class PublicDeepNodes implements DeepNodes {
  private readonly nodes: Parser.SyntaxNode[];
  private readonly starts: number[];

  constructor(
    root: Parser.SyntaxNode,
    private readonly text: SourceText,
    types: string[],
  ) {
    this.nodes = root.descendantsOfType(types);
    this.starts = this.nodes.map((n) => n.startIndex);
  }

  get count(): number {
    return this.nodes.length;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  line(i: number): number {
    return this.text.lineAt(this.starts[i]!);
  }

  end(i: number): number {
    return this.nodes[i]!.endIndex;
  }

  type(i: number): string {
    return this.nodes[i]!.type;
  }

  functionRange(i: number): [number, number] | null {
    const fn = this.nodes[i]!.childForFieldName("function");
    return fn ? [fn.startIndex, fn.endIndex] : null;
  }
}

/** Fields per node in the binding's transfer buffer: node id (2 words), then start byte, row, column, alias. */
const FIELDS = 6;

export class RawDeepNodes implements DeepNodes {
  readonly count: number;
  private readonly fields: Uint32Array;

  constructor(
    private readonly binding: NativeBinding,
    private readonly tree: Parser.Tree,
    types: string[],
  ) {
    binding.loadNode(tree.rootNode);
    const found = binding.NodeMethods.descendantsOfType(tree, types);
    // Copy out at once: the next native call reuses the transfer buffer.
    const transfer = binding.nodeTransferArray;
    this.count = found.length;
    this.fields = new Uint32Array(found.length * FIELDS);
    let read = 0;
    for (let i = 0; i < found.length; i++) {
      const item = found[i];
      if (typeof item === "number") {
        this.fields.set(transfer.subarray(read, read + FIELDS), i * FIELDS);
        read += FIELDS;
      } else {
        // A node already materialised elsewhere comes back as its object, which carries the same fields.
        const node = item as unknown as ArrayLike<number>;
        for (let f = 0; f < FIELDS; f++) this.fields[i * FIELDS + f] = node[f]!;
      }
    }
  }

  start(i: number): number {
    return this.fields[i * FIELDS + 2]! >>> 1; // UTF-16LE bytes → code units
  }

  line(i: number): number {
    return this.fields[i * FIELDS + 3]! + 1;
  }

  end(i: number): number {
    this.binding.loadFields(this.fields, i * FIELDS);
    return this.binding.NodeMethods.endIndex(this.tree);
  }

  type(i: number): string {
    this.binding.loadFields(this.fields, i * FIELDS);
    return this.binding.NodeMethods.type(this.tree);
  }

  functionRange(i: number): [number, number] | null {
    const binding = this.binding;
    binding.loadFields(this.fields, i * FIELDS);
    const child = binding.NodeMethods.childForFieldName(this.tree, "function");
    if (child === null || child === undefined) return null;
    if (typeof child !== "number") binding.loadNode(child);
    // The child's fields are now in the transfer buffer's first slot.
    const start = binding.nodeTransferArray[2]! >>> 1;
    return [start, binding.NodeMethods.endIndex(this.tree)];
  }
}
