// The UI port for `ipuaro run` and other non-interactive uses: nothing is asked. Edits are rejected unless
// auto-apply was requested; commands the policy would ask about (not on the whitelist, a pipe into a
// shell, a push) are not run unless allowed on their own: applying edits unattended must not also mean
// running whatever a file the model read talked it into. An error ends the turn.
import type { IpuaroError } from "../errors.js";
import type { CommandDecision, EditDecision } from "../tools/tool-types.js";
import type { ConflictChoice, ErrorChoice, UiPort } from "./ports.js";

export class HeadlessUi implements UiPort {
  readonly notices: string[] = [];

  constructor(
    private readonly autoApply: boolean,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
    private readonly allowCommands = autoApply,
    /** Where a running command's output goes as it comes (none: only its result is reported). */
    private readonly live?: (chunk: string) => void,
  ) {}

  commandOutput(chunk: string): void {
    this.live?.(chunk);
  }

  async confirmEdit(): Promise<EditDecision> {
    // Not the user's "no": the message must say how to allow edits, not that someone rejected this one.
    return this.autoApply ? { action: "apply", auto: true } : { action: "reject", unattended: true, reason: "to let `ipuaro run` apply edits, run it with --auto-apply" };
  }

  async confirmCommand(): Promise<CommandDecision> {
    return this.allowCommands ? "once" : "unattended";
  }

  private readonly said = new WeakSet<IpuaroError>();

  async chooseOnError(error: IpuaroError): Promise<ErrorChoice> {
    this.sayError(error);
    return "abort";
  }

  /** Prints an error with its fix, once: one that cannot be retried reaches the caller without a question. */
  sayError(error: IpuaroError): void {
    if (this.said.has(error)) return;
    this.said.add(error);
    this.log(`ipuaro: ${error.type} error: ${error.message}${error.suggestion ? `\n  ${error.suggestion}` : ""}`);
  }

  async resolveConflict(): Promise<ConflictChoice> {
    // Without a person to look at the diff, never write over someone else's change.
    return "skip";
  }

  notify(level: "info" | "warn" | "error", message: string): void {
    this.notices.push(message);
    if (level !== "info") this.log(`ipuaro: ${message}`);
  }
}
