// Bundlers' output folders. `vite build` empties its outDir and writes the build there, and it follows a
// link to do it: checked with vite 8, a `dist` linked to a folder outside the project had that folder's
// files deleted and the build written in their place. So a bundler run asks when the folder it builds
// into (the one its command line names, else its default) leads out of the project or holds a link that
// does — run directly, or by a package script (`npm run build`, script-writes.ts). A folder set only in a
// config file (code) is not read: the default is what is checked there.
import path from "node:path";
import { cliValue, outputFolderFindings } from "./linked-writes.js";
import type { Finding } from "./shell-types.js";
import type { ShellWord } from "./shell-words.js";

/** Where a bundler run writes, relative to where it runs; empty when the run writes no build. */
type OutputFolders = (args: readonly ShellWord[]) => string[];

/** Options taking the next word as their value, so that word is no operand. */
const VITE_WITH_VALUE = new Set(["-c", "--config", "--base", "-l", "--logLevel", "-m", "--mode", "-f", "--filter", "--outDir", "--assetsDir", "--assetsInlineLimit", "--target"]);

/** The operands of a command line: its words that are neither options nor their values. */
function operands(args: readonly ShellWord[], withValue: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === "--") return [...out, ...args.slice(i + 1).map((w) => w.value)];
    if (withValue.has(text)) i++;
    else if (!text.startsWith("-")) out.push(text);
  }
  return out;
}

const HELP = new Set(["-h", "--help", "-v", "--version"]);
const asksForHelp = (args: readonly ShellWord[]) => args.some((w) => HELP.has(w.value));

/** A folder option's value, else the default; relative ones are relative to `base`. */
function folderIn(base: string, value: string | undefined, fallback: string): string {
  const folder = value ?? fallback;
  return path.isAbsolute(folder) ? folder : path.join(base, folder);
}

/** Bundlers whose first word is a subcommand worth naming (`vite build`). */
const WITH_SUBCOMMAND = new Set(["vite", "webpack", "parcel", "next", "astro"]);

const BUNDLERS: Record<string, OutputFolders> = {
  // `vite build [root]`: outDir (default dist) is relative to the root. The dev server and preview write nothing.
  vite: (args) => {
    const [command, root] = operands(args, VITE_WITH_VALUE);
    return command === "build" ? [folderIn(root ?? ".", cliValue(args, "--outDir"), "dist")] : [];
  },
  // webpack builds with no subcommand (or build/bundle/b, watch); serve, info, configtest… write no build.
  webpack: (args) => {
    const command = args[0] && !args[0].value.startsWith("-") ? args[0].value : "build";
    if (!["build", "bundle", "b", "watch", "w"].includes(command)) return [];
    return [folderIn(".", cliValue(args, "--output-path") ?? cliValue(args, "-o"), "dist")];
  },
  // rollup writes to stdout unless told a file or folder; a config (-c) usually says dist.
  rollup: (args) => {
    const dir = cliValue(args, "--dir") ?? cliValue(args, "-d");
    const file = cliValue(args, "--file") ?? cliValue(args, "-o");
    if (dir !== undefined) return [dir];
    if (file !== undefined) return [path.dirname(file)];
    return args.some((w) => w.value === "-c" || w.value === "--config" || w.value.startsWith("--config=")) ? ["dist"] : [];
  },
  tsup: (args) => [folderIn(".", cliValue(args, "--out-dir") ?? cliValue(args, "-d"), "dist")],
  // esbuild writes to stdout unless given --outdir or --outfile.
  esbuild: (args) => {
    const dir = cliValue(args, "--outdir");
    const file = cliValue(args, "--outfile");
    return dir !== undefined ? [dir] : file !== undefined ? [path.dirname(file)] : [];
  },
  parcel: (args) => (args[0]?.value === "build" ? [folderIn(".", cliValue(args, "--dist-dir"), "dist")] : []),
  next: (args) => (args[0]?.value === "build" ? [".next"] : args[0]?.value === "export" ? [folderIn(".", cliValue(args, "-o") ?? cliValue(args, "--outdir"), "out")] : []),
  astro: (args) => (args[0]?.value === "build" ? [folderIn(".", cliValue(args, "--outDir"), "dist")] : []),
};

/** Ask findings for bundler `program` run in `cwd` (a folder of the project at `root`) with `args`; none for other programs. */
export function bundlerFindings(program: string, args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  const folders = Object.hasOwn(BUNDLERS, program) ? BUNDLERS[program] : undefined;
  if (!folders || asksForHelp(args)) return [];
  const targets = folders(args);
  if (!targets.length) return [];
  const first = args[0]?.value;
  const command = WITH_SUBCOMMAND.has(program) && first !== undefined && !first.startsWith("-") ? `${program} ${first}` : program;
  return outputFolderFindings(command, targets, root, cwd);
}
