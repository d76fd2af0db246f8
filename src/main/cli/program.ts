// The `ipuaro` command line. Each subcommand lives in its own file under commands/; this file only
// assembles them and maps errors to exit codes.
import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { FatalError, IpuaroError } from "../errors.js";
import { Interrupted, INTERRUPTED_EXIT_CODE } from "./interrupts.js";
import { registerAnalyzeCommand } from "./commands/analyze-command.js";
import { registerCheckCommand } from "./commands/check-command.js";
import { registerDecisionsCommand } from "./commands/decisions-command.js";
import { registerDoctorCommand } from "./commands/doctor-command.js";
import { registerMemoryCommand } from "./commands/memory-command.js";
import { registerTuiCommand } from "./commands/tui-command.js";
import { registerIndexCommand } from "./commands/index-command.js";
import { registerRewindCommand } from "./commands/rewind-command.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerSessionsCommand } from "./commands/sessions-command.js";
import { registerUndoCommand } from "./commands/undo-command.js";
import { registerToolCommand } from "./commands/tool-command.js";

const require = createRequire(import.meta.url);
const { version } = require("../../../package.json") as { version: string };

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("ipuaro")
    .description("A local AI coding agent for TypeScript/JavaScript codebases of any size")
    .version(version, "-v, --version")
    .showHelpAfterError("(run `ipuaro --help` for usage)");
  registerIndexCommand(program);
  registerRunCommand(program);
  registerToolCommand(program);
  registerCheckCommand(program);
  registerSessionsCommand(program);
  registerUndoCommand(program);
  registerRewindCommand(program);
  registerDoctorCommand(program);
  registerAnalyzeCommand(program);
  registerMemoryCommand(program);
  registerDecisionsCommand(program);
  // `ipuaro [path]` with no subcommand opens the TUI.
  registerTuiCommand(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof FatalError) {
      process.stderr.write(`ipuaro: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    // Ctrl+C where a command did not stop more gracefully itself (a question, a model download).
    if (err instanceof Interrupted) {
      process.stderr.write("ipuaro: cancelled (Ctrl+C)\n");
      process.exitCode = INTERRUPTED_EXIT_CODE;
      return;
    }
    if (err instanceof IpuaroError) {
      process.stderr.write(`ipuaro: ${err.type} error: ${err.message}\n${err.suggestion ? `  ${err.suggestion}\n` : ""}`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
