// Bundlers' output folders. `vite build` empties its outDir and writes the build there, and it follows a
// link to do it: checked with vite 8, a `dist` linked to a folder outside the project had that folder's
// files deleted and the build written in their place. So a bundler run asks when the folder it builds
// into leads out of the project or holds a link that does — run directly, or by a package script (`npm
// run build`, script-writes.ts). The folder is the one its command line names, else the one its config
// file sets (bundler-configs.ts; computed by code: asks), else its default.
import path from "node:path";
import { bundlerConfigFile, configuredOutput } from "./bundler-configs.js";
import { cliValue, outputFolderFindings, shownInProject } from "./linked-writes.js";
import { parcelOutputFolders } from "./parcel-targets.js";
import type { Finding } from "./shell-types.js";
import type { ShellWord } from "./shell-words.js";

/**
 * The folders a config file sets, as `configured(dir, named, fallback)`: the config read is the one named
 * (`-c`), else the usual one in `dir` (relative to where the bundler runs); `fallback` when it sets none.
 */
type ConfigLookup = (dir: string, named: string | undefined, fallback: string[]) => string[];

/** Where a bundler run writes, relative to where it runs (`cwd`) or absolute; empty when the run writes no build. */
type OutputFolders = (args: readonly ShellWord[], configured: ConfigLookup, cwd: string) => string[];

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

/** A folder relative to `base` (itself relative to where the bundler runs), or absolute. */
const folderIn = (base: string, folder: string): string => (path.isAbsolute(folder) ? folder : path.join(base, folder));

/** The config file a `-c X` / `--config X` names. */
const namedConfig = (args: readonly ShellWord[]): string | undefined => cliValue(args, "--config") ?? cliValue(args, "-c");

/** rollup's `-c` may stand alone (rollup.config.*) or name a file. */
function rollupConfig(args: readonly ShellWord[]): { used: boolean; named?: string } {
  const at = args.findIndex((w) => w.value === "-c" || w.value === "--config" || w.value.startsWith("--config="));
  if (at === -1) return { used: false };
  const word = args[at]!;
  if (word.value.startsWith("--config=")) return { used: true, named: word.value.slice("--config=".length) };
  const next = args[at + 1];
  return next && !next.dynamic && /\.[cm]?[jt]s$/.test(next.value) ? { used: true, named: next.value } : { used: true };
}

/** Bundlers whose first word may be a subcommand worth naming (`vite build`) rather than an entry. */
const WITH_SUBCOMMAND = new Set(["vite", "webpack", "parcel", "next", "astro"]);
const looksLikeSubcommand = (word: string | undefined): word is string => word !== undefined && /^[a-z][a-z-]*$/.test(word);

/** webpack-cli's commands and their aliases: any other first word is an entry to build. */
const WEBPACK_COMMANDS = new Set([
  "build", "bundle", "b", "watch", "w", "serve", "server", "s", "configtest", "t", "help", "h", "info", "i",
  "init", "create", "new", "c", "n", "loader", "l", "plugin", "p", "version", "v", "migrate", "m",
]);

const BUNDLERS: Record<string, OutputFolders> = {
  // `vite build [root]`: outDir (default dist) is relative to the root. The dev server and preview write nothing.
  vite: (args, configured) => {
    const [command, root = "."] = operands(args, VITE_WITH_VALUE);
    if (command !== "build") return [];
    const outDir = cliValue(args, "--outDir");
    return outDir !== undefined ? [folderIn(root, outDir)] : configured(root, namedConfig(args), [folderIn(root, "dist")]);
  },
  // webpack builds with no subcommand, with entries for its first words (`webpack ./src/a.js`), or with
  // build/bundle/b, watch/w; its other commands (serve, info, configtest…) write no build.
  webpack: (args, configured) => {
    const first = args[0] && !args[0].value.startsWith("-") ? args[0].value : "build";
    if (WEBPACK_COMMANDS.has(first) && !["build", "bundle", "b", "watch", "w"].includes(first)) return [];
    const out = cliValue(args, "--output-path") ?? cliValue(args, "-o");
    return out !== undefined ? [out] : configured(".", namedConfig(args), ["dist"]);
  },
  // rollup writes to stdout unless told a file or folder, on its command line or in its config (-c).
  rollup: (args, configured) => {
    const dir = cliValue(args, "--dir") ?? cliValue(args, "-d");
    const file = cliValue(args, "--file") ?? cliValue(args, "-o");
    if (dir !== undefined) return [dir];
    if (file !== undefined) return [path.dirname(file)];
    const config = rollupConfig(args);
    return config.used ? configured(".", config.named, ["dist"]) : [];
  },
  tsup: (args, configured) => {
    const out = cliValue(args, "--out-dir") ?? cliValue(args, "-d");
    return out !== undefined ? [out] : configured(".", cliValue(args, "--config"), ["dist"]);
  },
  // esbuild writes to stdout unless given --outdir or --outfile.
  esbuild: (args) => {
    const dir = cliValue(args, "--outdir");
    const file = cliValue(args, "--outfile");
    return dir !== undefined ? [dir] : file !== undefined ? [path.dirname(file)] : [];
  },
  // parcel's targets come from package.json (parcel-targets.ts); its dev server writes too.
  parcel: (args, _configured, cwd) => parcelOutputFolders(args, cwd),
  next: (args, configured) => {
    if (args[0]?.value === "build") return configured(".", undefined, [".next"]);
    return args[0]?.value === "export" ? [cliValue(args, "-o") ?? cliValue(args, "--outdir") ?? "out"] : [];
  },
  astro: (args, configured) => {
    if (args[0]?.value !== "build") return [];
    const outDir = cliValue(args, "--outDir");
    return outDir !== undefined ? [outDir] : configured(".", cliValue(args, "--config"), ["dist"]);
  },
};

/** Ask findings for bundler `program` run in `cwd` (a folder of the project at `root`) with `args`; none for other programs. */
export function bundlerFindings(program: string, args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  const folders = Object.hasOwn(BUNDLERS, program) ? BUNDLERS[program] : undefined;
  if (!folders || asksForHelp(args)) return [];
  const first = args[0]?.value;
  const command = WITH_SUBCOMMAND.has(program) && looksLikeSubcommand(first) ? `${program} ${first}` : program;
  const unknown: Finding[] = [];
  const configured: ConfigLookup = (dir, named, fallback) => {
    const base = path.resolve(cwd, dir);
    const file = bundlerConfigFile(program, base, named === undefined ? undefined : path.resolve(cwd, named));
    const said = configuredOutput(program, file, base);
    if (said.kind === "folders") return said.folders;
    if (said.kind === "unknown") {
      unknown.push({ verdict: "ask", reason: `\`${command}\` writes its output where \`${said.key}\` in \`${shownInProject(root, said.file)}\` says, which is computed: where it leads cannot be told` });
    }
    return fallback;
  };
  const targets = folders(args, configured, cwd);
  if (!targets.length) return unknown;
  return [...unknown, ...outputFolderFindings(command, targets, root, cwd)];
}
