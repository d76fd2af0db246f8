// Command-line options of the bench scripts: `--help` prints the usage, and an unknown or malformed
// option is one line and exit 2 (node's parseArgs threw a TypeError with a stack).
import fs from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function benchArgs<const O extends Options, const P extends boolean = false>(usage: string, options: O, allowPositionals?: P) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const config = { args, options, allowPositionals: (allowPositionals ?? false) as P, strict: true as const };
  try {
    return parseArgs(config);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${usage}\n`);
    process.exit(2);
  }
}

/** Exits 2 with a one-line message when `dir` is not a folder. */
export function requireFolder(dir: string, usage: string): void {
  let ok = false;
  try {
    ok = fs.statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) {
    process.stderr.write(`not a folder: ${dir}\n${usage}\n`);
    process.exit(2);
  }
}
