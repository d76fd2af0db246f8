// One session's checkpoints while it runs (seed 002 §1.3, §2). At the start of each user turn every
// tracked file is snapshotted from disk (so changes made by hand or by a command since are captured);
// a file the edit tools are about to write for the first time is backed up and joins the turn's
// checkpoint; files a run_command / run_tests call created, changed or deleted join it too, backed up
// from the index's copy in Redis (command-tracking.ts). Checkpoints are an aid: a failure to make one is
// reported as a notice and never stops an edit, a command or a turn.
import path from "node:path";
import { ipuaroHome } from "../config/paths.js";
import { errorMessage } from "../errors.js";
import type { ProjectStore } from "../store/project-store.js";
import { BlobStore, sha256 } from "./blob-store.js";
import type { CheckpointData, FileRecord, GitHeadRecord } from "./checkpoint-types.js";
import { CheckpointStore } from "./checkpoint-store.js";
import { startCommandWatch, type CommandWatch } from "./command-tracking.js";
import { leftByIpuaro, shadowChangedOutside } from "./outside-changes.js";
import { tooLargeText, tooLargeToBackUp } from "./backup-warnings.js";
import { snapshotFile } from "./file-snapshot.js";
import { readGitHead } from "./git-head.js";
import { walkProject } from "./project-walk.js";
import { SHADOW_MAX_FILES, SHADOW_MAX_SNAPSHOT_MS, ShadowGit } from "./shadow-git.js";
import { registerStore } from "./store-registry.js";
import type { Redis } from "./store-access.js";

export interface CheckpointSettings {
  mode: "tools" | "shadow-git";
  maxFileBytes: number;
  keep: number;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = { mode: "tools", maxFileBytes: 5 * 1024 * 1024, keep: 100 };

export interface CheckpointTrackerOptions {
  root: string;
  sessionId: string;
  redis: Redis;
  settings?: Partial<CheckpointSettings> | undefined;
  /** project.ignorePatterns: what command tracking and shadow snapshots leave out. */
  ignorePatterns: string[];
  /** The index (Redis copy of every text file): the pre-command content of files a command changed. */
  index?: Pick<ProjectStore, "getFile" | "getAllStats"> | undefined;
  /** Default: ipuaroHome(). */
  home?: string;
  blobs?: BlobStore;
  onNotice?: (message: string) => void;
  readHead?: (root: string) => Promise<GitHeadRecord | null>;
  /** shadow-git guards (default SHADOW_MAX_FILES, SHADOW_MAX_SNAPSHOT_MS); tests lower them. */
  shadowLimits?: { maxFiles: number; maxSnapshotMs: number };
}

interface BackupFailure {
  rel: string;
  why: string;
}

export class CheckpointTracker {
  readonly root: string;
  readonly settings: CheckpointSettings;
  readonly blobs: BlobStore;
  readonly home: string;
  readonly store: CheckpointStore;
  private loading: Promise<void> | null = null;
  private list: CheckpointData[] = [];
  private readonly first = new Map<string, FileRecord>();
  private readonly written = new Map<string, string | null>();
  /** The newest record of each file (the latest checkpoint's, for conflict detection and reuse). */
  private readonly latestRecords = new Map<string, FileRecord>();
  private current: CheckpointData | null = null;
  private shadow: ShadowGit | null = null;
  private mode: CheckpointSettings["mode"];
  /** Serialises updates of the running checkpoint (a command and an edit never interleave, but be safe). */
  private queue: Promise<unknown> = Promise.resolve();
  private registering: Promise<boolean> | null = null;
  /** Files of this turn already announced as too large to back up, before their edit was confirmed. */
  private readonly warnedTooLarge = new Set<string>();

  constructor(private readonly opts: CheckpointTrackerOptions) {
    this.root = opts.root;
    this.settings = { ...DEFAULT_CHECKPOINT_SETTINGS, ...(opts.settings ?? {}) };
    this.mode = this.settings.mode;
    this.home = opts.home ?? ipuaroHome();
    this.blobs = opts.blobs ?? BlobStore.forHome(this.home);
    this.store = new CheckpointStore(opts.redis, opts.sessionId);
  }

