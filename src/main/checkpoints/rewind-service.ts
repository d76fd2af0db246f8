// Rewind (issue 8): back to "just before user message N" in the conversation, the code, or both, plus
// the two summary variants. This is the API the TUI and `ipuaro rewind` use:
//   points()            the rewind points of the active branch, oldest first
//   pointsWithStats()   the same with `N files +x −y` each (a dry run per point)
//   preview(point)      what a code rewind would do: files with line counts, conflicts, skips, git HEAD
//   rewind(request)     does it (or a dry run); returns the draft for the input and what happened
//   restoreCancelledTurn()  Esc on a turn that produced nothing: the message goes back to the input
// Git is never touched: when HEAD moved since the checkpoint, the result carries the commands a user
// could run.
import { IpuaroError } from "../errors.js";
import type { LlmMessage } from "../llm/ollama-client.js";
import type { LiveSession } from "../session/live-session.js";
import { messageEntries, type MessageEntry } from "../session/session-tree.js";
import { forgetRead } from "../tools/read-snapshots.js";
import type { CheckpointTracker } from "./checkpoint-tracker.js";
import { REWIND_MODES, type CheckpointData, type CodePlan, type GitHeadRecord, type RewindPoint, type RewindPreview, type RewindRequest, type RewindResult, type SkippedFile } from "./checkpoint-types.js";
import { planAndRestore, type PlanCache } from "./code-plan.js";
import { addNote, branchSummaryNote, codeOnlyNote, conversationOnlyNote, partialCodeNote, rewindConversation, summariseFrom, summariseUpTo, type Summarise } from "./conversation-rewind.js";
import { gitHeadNotice, readGitHead } from "./git-head.js";
import { IGNORED_COPY_FILE_BYTES, IGNORED_COPY_TOTAL_BYTES } from "./ignored-copies.js";

export interface RewindServiceOptions {
  session: LiveSession;
  tracker: CheckpointTracker;
  /** Keeps Redis and the watcher in step with the files a rewind writes. */
  index: { refreshIndex(paths: string[]): Promise<void>; registerOwnWrite?(path: string, hash: string | null): void };
  /** Called after the session's history changed (the runtime puts it into the orchestrator). */
  onHistoryChanged?: () => void;
  /** Writes the summaries of the summarize modes (default: the mechanical summary). */
  summarise?: Summarise;
  countTokens?: (history: LlmMessage[]) => number;
  /** A rewind during a running turn is refused. */
  isBusy?: () => boolean;
  /** Told which files a (non-dry) rewind restored or deleted: project analytics record them as reverts. */
  onFilesReverted?: (paths: string[]) => Promise<void>;
  readHead?: (root: string) => Promise<GitHeadRecord | null>;
}

export interface RewindPointStats extends RewindPoint {
  /** Files a code rewind to the point would touch or cannot restore (conflicts and `unrestorable` included). */
  files: number;
  /** Of `files`, those that differ from the checkpoint but cannot be restored (too large, no copy…); absent: none. */
  unrestorable?: number;
  insertions: number;
  deletions: number;
}

const SKIP_TEXT: Record<SkippedFile["reason"], string> = {
  too_large: "larger than checkpoints.maxFileBytes when the checkpoint was made, so it was not backed up",
  not_regular: "not a regular file",
  not_indexed: "changed by a command, and the index held no copy of it from before",
  not_copied: `changed by a command; it is ignored, so the index holds no copy, and it was over the limits of the copy ipuaro takes of ignored files before each command (${IGNORED_COPY_FILE_BYTES / 1024 / 1024} MiB a file, ${IGNORED_COPY_TOTAL_BYTES / 1024 / 1024} MiB in all): no copy from before`,
  backup_failed: "its backup could not be made when the checkpoint was (an I/O error or a full disk)",
  symlink: "it is a symlink now; ipuaro never writes through one",
  hard_link: "it has other hard links; writing it would change them too",
  parent_moved: "its folder moved (or became a symlink)",
  missing_backup: "its backup is gone from the file history",
  io_error: "could not be written",
};

export function describeSkip(s: SkippedFile): string {
  return `${s.path}: ${SKIP_TEXT[s.reason]}${s.detail ? ` (${s.detail})` : ""}`;
}

export class RewindService {
  constructor(private readonly opts: RewindServiceOptions) {}

  private get session(): LiveSession {
    return this.opts.session;
  }

