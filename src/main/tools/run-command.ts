// run_command: a shell command line in the project root, after the command policy has judged every
// simple command in it. deny → DENIED; ask → the user decides (once / always / no); allow → it runs.
// It runs with bash (the shell the policy models) in its own process group, stdin from /dev/null;
// abort and `commands.timeout` kill the whole group. A non-zero exit is a result, not a tool error.
import { z } from "zod";
import { checkpointHooksFor } from "../checkpoints/tool-hooks.js";
import { addToUserWhitelist, loadCommandLists, type CommandLists } from "../config/command-lists.js";
import { errorMessage } from "../errors.js";
import { headAndTail, cleanTerminalOutput } from "../exec/output-text.js";
import { commandEnvironment, runInProcessGroup, type ProcessGroupResult } from "../exec/process-group.js";
import { DIRECTORY_CHANGERS, escapeForDisplay, isTaintingWrite, judgeCommand, type CommandJudgement } from "../security/index.js";
import { defineTool } from "./define-tool.js";
import { outputPreview, type ToolContext, type ToolOutcome } from "./tool-types.js";

/** The model's copy of a command's output: its start and its end. The UI gets all of it. */
export const COMMAND_OUTPUT_FOR_MODEL = 12_000;
/** Output quoted in a timeout or cancel message. */
const OUTPUT_IN_ERROR = 3_000;

export type CommandApproval = { ok: true; judgement: CommandJudgement; decision: "allowed" | "once" | "always"; remembered: string[] } | Extract<ToolOutcome, { ok: false }>;

/** Every reason every command of the line was asked or denied for. */
const reasonCount = (judgement: CommandJudgement): number => judgement.commands.reduce((n, c) => n + c.reasons.length, 0);

/**
 * Judges a command line with the configured lists plus this session's "always" answers, and asks the
 * user when the verdict is ask. "always" remembers the programs that were not on the whitelist.
 */
export async function approveCommand(command: string, ctx: ToolContext, trustedPaths: readonly string[] = []): Promise<CommandApproval> {
  let lists: CommandLists;
  try {
    lists = loadCommandLists();
  } catch (err) {
    return { ok: false, code: "UNAVAILABLE", message: `commands cannot be judged: ${errorMessage(err)}` };
  }
  const whitelist = [...lists.whitelist, ...ctx.session.alwaysAllowed];
  const judgeWith = (listed: string[]) =>
    judgeCommand(command, {
      blacklist: lists.blacklist,
      whitelist: listed,
      projectRoot: ctx.root,
      askForUnknown: lists.askForUnknown,
      sessionTaint: { taintedFiles: [...ctx.session.taintedFiles], writtenFiles: [...ctx.session.writtenFiles] },
      trustedPaths,
    });
  const judgement = judgeWith(whitelist);
  if (judgement.verdict === "deny") {
    return { ok: false, code: "DENIED", message: `${judgement.reason}. It was not run; do it another way or ask the user to run it.` };
  }
  if (judgement.verdict === "allow") return { ok: true, judgement, decision: "allowed", remembered: [] };
  // Only the programs that asked: "always" must not claim to whitelist `echo`, which runs anyway. Nor
  // `cd`: it asks wherever it stands, whitelisted or not, and "always" would promise what it cannot keep.
  const asked = [...new Set(judgement.commands.flatMap((c) => (c.verdict === "ask" && c.program && !whitelist.includes(c.program) && !DIRECTORY_CHANGERS.has(c.program) ? [c.program] : [])))];
  // And only those that asked for not being listed: `echo $(…)` asks for its argument, which no
  // whitelist answers. Whitelisting such a program must take away at least one of the line's questions.
  const questions = reasonCount(judgement);
  const unknown = asked.filter((program) => reasonCount(judgeWith([...whitelist, program])) < questions);
  const decision = await ctx.ports.confirmCommand({ command: escapeForDisplay(command), reason: judgement.reason, programs: unknown });
  if (decision === "no") return { ok: false, code: "REJECTED", message: `the user declined to run it (${judgement.reason}); do not retry the same command` };
  if (decision === "unattended") {
    return { ok: false, code: "REJECTED", message: `it needs the user's confirmation (${judgement.reason}) and nobody can confirm in this run; it was not run. Do not retry: give the user the command to run themselves` };
  }
  let remembered: string[] = [];
  if (decision === "always") {
    for (const program of unknown) ctx.session.alwaysAllowed.add(program);
    try {
      remembered = addToUserWhitelist(unknown);
    } catch {
      // The session still remembers; a read-only config folder must not stop the command the user allowed.
      remembered = [];
    }
  }
  return { ok: true, judgement, decision, remembered };
}

