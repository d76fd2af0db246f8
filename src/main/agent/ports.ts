// The narrow port between the core and whatever shows it (TUI, headless CLI, tests). The core never
// imports a UI library; it asks through these calls and reports through events.
import type { IpuaroError } from "../errors.js";
import type { CommandDecision, CommandProposal, ConflictDecision, ConflictProposal, EditDecision, EditProposal } from "../tools/tool-types.js";

export type ErrorChoice = "retry" | "skip" | "abort";

/** What failed, so the question can say what each answer does. */
export type ErrorSituation =
  /** A tool call: skip fails the call and the turn goes on; abort stops the turn. */
  | { during: "tool" }
  /**
   * A model request: skip ends the turn and leaves the message in the conversation, unanswered (the model
   * is told so). `takeBack`: nothing of the turn but the user's message is kept yet, so abort can take
   * it off the conversation and give it back to the input (the finished event says `takeBack`); without
   * it abort would only do what skip does.
   */
  | { during: "request"; takeBack: boolean };
export type ConflictChoice = ConflictDecision;
export type ConflictRequest = ConflictProposal;

export interface UiPort {
  confirmEdit(proposal: EditProposal): Promise<EditDecision>;
  confirmCommand(proposal: CommandProposal): Promise<CommandDecision>;
  chooseOnError(error: IpuaroError, situation?: ErrorSituation): Promise<ErrorChoice>;
  resolveConflict(request: ConflictRequest): Promise<ConflictChoice>;
  notify(level: "info" | "warn" | "error", message: string): void;
  /**
   * Output of the command a tool is running, as it comes: a build or a test run that takes minutes is not
   * a silent spinner. Optional: the result carries the whole output anyway.
   */
  commandOutput?(chunk: string): void;
}