  private get tracker(): CheckpointTracker {
    return this.opts.tracker;
  }

  /** User messages of the active branch (notes left out), oldest first; at most checkpoints.keep. */
  async points(): Promise<RewindPoint[]> {
    await this.tracker.ready();
    const users = messageEntries(this.session.path()).filter((e) => e.message.role === "user" && !e.message.note);
    const all = users.map((e, i) => ({
      n: i + 1,
      entryId: e.id,
      message: e.message.content,
      at: e.message.timestamp,
      hasCheckpoint: this.tracker.checkpointFor(e.id) !== null,
    }));
    return all.slice(-Math.max(1, this.tracker.settings.keep));
  }

  private async resolve(point: string | number): Promise<RewindPoint> {
    const points = await this.points();
    const found = typeof point === "number" ? points.find((p) => p.n === point) : points.find((p) => p.entryId === point);
    if (found) return found;
    const range = points.length ? `${points[0]!.n}-${points[points.length - 1]!.n}` : "none";
    throw new IpuaroError("input", `no rewind point ${point} in session ${this.session.id} (points: ${range})`, {
      recoverable: false,
      suggestion: "List them with `ipuaro rewind --list` (or /rewind).",
    });
  }

  private async codePlan(checkpoint: CheckpointData, cache: PlanCache = {}): Promise<CodePlan> {
    const outcome = await planAndRestore(this.tracker, checkpoint, { onConflict: "skip", dryRun: true }, cache);
    const all = [...outcome.changes, ...outcome.conflicts];
    return {
      changes: outcome.changes,
      conflicts: outcome.conflicts,
      skipped: outcome.skipped,
      insertions: all.reduce((n, c) => n + c.insertions, 0),
      deletions: all.reduce((n, c) => n + c.deletions, 0),
    };
  }

  /** Every point with the size of a code rewind to it (files that differ, conflicts included). */
  async pointsWithStats(): Promise<RewindPointStats[]> {
    const cache: PlanCache = {};
    const out: RewindPointStats[] = [];
    for (const p of await this.points()) {
      const cp = this.tracker.checkpointFor(p.entryId);
      if (!cp) {
        out.push({ ...p, files: 0, unrestorable: 0, insertions: 0, deletions: 0 });
        continue;
      }
      const plan = await this.codePlan(cp, cache);
      // A file that differs but cannot be restored (a big file the model edited) is a change too: "no
      // code changes" would hide what the preview then lists as not restored.
      const unrestorable = plan.skipped.length;
      out.push({ ...p, files: plan.changes.length + plan.conflicts.length + unrestorable, unrestorable, insertions: plan.insertions, deletions: plan.deletions });
    }
    return out;
  }

  async preview(point: string | number): Promise<RewindPreview> {
    const p = await this.resolve(point);
    const cp = this.tracker.checkpointFor(p.entryId);
    return { point: p, code: cp ? await this.codePlan(cp) : null, git: cp ? await this.gitNotice(cp) : null };
  }

  private async gitNotice(cp: CheckpointData) {
    return gitHeadNotice(cp.git, await (this.opts.readHead ?? readGitHead)(this.tracker.root));
  }

  private userEntry(point: RewindPoint): MessageEntry {
    const e = this.session.state.entries.get(point.entryId);
    if (!e || e.kind !== "message") throw new Error(`session ${this.session.id}: no message entry ${point.entryId}`);
    return e;
  }

  /** Files whose disk content is not what the checkpoint recorded. */
  private async differingFiles(cp: CheckpointData | null): Promise<string[]> {
    if (!cp) return [];
    const plan = await this.codePlan(cp);
    return [...plan.changes, ...plan.conflicts].map((c) => c.path).sort();
  }