/** Runs an approved command line in the project root with the session's abort signal and timeout. */
export async function runApprovedCommand(command: string, ctx: ToolContext): Promise<ProcessGroupResult> {
  // Checkpoints (issue 8): files the command creates, changes or deletes join the turn's checkpoint, so
  // a rewind undoes what the model did through the shell too (run_tests runs through here as well).
  const watch = await checkpointHooksFor(ctx.session)?.beforeCommand(command);
  try {
    return await runInProcessGroup({
      command,
      cwd: ctx.root,
      env: commandEnvironment(),
      timeoutMs: ctx.config.commands.timeout,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.ports.commandOutput ? { onOutput: (chunk: string) => ctx.ports.commandOutput?.(chunk) } : {}),
    });
  } finally {
    // A package.json, config or hook the command wrote (npm pkg set, git pull, a generator) makes what
    // runs it untrusted for the rest of the session, as the same write through edit_lines does.
    for (const rel of (await watch?.finish()) ?? []) {
      ctx.session.writtenFiles.add(rel);
      if (isTaintingWrite(rel)) ctx.session.taintedFiles.add(rel);
    }
  }
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

export function exitDescription(r: ProcessGroupResult): string {
  if (r.exitCode !== null) return `exit code ${r.exitCode}${r.exitCode === 0 ? "" : " (failed)"}`;
  return `killed by ${r.signal ?? "a signal"}`;
}

/** The failure for a run that ended by timeout or abort, with the last of its output. */
export function interruptedOutcome(r: ProcessGroupResult, ctx: ToolContext): Extract<ToolOutcome, { ok: false }> | null {
  if (r.end === "exit") return null;
  const tail = headAndTail(cleanTerminalOutput(r.output).trim(), OUTPUT_IN_ERROR).text;
  const shown = tail ? `\nlast output:\n${tail}` : "";
  if (r.end === "timeout") {
    const limit = formatDuration(ctx.config.commands.timeout ?? r.durationMs);
    return { ok: false, code: "TIMEOUT", message: `timed out after ${limit} (commands.timeout); all its processes were stopped${shown}` };
  }
  return { ok: false, code: "CANCELLED", message: `cancelled by the user; all its processes were stopped${shown}` };
}

function shortCommand(command: string): string {
  const line = escapeForDisplay(command.replace(/\s*\n\s*/g, " ⏎ "));
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}

export const runCommand = defineTool({
  name: "run_command",
  category: "run",
  description:
    "Run a shell command (bash syntax) in the project root and get its exit code and output (stdout and stderr together; long output shows its start and end). To run in a folder of the project, start the line with `cd FOLDER && …`. Whitelisted programs (npm, git, node, tsc …) run at once; others need the user's approval; dangerous commands are refused. No stdin: commands must not wait for input. For tests prefer run_tests.",
  parameters: z
    .object({
      command: z.string().min(1).describe("The command line, e.g. `npm run build` or `git log --oneline -5`"),
    })
    .strict(),
  requiresConfirmation: false,
  title: (a) => `run_command ${shortCommand(a.command)}`,
  async execute(args, ctx) {
    const approval = await approveCommand(args.command, ctx);
    if (!approval.ok) return approval;
    const r = await runApprovedCommand(args.command, ctx);
    const interrupted = interruptedOutcome(r, ctx);
    if (interrupted) return interrupted;
    if (r.exitCode !== 0) await ctx.services.analytics?.commandFailed({ sessionId: ctx.sessionId ?? null, source: "run_command", command: args.command, output: r.output });
    const output = cleanTerminalOutput(r.output).trimEnd();
    const capped = headAndTail(output, COMMAND_OUTPUT_FOR_MODEL);
    const notes = [
      ...(r.killedLeftovers ? ["background processes it left running were stopped"] : []),
      ...(approval.remembered.length ? [`${approval.remembered.join(", ")} added to the user's whitelist`] : []),
    ];
    const header = `$ ${escapeForDisplay(args.command)}\n${exitDescription(r)} in ${formatDuration(r.durationMs)}${notes.length ? ` (${notes.join("; ")})` : ""}`;
    return {
      ok: true,
      llm: `${header}\n${capped.text || "(no output)"}`,
      data: { exitCode: r.exitCode, signal: r.signal, durationMs: Math.round(r.durationMs), truncated: capped.omitted > 0, approval: approval.decision },
      // The model saw its start and end only, or the process's own store dropped the middle of a huge log.
      truncated: capped.omitted > 0 || r.droppedChars > 0,
      display: { summary: `${exitDescription(r)} · ${formatDuration(r.durationMs)}`, details: `${header}\n${output || "(no output)"}`, detailsHeaderLines: header.split("\n").length, preview: outputPreview(output) },
    };
  },
});
