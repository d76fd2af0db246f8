// `ipuaro [path]` (also `ipuaro tui [path]`): the full-screen UI, the default command. The UI lives in
// src/ui and is loaded on demand, so the headless commands never load blessed; this dynamic import is
// the CLI's one edge into src/ui (the composition root), core modules never import it.
import type { Command } from "commander";

interface TuiOptions {
  new?: boolean;
  session?: string;
  yes?: boolean;
}

export function registerTuiCommand(program: Command): void {
  program
    .command("tui", { isDefault: true })
    .description("open the full-screen UI on a project (the default: `ipuaro [path]`)")
    .argument("[path]", "project root", ".")
    .option("--new", "start a new session (default: continue the project's last one)")
    .option("--session <id>", "continue this session (see `ipuaro sessions list`)")
    .option("-y, --yes", "do not ask before indexing more than limits.maxFilesWarning files")
    .action(async (target: string, opts: TuiOptions) => {
      const { runTui } = await import("../../../ui/run-tui.js");
      process.exitCode = await runTui(target, opts);
    });
}
