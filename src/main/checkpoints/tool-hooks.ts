// How the edit and run tools reach the session's checkpoint tracker without a new ToolContext field:
// the tracker is attached to the session's ToolSessionState (the `ctx.session` every tool gets). A
// context without one (tests, `ipuaro tool`) simply makes no checkpoints.
import type { ToolSessionState } from "../tools/tool-types.js";
import type { CommandWatch } from "./command-tracking.js";

export interface CheckpointHooks {
  /** Before an edit of `rel` is confirmed: a warning the file cannot be backed up (also sent as a notice), or null. Never throws. */
  beforeConfirm(rel: string): Promise<string | null>;
  /** Before an edit tool writes or deletes `rel` (project-relative). Never throws. */
  beforeWrite(rel: string): Promise<void>;
  /** After it wrote `bytes` (null: deleted the file). Never throws. */
  afterWrite(rel: string, bytes: Uint8Array | null): Promise<void>;
  /** Before a command runs; the watch's finish() after it ended. Never throws. */
  beforeCommand(command?: string): Promise<CommandWatch | null>;
}

const hooks = new WeakMap<ToolSessionState, CheckpointHooks>();

export function attachCheckpointHooks(session: ToolSessionState, value: CheckpointHooks): void {
  hooks.set(session, value);
}

export function detachCheckpointHooks(session: ToolSessionState): void {
  hooks.delete(session);
}

export function checkpointHooksFor(session: ToolSessionState): CheckpointHooks | undefined {
  return hooks.get(session);
}
