// `ipuaro check-command -- CMD [--json]`: the verdict run_command would give, for users tuning their
// black- and whitelists. Nothing is run. The exit code carries the verdict for scripts.
import type { Command } from "commander";
import { loadCommandLists } from "../../config/command-lists.js";
import { escapeForDisplay, judgeCommand, type Verdict } from "../../security/index.js";
import { resolveProjectRoot } from "../project-root.js";

/** 2 stays a usage error and 52 an invalid list file. */
export const CHECK_EXIT_CODES: Record<Verdict, number> = { allow: 0, ask: 3, deny: 4 };

interface CheckOptions {
  json?: boolean;
  root?: string;
}

export function registerCheckCommand(program: Command): void {
  program
    .command("check-command")
    .description("judge a command line as run_command would (allow, ask or deny) without running it")
    .argument("<command...>", "the command line; put it after `--`, quoted as one argument to keep its quoting")
    .option("--json", 'print {"verdict", "reason", "commands"} as JSON')
    .option("--root <dir>", "project root that redirections are judged against", ".")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  ipuaro check-command -- 'npm test && rm -rf dist'",
        "  ipuaro check-command --json -- git push --force",
        "",
        "Several words after `--` are joined with spaces (their shell quoting is lost).",
        "Lists: the package's config/blacklist.json and whitelist.json, and your ~/.config/ipuaro/whitelist.json",
        '({"user": [...]}, where "always" answers are added).',
        "",
        `Exit code: ${CHECK_EXIT_CODES.allow} allow, ${CHECK_EXIT_CODES.ask} ask, ${CHECK_EXIT_CODES.deny} deny (2 usage error, 52 invalid list file).`,
      ].join("\n"),
    )
    .action((words: string[], opts: CheckOptions) => {
      const command = words.join(" ");
      const lists = loadCommandLists();
      // A root that does not exist would make every path look outside it: say so instead.
      const projectRoot = resolveProjectRoot(opts.root);
      const judgement = judgeCommand(command, {
        blacklist: lists.blacklist,
        whitelist: lists.whitelist,
        projectRoot,
        askForUnknown: lists.askForUnknown,
      });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ verdict: judgement.verdict, reason: judgement.reason, commands: judgement.commands.map((c) => c.text) })}\n`);
      } else {
        const lines = [`${judgement.verdict}: ${escapeForDisplay(judgement.reason.replace(/^(allowed|ask|denied): /, ""))}`];
        for (const c of judgement.commands) {
          const why = c.reasons.length ? ` (${c.reasons.map(escapeForDisplay).join("; ")})` : "";
          lines.push(`  ${c.verdict.padEnd(5)} ${c.text}${why}`);
        }
        const user = lists.userWhitelist.length ? `user whitelist: ${lists.userWhitelist.join(", ")}` : "user whitelist: empty";
        lines.push(`${user} (${lists.files.user})`);
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      process.exitCode = CHECK_EXIT_CODES[judgement.verdict];
    });
}
