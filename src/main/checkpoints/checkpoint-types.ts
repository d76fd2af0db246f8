// The shapes of checkpoints and rewinds (issue 8, seed 002 adapted). A checkpoint belongs to the user
// message that started a turn and records, by content hash only, what every tracked file held just
// before that turn; the bytes live once in the blob store. A rewind goes back to "just before user
// message N" in the conversation, the code, or both.

/** Why a file's content was not backed up, so a rewind can say it cannot restore it. */
export type RecordSkipReason =
  /** Bigger than checkpoints.maxFileBytes. */
  | "too_large"
  /** A folder, FIFO, socket… — ipuaro restores regular files and symlinks only. */
  | "not_regular"
  /** Changed by a command, and the index held no exact copy of what it was before. */
  | "not_indexed"
  /** Ignored (so not in the index), changed by a command, and over the limits of the copy taken before commands. */
  | "not_copied"
  /** Reading it or storing its backup failed (an I/O error, a full disk). */
  | "backup_failed";

/** One file as a checkpoint saw it. */
export type FileRecord =
  | {
      state: "file";
      /** sha256 of the bytes, the blob's name. */
      blob: string;
      /** Permission bits. */
      mode: number;
      size: number;
      mtimeMs: number;
      ino: number;
      /** realpath of the folder it was in: a restore refuses to write into a folder that moved. */
      realParentDir: string;
      /** When this record was made (a later snapshot reuses it when the file is untouched since). */
      at: number;
    }
  /**
   * The file did not exist: restoring this record deletes it. `newDir`: the topmost folder of its path
   * that did not exist either (project-relative); the rewind removes the folders up to it that its
   * deletions leave empty.
   */
  | { state: "absent"; realParentDir?: string; newDir?: string; at: number }
  /**
   * A symbolic link, by its target text (never what it points to): restoring it makes the link again,
   * in place of whatever is at its path.
   */
  | { state: "symlink"; target: string; realParentDir?: string; at: number }
  /**
   * Not backed up. `size` and `mtimeMs` (when known) are the file's then: a disk still matching both
   * has not changed since, so a rewind has nothing to restore and does not report it.
   */
  | { state: "skipped"; reason: RecordSkipReason; size?: number; mtimeMs?: number; at: number };

export interface GitHeadRecord {
  head: string;
  branch?: string;
}

export interface CheckpointData {
  v: 1;
  /** The user message this checkpoint belongs to: the state just before it. */
  userEntryId: string;
  /** Order of creation within the session (branches included). */
  seq: number;
  at: number;
  /** Every tracked file; keys are project-relative, `/`-separated. */
  files: Record<string, FileRecord>;
  /** HEAD of the project's git repository then (never changed by ipuaro, only compared). */
  git?: GitHeadRecord;
  /** shadow-git mode: the snapshot commit in ipuaro's own git dir. */
  shadowCommit?: string;
  /**
   * Tracked files that, when this turn began, held what neither ipuaro's last write nor the previous
   * checkpoint left there: changed by hand, a command or a checkout between the turns. A rewind to an
   * earlier checkpoint would throw that change away, so it is a conflict there.
   */
  changedOutside?: string[];
  /**
   * A command of this turn that was running when last saved: set as it starts, cleared once its changes
   * are recorded. Still set later means ipuaro stopped mid-command: what it changed is not known.
   */
  runningCommand?: { command: string; at: number };
}

export type RewindMode = "both" | "conversation" | "code" | "summarize-from-here" | "summarize-up-to-here";
export const REWIND_MODES: readonly RewindMode[] = ["both", "conversation", "code", "summarize-from-here", "summarize-up-to-here"];

export type OnConflict = "skip" | "overwrite";

/** A user message of the active branch the session can go back to (the state just before it). */
export interface RewindPoint {
  /** 1-based position among the user messages of the active branch. */
  n: number;
  entryId: string;
  /** The message as the user sent it. */
  message: string;
  at: number;
  /** false: no checkpoint (older than checkpoints.keep, or made before checkpoints): conversation only. */
  hasCheckpoint: boolean;
}

/** Why a file was not restored (besides a conflict). */
export type RestoreSkipReason =
  | RecordSkipReason
  | "symlink"
  | "hard_link"
  | "parent_moved"
  | "missing_backup"
  | "io_error";

export interface SkippedFile {
  path: string;
  reason: RestoreSkipReason;
  /** Extra detail for people (an I/O error's text, what the parent folder resolves to now). */
  detail?: string;
}

/** One file a code rewind changes (or would change), with its line counts from disk to the restored version. */
export interface FileChange {
  path: string;
  action: "restore" | "create" | "delete";
  insertions: number;
  deletions: number;
}

export interface CodePlan {
  changes: FileChange[];
  /** Files changed since ipuaro last wrote them or since the latest checkpoint: left alone unless overwrite. */
  conflicts: FileChange[];
  skipped: SkippedFile[];
  insertions: number;
  deletions: number;
}

/** HEAD moved since the checkpoint: what the user could run (ipuaro never runs it). */
export interface GitHeadNotice {
  recorded: string;
  current: string | null;
  commands: string[];
}

export interface RewindPreview {
  point: RewindPoint;
  /** null when the point has no checkpoint. */
  code: CodePlan | null;
  git: GitHeadNotice | null;
}

export interface RewindRequest {
  /** The user message's entry id, or its `n`. */
  point: string | number;
  mode: RewindMode;
  dryRun?: boolean;
  onConflict?: OnConflict;
  /** For the summarize modes: what the summary should focus on. */
  instructions?: string;
}

export interface RewindResult {
  point: RewindPoint;
  mode: RewindMode;
  dryRun: boolean;
  /** The rewound user message, for the input box (conversation rewinds). */
  draft: string | null;
  restored: string[];
  deleted: string[];
  conflicts: string[];
  skipped: SkippedFile[];
  /** The files restored or deleted (or that would be, on a dry run), with line counts. */
  changes: FileChange[];
  /** Folders removed because the rewind's deletions left them empty (see empty-folders.ts). */
  removedFolders?: string[];
  /** Notes added to the conversation for the model (files and conversation disagree, a summary). */
  notes: string[];
  git: GitHeadNotice | null;
  /** Files the backup could not cover when the checkpoints were made (also in `skipped`). */
  warnings: string[];
}