  async rewind(request: RewindRequest): Promise<RewindResult> {
    if (this.opts.isBusy?.()) throw new IpuaroError("conflict", "a turn is running; stop it (Esc) before rewinding", { recoverable: false });
    if (!REWIND_MODES.includes(request.mode)) throw new IpuaroError("config", `unknown rewind mode ${JSON.stringify(request.mode)} (use ${REWIND_MODES.join(", ")})`, { recoverable: false });
    const point = await this.resolve(request.point);
    const { mode } = request;
    const dryRun = request.dryRun === true;
    const onConflict = request.onConflict ?? "skip";
    const cp = this.tracker.checkpointFor(point.entryId);
    const wantsCode = mode === "both" || mode === "code";
    if (wantsCode && !cp) {
      throw new IpuaroError("conflict", `message ${point.n} has no checkpoint (older than checkpoints.keep, or from before checkpoints were kept); its code cannot be restored`, {
        recoverable: false,
        suggestion: "Rewind the conversation only (mode conversation).",
      });
    }
    const result: RewindResult = { point, mode, dryRun, draft: null, restored: [], deleted: [], conflicts: [], skipped: [], changes: [], removedFolders: [], notes: [], git: null, warnings: [] };
    if (cp) result.git = await this.gitNotice(cp);

    if (wantsCode && cp) await this.restoreCode(cp, { dryRun, onConflict }, result);
    if (dryRun) return result;
    const reverted = [...result.restored, ...result.deleted];
    if (reverted.length) await this.opts.onFilesReverted?.(reverted);

    const user = this.userEntry(point);
    const note = async (text: string) => {
      await addNote(this.session, text);
      result.notes.push(text);
    };
    if (mode === "both") {
      // Files left as they were (conflicts, failed restores) no longer match the rewound conversation.
      const left = await this.differingFiles(cp);
      result.draft = await rewindConversation(this.session, user);
      if (left.length) await note(partialCodeNote(point.n, point.message, left));
    } else if (mode === "conversation") {
      const differing = await this.differingFiles(cp);
      result.draft = await rewindConversation(this.session, user);
      if (differing.length) await note(conversationOnlyNote(differing));
    } else if (mode === "code") {
      const files = [...result.restored, ...result.deleted];
      if (files.length) await note(codeOnlyNote(point.n, point.message, files));
    } else if (mode === "summarize-from-here") {
      const summary = await summariseFrom(this.session, point.entryId, this.opts.summarise, request.instructions);
      const differing = await this.differingFiles(cp);
      result.draft = await rewindConversation(this.session, user);
      await note(branchSummaryNote(point.n, point.message, summary, differing));
    } else {
      await summariseUpTo(this.session, point.n, point.entryId, {
        ...(this.opts.summarise ? { summarise: this.opts.summarise } : {}),
        ...(request.instructions ? { focus: request.instructions } : {}),
        ...(this.opts.countTokens ? { countTokens: this.opts.countTokens } : {}),
      });
    }
    this.opts.onHistoryChanged?.();
    return result;
  }

  private async restoreCode(cp: CheckpointData, opts: { dryRun: boolean; onConflict: "skip" | "overwrite" }, result: RewindResult): Promise<void> {
    const outcome = await planAndRestore(this.tracker, cp, {
      ...opts,
      ...(this.opts.index.registerOwnWrite ? { registerOwnWrite: this.opts.index.registerOwnWrite } : {}),
      // Recorded file by file: after a kill mid-rewind, the files already put back are ipuaro's own
      // writes, not changes by hand a later rewind would refuse to touch as conflicts.
      onWritten: (p, sha) => this.tracker.recordWritten([[p, sha]]),
    });
    result.changes = outcome.changes;
    result.restored = outcome.changes.filter((c) => c.action !== "delete").map((c) => c.path);
    result.deleted = outcome.changes.filter((c) => c.action === "delete").map((c) => c.path);
    result.conflicts = outcome.conflicts.map((c) => c.path);
    result.skipped = outcome.skipped;
    result.removedFolders = outcome.removedFolders;
    result.warnings = [...outcome.warnings, ...outcome.skipped.map(describeSkip)];
    if (opts.dryRun) return;
    const touched = outcome.written.map(([p]) => p);
    // The model read these files as they were; it must read them again before editing them.
    for (const p of touched) forgetRead(this.session.toolState, p);
    await this.session.undoStack.dropRewound(new Set(touched), cp.at);
    if (touched.length) await this.opts.index.refreshIndex(touched);
  }

  /**
   * Esc on a turn that has produced nothing yet (no reply, no tool call): the user message is taken
   * off the conversation and returned for the input. null when the newest message is not such a one.
   */
  async restoreCancelledTurn(): Promise<string | null> {
    const head = this.session.headMessage();
    if (!head || head.message.role !== "user" || head.message.note || head.id !== this.session.state.head) return null;
    // Nothing after the message was read or written: the read ledger stays as it is.
    await this.session.moveHead(head.parentId);
    this.opts.onHistoryChanged?.();
    return head.message.content;
  }
}