  /** Loads what the session already has (once). */
  ready(): Promise<void> {
    this.loading ??= this.store.load().then((stored) => {
      this.list = stored.checkpoints;
      for (const [p, r] of stored.first) this.first.set(p, r);
      for (const [p, h] of stored.written) this.written.set(p, h);
      for (const c of this.list) for (const [p, r] of Object.entries(c.files)) this.latestRecords.set(p, r);
    });
    return this.loading;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  notice(message: string): void {
    this.opts.onNotice?.(message);
  }

  /** "tools", or "shadow-git" until a guard made this session fall back. */
  get activeMode(): CheckpointSettings["mode"] {
    return this.mode;
  }

  get ignorePatterns(): string[] {
    return this.opts.ignorePatterns;
  }

  get index(): CheckpointTrackerOptions["index"] {
    return this.opts.index;
  }

  /** Every file any checkpoint of the session knows, on any branch. */
  trackedFiles(): string[] {
    return [...new Set([...this.first.keys(), ...this.latestRecords.keys()])].sort();
  }

  checkpoints(): readonly CheckpointData[] {
    return this.list;
  }

  checkpointFor(userEntryId: string): CheckpointData | null {
    return this.list.find((c) => c.userEntryId === userEntryId) ?? null;
  }

  latest(): CheckpointData | null {
    return this.list[this.list.length - 1] ?? null;
  }

  /** The record a rewind to `checkpoint` uses: its own, else the file's first record ever. */
  recordAt(checkpoint: CheckpointData, rel: string): FileRecord | undefined {
    return checkpoint.files[rel] ?? this.first.get(rel);
  }

  latestRecord(rel: string): FileRecord | undefined {
    return this.latestRecords.get(rel) ?? this.first.get(rel);
  }

  /** sha256 of what ipuaro last wrote to `rel` (null: deleted it; undefined: never wrote it). */
  lastWritten(rel: string): string | null | undefined {
    return this.written.has(rel) ? this.written.get(rel)! : undefined;
  }

  /** The checkpoint of the turn in progress. */
  get running(): CheckpointData | null {
    return this.current;
  }

  /** Called once the user message that starts a turn is stored. */
  beginTurn(userEntryId: string): Promise<void> {
    return this.serial(async () => {
      await this.ready();
      this.current = null;
      this.warnedTooLarge.clear();
      try {
        await this.registerStore();
        const seq = await this.store.nextSeq();
        const now = Date.now();
        const files: Record<string, FileRecord> = {};
        const failed: BackupFailure[] = [];
        const changedOutside: string[] = [];
        for (const rel of this.trackedFiles()) {
          const previous = this.latestRecord(rel);
          // One file that cannot be backed up must not cost the whole turn its checkpoint (and every
          // other file its backup): it is recorded as not restorable and named.
          files[rel] = await this.snapshotOrSkip(rel, previous, now, failed);
          if (!leftByIpuaro(rel, previous, files[rel], this.written)) changedOutside.push(rel);
        }
        if (failed.length) {
          const list = failed.map((f) => `${f.rel} (${f.why})`).join("; ");
          this.notice(`checkpoint: could not back up ${list}: a rewind to this message cannot restore ${failed.length === 1 ? "it" : "them"}`);
        }
        const git = await (this.opts.readHead ?? readGitHead)(this.root);
        const previousShadow = [...this.list].reverse().find((c) => c.shadowCommit)?.shadowCommit;
        const shadowCommit = this.mode === "shadow-git" ? await this.shadowSnapshot(userEntryId) : null;
        if (shadowCommit && previousShadow) {
          const disk = { root: this.root, maxFileBytes: this.settings.maxFileBytes };
          await shadowChangedOutside(this.shadowGit(), { previous: previousShadow, now: shadowCommit }, files, this.written, disk).then(
            (paths) => changedOutside.push(...paths),
            (error: unknown) => this.notice(`checkpoint: could not compare the shadow snapshots (${errorMessage(error)}); a rewind may not see changes made between messages`),
          );
        }
        const checkpoint: CheckpointData = {
          v: 1,
          userEntryId,
          seq,
          at: now,
          files,
          ...(git ? { git } : {}),
          ...(shadowCommit ? { shadowCommit } : {}),
          ...(changedOutside.length ? { changedOutside } : {}),
        };
        await this.store.save(checkpoint);
        this.list = [...this.list.filter((c) => c.userEntryId !== userEntryId), checkpoint];
        for (const [p, r] of Object.entries(files)) this.latestRecords.set(p, r);
        this.current = checkpoint;
        await this.enforceKeep();
      } catch (error) {
        this.notice(`no checkpoint for this turn (a rewind cannot restore its files): ${errorMessage(error)}`);
      }
    });
  }

  /** Whether a checkpoint after `checkpoint` found `rel` changed outside ipuaro (see CheckpointData.changedOutside). */
  changedOutsideSince(checkpoint: CheckpointData, rel: string): boolean {
    return this.list.some((c) => c.seq > checkpoint.seq && !!c.changedOutside?.includes(rel));
  }

  /** Once per tracker, before its first backups: GC in a project on another Redis must not delete them. */
  private async registerStore(): Promise<void> {
    this.registering ??= registerStore(this.opts.redis, this.home).then(
      () => true,
      (error: unknown) => {
        this.notice(`checkpoints: could not register this Redis in the file history (${errorMessage(error)}); \`ipuaro sessions prune\` from a project on another Redis could remove these backups`);
        return false;
      },
    );
    await this.registering;
  }

  private async enforceKeep(): Promise<void> {
    const extra = this.list.length - Math.max(1, this.settings.keep);
    if (extra <= 0) return;
    const dropped = this.list.slice(0, extra);
    await this.store.drop(dropped.map((c) => c.userEntryId));
    this.list = this.list.slice(extra);
  }

  private async shadowSnapshot(userEntryId: string): Promise<string | null> {
    try {
      const limits = this.opts.shadowLimits ?? { maxFiles: SHADOW_MAX_FILES, maxSnapshotMs: SHADOW_MAX_SNAPSHOT_MS };
      if (!this.shadow) {
        const count = await walkProject(this.root, { ignorePatterns: this.opts.ignorePatterns, limit: limits.maxFiles, exclude: [this.home] });
        if (count === null) {
          this.fallBack(`the project has more than ${limits.maxFiles} files`);
          return null;
        }
        const shadow = new ShadowGit({ root: this.root, home: this.home, sessionId: this.store.sessionId, ignorePatterns: this.opts.ignorePatterns });
        await shadow.init();
        this.shadow = shadow;
      }
      const started = performance.now();
      const commit = await this.shadow.snapshot(`ipuaro checkpoint ${this.store.sessionId} ${userEntryId}`);
      const ms = performance.now() - started;
      if (ms > limits.maxSnapshotMs) this.fallBack(`a snapshot took ${(ms / 1000).toFixed(1)} s (limit ${limits.maxSnapshotMs / 1000} s)`);
      return commit;
    } catch (error) {
      this.fallBack(errorMessage(error));
      return null;
    }
  }

  private fallBack(why: string): void {
    this.mode = "tools";
    this.notice(`checkpoints: shadow-git snapshots are off for this session (${why}); files ipuaro edits and commands change are still tracked`);
  }

  /** The shadow git dir (shadow-git checkpoints exist), for restores. */
  shadowGit(): ShadowGit {
    this.shadow ??= new ShadowGit({ root: this.root, home: this.home, sessionId: this.store.sessionId, ignorePatterns: this.opts.ignorePatterns });
    return this.shadow;
  }

  private async snapshotOrSkip(rel: string, previous: FileRecord | undefined, now: number, failed: BackupFailure[]): Promise<FileRecord> {
    try {
      return await snapshotFile({ root: this.root, rel, blobs: this.blobs, maxFileBytes: this.settings.maxFileBytes, previous, now });
    } catch (error) {
      failed.push({ rel, why: errorMessage(error) });
      return { state: "skipped", reason: "backup_failed", at: now };
    }
  }

  /** Adds records to the running checkpoint (files touched for the first time this turn). */
  async track(records: Iterable<[string, FileRecord]>): Promise<void> {
    const current = this.current;
    if (!current) return;
    const firsts: Array<[string, FileRecord]> = [];
    let added = false;
    for (const [rel, record] of records) {
      if (rel in current.files) continue;
      current.files[rel] = record;
      this.latestRecords.set(rel, record);
      added = true;
      if (!this.first.has(rel)) {
        this.first.set(rel, record);
        firsts.push([rel, record]);
      }
    }
    if (added) await this.store.save(current, firsts);
  }

  /** Edit tools: before `rel` is written or deleted. The file's current content is backed up on its first write this turn. */
  beforeWrite(rel: string): Promise<void> {
    return this.serial(async () => {
      try {
        await this.ready();
        if (!this.current || rel in this.current.files) return;
        const failed: BackupFailure[] = [];
        const record = await this.snapshotOrSkip(rel, undefined, Date.now(), failed);
        // Tracked even when not backed up: a rewind then says it cannot restore the file instead of
        // passing over it (or falling back to an older record of it) in silence.
        await this.track([[rel, record]]);
        if (failed.length) this.notice(`could not back up ${rel} before writing it (a rewind cannot restore it): ${failed[0]!.why}`);
        else if (record.state === "skipped" && record.reason === "too_large" && !this.warnedTooLarge.has(rel)) {
          this.notice(tooLargeText(rel, record.size, this.settings.maxFileBytes, false));
        }
      } catch (error) {
        this.notice(`could not back up ${rel} before writing it (a rewind cannot restore it): ${errorMessage(error)}`);
      }
    });
  }

  /**
   * Edit tools: before the change to `rel` is shown for confirmation. A file this turn's checkpoint has
   * not backed up, or will not (too large), is said now, once a turn (a notice, and the returned text
   * for the confirmation), so the user decides knowing a rewind to this message cannot undo the change;
   * beforeWrite then does not say it again. null otherwise.
   */
  async warnBeforeConfirm(rel: string): Promise<string | null> {
    try {
      await this.ready();
      if (!this.current || this.warnedTooLarge.has(rel)) return null;
      const size = await tooLargeToBackUp(this.root, rel, this.current.files[rel], this.settings.maxFileBytes);
      if (size === null) return null;
      const warning = tooLargeText(rel, size, this.settings.maxFileBytes, true);
      this.warnedTooLarge.add(rel);
      this.notice(warning);
      return warning;
    } catch {
      // Missing (a new file) or unreadable: nothing to warn about before; beforeWrite reports failures.
      return null;
    }
  }

  /** After ipuaro wrote `bytes` to `rel` (null: deleted it): a later rewind treats this content as its own. */
  afterWrite(rel: string, bytes: Uint8Array | null): Promise<void> {
    return this.recordWritten([[rel, bytes === null ? null : sha256(bytes)]]);
  }

  recordWritten(entries: Array<[string, string | null]>): Promise<void> {
    return this.serial(async () => {
      try {
        await this.ready();
        await this.storeWritten(entries);
      } catch (error) {
        this.notice(`could not record ipuaro's write of ${entries.map((e) => e[0]).join(", ")}: ${errorMessage(error)}`);
      }
    });
  }

  /** recordWritten's body, for code already inside runSerial (calling recordWritten there would wait on itself). */
  async storeWritten(entries: Array<[string, string | null]>): Promise<void> {
    for (const [p, h] of entries) this.written.set(p, h);
    await this.store.setWritten(entries);
  }

  /** run_command / run_tests: call before the command runs; `finish()` after it ended. null outside a turn. */
  async beforeCommand(command = ""): Promise<CommandWatch | null> {
    await this.ready().catch(() => {});
    if (!this.current) return null;
    try {
      // Marked first: a crash before finish() must not leave a checkpoint that claims to know everything.
      await this.markRunningCommand({ command, at: Date.now() });
      const watch = await startCommandWatch(this, { exclude: [this.home, path.join(this.home, "file-history")] });
      if (!watch) return null;
      return {
        finish: async () => {
          const touched = await watch.finish();
          await this.markRunningCommand(null).catch(() => {});
          return touched;
        },
      };
    } catch (error) {
      this.notice(`could not watch the command's file changes (a rewind may not undo them): ${errorMessage(error)}`);
      return null;
    }
  }

  private markRunningCommand(running: CheckpointData["runningCommand"] | null): Promise<void> {
    return this.serial(async () => {
      const current = this.current;
      if (!current) return;
      if (running) current.runningCommand = running;
      else delete current.runningCommand;
      await this.store.save(current);
    });
  }

  /** Serialised section for command-tracking.ts. */
  runSerial<T>(fn: () => Promise<T>): Promise<T> {
    return this.serial(fn);
  }
}
