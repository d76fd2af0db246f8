// AST accuracy bench: `npx tsx bench/ast-accuracy/run.ts DIR [--verbose] [--json]`.
// Extracts declarations from every JS/TS file under DIR with extractFile and with the TypeScript compiler
// API (reference.ts defines the correspondence), and prints the agreement per kind (matched / union).
// The target is ≥ 99 % per kind on real code. `--verbose` lists up to 10 mismatches per kind
// (AST_ACCURACY_EXAMPLES=N for more). Its sibling speed.ts measures parse vs extraction time.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { extractFile, languageForPath } from "../../src/workers/extract/index.js";
import { agreement, compareKeys, KINDS, ourRecords, type KindName, type KindTally } from "./compare.js";
import { collectSourceFiles } from "./files.js";
import { referenceRecords } from "./reference.js";
import { requireFolder } from "../lib/bench-args.js";

const MAX_EXAMPLES = Number(process.env.AST_ACCURACY_EXAMPLES ?? 10);

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const asJson = args.includes("--json");
const dir = args.find((a) => !a.startsWith("--"));
const USAGE = "usage: npm run bench:ast-accuracy -- DIR [--verbose] [--json]";
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
if (!dir) {
  console.error(USAGE);
  process.exit(2);
}
requireFolder(dir, USAGE);

const tallies = Object.fromEntries(KINDS.map((k) => [k, { ts: 0, ours: 0, matched: 0 }])) as Record<KindName, KindTally>;
const examples = Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<KindName, string[]>;
const files = collectSourceFiles(dir);
let parseErrors = 0;

for (const path of files) {
  const source = readFileSync(path, "utf8");
  const { ast } = extractFile(source, languageForPath(path)!);
  if (ast.parseError) parseErrors++;
  const ours = ourRecords(ast);
  const reference = referenceRecords(path, source);
  for (const kind of KINDS) {
    const { onlyTs, onlyOurs } = compareKeys(reference[kind], ours[kind], tallies[kind]);
    const list = examples[kind];
    const where = relative(dir, path) || path;
    for (const key of onlyTs) if (list.length < MAX_EXAMPLES) list.push(`${where}: only TypeScript: ${key}`);
    for (const key of onlyOurs) if (list.length < MAX_EXAMPLES) list.push(`${where}: only extractFile: ${key}`);
  }
}

const overall: KindTally = { ts: 0, ours: 0, matched: 0 };
for (const kind of KINDS) {
  overall.ts += tallies[kind].ts;
  overall.ours += tallies[kind].ours;
  overall.matched += tallies[kind].matched;
}

if (asJson) {
  const kinds = Object.fromEntries(KINDS.map((k) => [k, { ...tallies[k], agreement: agreement(tallies[k]) }]));
  console.log(JSON.stringify({ kinds, overall: { ...overall, agreement: agreement(overall) }, files: files.length, parseErrors }, null, 2));
} else {
  console.log(`${files.length} files (${parseErrors} with tree-sitter parse errors) under ${dir}`);
  const row = (name: string, t: KindTally): string =>
    `${name.padEnd(10)} ts ${String(t.ts).padStart(7)}  ours ${String(t.ours).padStart(7)}  matched ${String(t.matched).padStart(7)}  agreement ${(100 * agreement(t)).toFixed(2)}%`;
  for (const kind of KINDS) console.log(row(kind, tallies[kind]));
  console.log(row("overall", overall));
  if (verbose) {
    for (const kind of KINDS) {
      if (examples[kind].length === 0) continue;
      console.log(`\n${kind} mismatches (up to ${MAX_EXAMPLES}):`);
      for (const line of examples[kind]) console.log(`  ${line}`);
    }
  }
}
