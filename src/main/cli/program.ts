// The `ipuaro` command line. Each subcommand lives in its own file under commands/; this file only
// assembles them and maps errors to exit codes.
import fs from "node:fs";
import { Command, CommanderError } from "commander";
import { packageFile } from "../../pipeline/package-files.js";
import { FatalError, IpuaroError } from "../errors.js";
import { CONFIG_EXIT_CODE } from "../config/loader.js";
import { Interrupted, INTERRUPTED_EXIT_CODE } from "./interrupts.js";
import { isFolder } from "../security/path-guard.js";

const { version } = JSON.parse(fs.readFileSync(packageFile("package.json"), "utf8")) as { version: string };

type Register = (program: Command) => void;

/**
 * Every subcommand's registration, in the order `--help` lists them. A command's module loads what its
 * action runs (the store, the agent, the tools), so each is imported only when it may be needed.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ["index", async () => (await import("./commands/index-command.js")).registerIndexCommand],
  ["run", async () => (await import("./commands/run-command.js")).registerRunCommand],
  ["tool", async () => (await import("./commands/tool-command.js")).registerToolCommand],
  ["check-command", async () => (await import("./commands/check-command.js")).registerCheckCommand],
  ["sessions", async () => (await import("./commands/sessions-command.js")).registerSessionsCommand],
  ["undo", async () => (await import("./commands/undo-command.js")).registerUndoCommand],
  ["rewind", async () => (await import("./commands/rewind-command.js")).registerRewindCommand],
  ["doctor", async () => (await import("./commands/doctor-command.js")).registerDoctorCommand],
  ["analyze", async () => (await import("./commands/analyze-command.js")).registerAnalyzeCommand],
  ["memory", async () => (await import("./commands/memory-command.js")).registerMemoryCommand],
  ["decisions", async () => (await import("./commands/decisions-command.js")).registerDecisionsCommand],
  // `ipuaro [path]` with no subcommand opens the TUI.
  ["tui", async () => (await import("./commands/tui-command.js")).registerTuiCommand],
];

/**
 * The commands `argv` can reach: the named one alone (loading every command cost `ipuaro index` ≈ 0.2 s
 * of start-up), none for `--version`, the TUI alone for `ipuaro`, its options or a folder that exists,
 * and all of them otherwise (help lists them, the default command matches a mistyped name against them).
 */
export function commandsFor(argv: readonly string[]): string[] {
  const first = argv[2];
  if (first === "-v" || first === "-V" || first === "--version") return [];
  if (first !== undefined && first !== "tui" && COMMANDS.some(([name]) => name === first)) return [first];
  const help = argv.slice(2).some((a) => a === "-h" || a === "--help");
  if (!help && (first === undefined || first.startsWith("-") || isFolder(first))) return ["tui"];
  return COMMANDS.map(([name]) => name);
}

export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command();
  program
    .name("ipuaro")
    .description("A local AI coding agent for TypeScript/JavaScript codebases of any size")
    .version(version, "-v, --version")
    .showHelpAfterError("(run `ipuaro --help` for usage)")
    .addHelpText("after", "\nWith no command, `ipuaro [path] [--new | --session ID]` opens the full-screen UI (`ipuaro tui --help`).")
    // Before the subcommands are added: they copy it, and runCli maps what it throws to exit codes.
    .exitOverride();
  const wanted = new Set(commandsFor(argv));
  const registers = await Promise.all(COMMANDS.filter(([name]) => wanted.has(name)).map(([, load]) => load()));
  for (const register of registers) register(program);
  return program;
}

/** Exit code of a usage error, commander's (an unknown option) and ipuaro's own (no message to send) alike. */
export const USAGE_EXIT_CODE = 2;

/**
 * With --json a failure is also one JSON object on stdout, `{"error": {type, message, suggestion?}}`, so
 * a script that parses stdout gets an answer either way (the text still goes to stderr for people).
 */
function reportFailure(json: boolean, text: string, error: { type: string; message: string; suggestion?: string | undefined }): void {
  process.stderr.write(text);
  if (json) process.stdout.write(`${JSON.stringify({ error: { type: error.type, message: error.message, ...(error.suggestion ? { suggestion: error.suggestion } : {}) } })}\n`);
}

export async function runCli(argv: string[]): Promise<void> {
  // -V is commander's usual spelling of --version; ours is -v, and both work.
  if (argv[2] === "-V") argv = [...argv.slice(0, 2), "-v", ...argv.slice(3)];
  const program = await buildProgram(argv);
  const json = argv.slice(2).includes("--json");
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; commander has already printed what was wrong.
      process.exitCode = err.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
      if (json && err.exitCode !== 0) process.stdout.write(`${JSON.stringify({ error: { type: "usage", message: err.message.replace(/^error: /, "") } })}\n`);
      return;
    }
    if (err instanceof FatalError) {
      const type = err.exitCode === USAGE_EXIT_CODE ? "usage" : err.exitCode === CONFIG_EXIT_CODE ? "config" : "fatal";
      reportFailure(json, `ipuaro: ${err.message}\n`, { type, message: err.message });
      process.exitCode = err.exitCode;
      return;
    }
    // Ctrl+C where a command did not stop more gracefully itself (a question, a model download).
    if (err instanceof Interrupted) {
      reportFailure(json, "ipuaro: cancelled (Ctrl+C)\n", { type: "interrupted", message: "cancelled (Ctrl+C)" });
      process.exitCode = INTERRUPTED_EXIT_CODE;
      return;
    }
    if (err instanceof IpuaroError) {
      // A wrong session id or rewind point is said as it is; "config error" there sent people to their config.
      const label = err.type === "input" ? "" : `${err.type} error: `;
      reportFailure(json, `ipuaro: ${label}${err.message}\n${err.suggestion ? `  ${err.suggestion}\n` : ""}`, err);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
