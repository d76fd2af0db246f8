// `ipuaro run -p PROMPT [path]`: one agent turn without the TUI. The answer streams to stdout, tool calls
// and stats go to stderr (or everything as one JSON object with --json). The turn is kept in a session:
// a new one, `--session ID`, or `--continue` (the project's last). `--eval` re-checks the last answer.
// Declared and its options checked here; the turn runs in run-action.ts, loaded when it runs (so
// ipuaro's redis-server can start meanwhile).
import type { Command } from "commander";
import { FatalError } from "../../errors.js";
import type { SessionChoice } from "../../session/open-session.js";
import { startRedisEarly } from "../early-redis.js";
import { additionFromStdin, messageFromStdin } from "../piped-input.js";

export interface RunOptions {
  prompt?: string;
  autoApply?: boolean;
  allowCommands?: boolean;
  json?: boolean;
  session?: string;
  continue?: boolean;
  eval?: boolean;
}

function sessionChoice(opts: RunOptions): SessionChoice {
  if (opts.prompt === undefined && !opts.eval) throw new FatalError("give the message with -p/--prompt (or pipe it in), or --eval to re-check the last answer", 2);
  // An empty message would still start a session and cost a model round for nothing.
  if (opts.prompt !== undefined && !opts.prompt.trim()) throw new FatalError("the message given with -p/--prompt is empty", 2);
  if (opts.prompt !== undefined && opts.eval) throw new FatalError("-p and --eval exclude each other: --eval sends its own prompt", 2);
  if (opts.session !== undefined && opts.continue) throw new FatalError("--session and --continue exclude each other", 2);
  if (opts.session !== undefined) return { kind: "id", id: opts.session };
  // Checking an answer only makes sense in the session that has it.
  return opts.continue || opts.eval ? { kind: "last" } : { kind: "new" };
}

export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("run one agent turn headless: stream the answer to stdout, then the stats")
    .option("-p, --prompt <text>", "the message to the agent (text piped in as well is appended to it; without -p, what is piped in is the message)")
    .argument("[path]", "project root", ".")
    .option("--auto-apply", "apply edits without confirmation (default: reject them)")
    .option("--allow-commands", "also run commands the policy would ask about (not whitelisted, pipes into a shell, pushes); denied ones never run")
    .option("--json", "print one JSON object with the answer, tool calls and stats")
    .option("--session <id>", "continue this session (see `ipuaro sessions list`)")
    .option("-c, --continue", "continue the project's last session (default: start a new one)")
    .option("--eval", "have the model re-check its last answer against the code (the last session, or --session)")
    .action(async (target: string, opts: RunOptions) => {
      const withFlag = opts.prompt !== undefined;
      if (!withFlag && !opts.eval) opts.prompt = await messageFromStdin();
      const choice = sessionChoice(opts);
      await startRedisEarly(target);
      // `git diff | ipuaro run -p "review this"`: the message, then what was piped in. One message, so
      // the size limits of any message apply to the two together.
      if (withFlag) {
        const addition = await additionFromStdin((line) => process.stderr.write(`${line}\n`));
        if (addition !== undefined) opts.prompt = `${opts.prompt}\n\n${addition}`;
      }
      const { runAction } = await import("./run-action.js");
      process.exitCode = await runAction(target, opts, choice);
    });
}

