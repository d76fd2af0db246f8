// `ipuaro [path]` (also `ipuaro tui [path]`): the full-screen UI, the default command. The UI lives in
// src/ui and is loaded on demand, so the headless commands never load blessed; this dynamic import is
// the CLI's one edge into src/ui (the composition root), core modules never import it.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { FatalError } from "../../errors.js";
import { editDistance } from "../../tools/symbol-suggestions.js";
import { startRedisEarly } from "../early-redis.js";

interface TuiOptions {
  new?: boolean;
  session?: string;
  yes?: boolean;
  continue?: boolean;
}

export function registerTuiCommand(program: Command): void {
  program
    .command("tui", { isDefault: true })
    .description("open the full-screen UI on a project (the default: `ipuaro [path]`)")
    .argument("[path]", "project root", ".")
    .option("--new", "start a new session (default: continue the project's last one)")
    .option("--session <id>", "continue this session (see `ipuaro sessions list`)")
    // The first flag people who use Claude Code or Codex type; it is what the UI does anyway.
    .option("-c, --continue", "continue the project's last session (the default)")
    .option("-y, --yes", "do not ask before indexing more than limits.maxFilesWarning files")
    .action(async (target: string, opts: TuiOptions, command: Command) => {
      const mistyped = mistypedCommand(target, command.parent?.commands.map((c) => c.name()) ?? []);
      if (mistyped) throw new FatalError(mistyped, 2);
      if (opts.continue && (opts.new || opts.session)) throw new FatalError("--continue cannot be combined with --new or --session", 2);
      if (process.stdin.isTTY && process.stdout.isTTY) await startRedisEarly(target);
      const { runTui } = await import("../../../ui/run-tui.js");
      const { continue: _continue, ...tuiOptions } = opts;
      process.exitCode = await runTui(target, tuiOptions);
    });
}

/**
 * `ipuaro indx` reaches the default command with "indx" as the project path. A bare word that is no
 * folder here is far more likely a mistyped command: say so (and which one was meant) instead of
 * "no such directory".
 */
export function mistypedCommand(target: string, commands: readonly string[]): string | null {
  if (target.includes("/") || target.startsWith(".") || fs.existsSync(path.resolve(target))) return null;
  // One edit for short words (two would make "foo" a "tool"), two for longer ones; the closest only.
  const max = target.length <= 4 ? 1 : 2;
  const scored = commands.filter((c) => c !== "tui").map((c) => ({ c, d: editDistance(target.toLowerCase(), c, max) }));
  const best = Math.min(...scored.map((s) => s.d));
  const near = best <= max ? scored.filter((s) => s.d === best).map((s) => s.c) : [];
  const help = "`ipuaro --help` lists the commands";
  if (near.length) return `unknown command "${target}"; did you mean ${near.map((c) => `\`ipuaro ${c}\``).join(" or ")}? (${help})`;
  return `"${target}" is neither a command nor a folder here (${help}; \`ipuaro [path]\` opens the UI on a project)`;
}
