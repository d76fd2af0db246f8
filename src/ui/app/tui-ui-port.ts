// The core's questions (UiPort) as TUI dialogs. Each one waits for a key; Esc (and Ctrl+C, which
// closes every open dialog) gives the safe answer: reject the edit, don't run the command, abort on
// an error (skip when abort is not offered), skip a conflicting edit.
import type { ConflictChoice, ErrorChoice, ErrorSituation, UiPort } from "../../main/agent/ports.js";
import type { IpuaroError } from "../../main/errors.js";
import type { CommandDecision, CommandProposal, ConflictProposal, EditDecision, EditProposal } from "../../main/tools/tool-types.js";
import type { Transcript } from "../chat/transcript.js";
import { askChoice, type ModalHost } from "../dialogs/choice-dialog.js";
import { askEditDecision, type ContentEditor } from "../dialogs/diff-dialog.js";
import { renderDiff } from "../dialogs/diff-render.js";
import { shortenPath } from "../text/path-fit.js";
import { span, type StyledLine } from "../text/styled-text.js";

export interface TuiUiPortOptions {
  host: ModalHost;
  transcript: Transcript;
  editContent: ContentEditor;
  diff: { syntax: boolean; inline: boolean; showDescription: boolean; showDiff: boolean; wrap: boolean };
  changed(): void;
  /**
   * Whether a message taken off the conversation goes back to the input (ui.restoreOnCancel): without it,
   * abort at a failed request would do what skip does, and is not offered. Default: it does.
   */
  givesMessageBack?(): boolean;
}

export class TuiUiPort implements UiPort {
  constructor(private readonly opts: TuiUiPortOptions) {}

  /** A question of the turn: while it is open the chat says the turn waits for the user. */
  private async asking<T>(question: () => Promise<T>): Promise<T> {
    this.opts.transcript.awaitingUser(true);
    this.opts.changed();
    try {
      return await question();
    } finally {
      this.opts.transcript.awaitingUser(false);
      this.opts.changed();
    }
  }

  commandOutput(chunk: string): void {
    this.opts.transcript.commandOutput(chunk);
    this.opts.changed();
  }

  confirmEdit(proposal: EditProposal): Promise<EditDecision> {
    return this.asking(() => askEditDecision(this.opts.host, proposal, { ...this.opts.diff, editContent: this.opts.editContent }));
  }

  confirmCommand(proposal: CommandProposal): Promise<CommandDecision> {
    const body: StyledLine[] = [[span("run "), span(proposal.command, "code", { bold: true }), span(" ?")]];
    if (proposal.reason) body.push([], [span(proposal.reason, "muted")]);
    // "always" whitelists programs, with any arguments; a question no whitelist answers does not offer it.
    const programs = proposal.programs ?? [];
    const always = programs.length ? [{ key: "a", label: `always (whitelists ${programs.join(", ")}, any arguments)`, value: "always" as const }] : [];
    return this.asking(() => askChoice<CommandDecision>(this.opts.host, {
      title: programs.length ? "A command that is not on the whitelist" : "A command to confirm",
      body,
      choices: [{ key: "y", label: "once", value: "once" }, ...always, { key: "n", label: "no", value: "no" }],
      escape: "no",
      titleRole: "warn",
    }));
  }

  /**
   * [R] retry [S] skip [A] abort, each said for what failed: for a tool call, skip fails the call and the
   * turn goes on, abort stops the turn; for a model request, skip ends the turn with the message left in
   * the conversation unanswered (the model is told), abort takes the message back into the input. When
   * it cannot (the turn already ran tools), abort would be skip again, and only retry and skip are offered.
   */
  chooseOnError(error: IpuaroError, situation?: ErrorSituation): Promise<ErrorChoice> {
    const body: StyledLine[] = [[span(error.message)]];
    if (error.suggestion) body.push([], [span(error.suggestion, "muted")]);
    const abortable = situation?.during !== "request" || (situation.takeBack && (this.opts.givesMessageBack?.() ?? true));
    const meaning = errorChoiceMeaning(situation, abortable);
    if (meaning) body.push([], [span(meaning, "muted")]);
    return this.asking(() => askChoice<ErrorChoice>(this.opts.host, {
      title: `${error.type} error`,
      body,
      choices: [
        { key: "r", label: "retry", value: "retry" },
        { key: "s", label: "skip", value: "skip" },
        ...(abortable ? [{ key: "a", label: "abort", value: "abort" as const }] : []),
      ],
      escape: abortable ? "abort" : "skip",
      titleRole: "error",
    }));
  }

  resolveConflict(request: ConflictProposal): Promise<ConflictChoice> {
    const width = Math.max(40, (this.opts.host.screen.width as number) - 8);
    const body: StyledLine[] = [
      [span(`${request.path} changed on disk since the model read it. What changed:`)],
      [],
      ...renderDiff(request.diff, request.path, width),
    ];
    return this.asking(() => askChoice<ConflictChoice>(this.opts.host, {
      // The file name stays on a narrow terminal: the folders in the middle give way.
      title: (width) => `Edit conflict: ${shortenPath(request.path, width - 15)}`,
      body,
      choices: [
        { key: "a", label: "apply anyway", value: "apply" },
        { key: "s", label: "skip", value: "skip" },
        { key: "r", label: "regenerate", value: "regenerate" },
      ],
      escape: "skip",
      titleRole: "warn",
    }));
  }

  notify(level: "info" | "warn" | "error", message: string): void {
    this.opts.transcript.notice(level, message);
    this.opts.changed();
  }
}

/** What skip and abort do, under the error (none when the port was not told what failed). */
function errorChoiceMeaning(situation: ErrorSituation | undefined, abortable: boolean): string | null {
  if (!situation) return null;
  if (situation.during === "tool") return "Skip: the call fails and the model goes on without it. Abort: the turn stops here.";
  const skip = "Skip: the turn ends; your message stays in the conversation, and the model is told it got no answer.";
  return abortable ? `${skip} Abort: the message is taken back and returns to the input.` : skip;
}
