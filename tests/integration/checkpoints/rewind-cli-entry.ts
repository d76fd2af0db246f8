// The ipuaro CLI with `rewind`, `doctor` and `sessions prune` available, for tests that spawn it. Once
// program.ts registers rewind and doctor itself, this only runs the regular CLI.
import { CommanderError } from "commander";
import { registerDoctorCommand } from "../../../src/main/cli/commands/doctor-command.js";
import { registerRewindCommand } from "../../../src/main/cli/commands/rewind-command.js";
import { buildProgram } from "../../../src/main/cli/program.js";
import { FatalError, IpuaroError } from "../../../src/main/errors.js";

const program = buildProgram();
const has = (name: string) => program.commands.some((c) => c.name() === name);
if (!has("rewind")) registerRewindCommand(program);
if (!has("doctor")) registerDoctorCommand(program);
program.exitOverride();

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exitCode = err.exitCode;
    else if (err instanceof FatalError) {
      process.stderr.write(`ipuaro: ${err.message}\n`);
      process.exitCode = err.exitCode;
    } else if (err instanceof IpuaroError) {
      process.stderr.write(`ipuaro: ${err.type} error: ${err.message}\n${err.suggestion ? `  ${err.suggestion}\n` : ""}`);
      process.exitCode = 1;
    } else throw err;
  }
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((err: unknown) => {
    process.stderr.write(`ipuaro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
