// One session in use: its state in memory, every change written through to Redis before the caller
// goes on. The conversation grows as a chain of entries from `head`; the model's view of it comes from
// session-tree.ts. Also the tools' services: undo entries, and undo itself.
import { checkpointHooksFor } from "../checkpoints/tool-hooks.js";
import type { LlmMessage } from "../llm/ollama-client.js";
import { loadedFilesOf } from "../context/compression/compact-conversation.js";
import { forgetRead } from "../tools/read-snapshots.js";
import { newToolSessionState, type EditRecord, type IndexSettled, type ToolServices, type ToolSessionState } from "../tools/tool-types.js";
import { newEntryId, type SessionStore } from "./session-store.js";
import { activePath, lastCallNumber, messageEntries, modelView, repairDanglingCalls, toLlmMessages, unrecordedTurn, type ViewMessage } from "./session-tree.js";
import { draftOutcome, draftUnanswered, type ChatMessage, type CompactionRecord, type SessionEntry, type SessionState } from "./session-types.js";
import { textOf, undoLastEdit, type UndoOutcome } from "./undo-edit.js";
import type { UndoStack } from "./undo-stack.js";

/** ↑/↓ history kept per session, and the most the UI walks through (with other sessions' prompts). */
export const INPUT_HISTORY_LIMIT = 500;
/** The longest prompt kept in the saved history. */
export const INPUT_HISTORY_MAX_CHARS = 10_000;

export interface IndexServices {
  refreshIndex(paths: string[]): Promise<void>;
  registerOwnWrite(path: string, hash: string | null): void;
  /** See ToolServices.indexSettled. */
  indexSettled?(): Promise<IndexSettled>;
}

export class LiveSession {
  /**
   * Read ledger, taint and "always" answers of the tools. The ledger is stored with the session's context
   * (syncReads); taint and "always" last as long as the process.
   */
  readonly toolState: ToolSessionState = newToolSessionState();
  private callSeq: number;
  /** Prompts of the project's other recent sessions, oldest first (see inputs). */
  private earlier: string[] = [];
  /** The last undo asked for: the next one starts when it has settled. */
  private undoing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store: SessionStore,
    readonly state: SessionState,
    readonly undoStack: UndoStack,
    private readonly opts: { saveInputHistory?: boolean } = {},
  ) {
    this.callSeq = lastCallNumber(state.entries.values());
    this.restoreReads();
  }

  /**
   * A file read in an earlier run counts as read while its content is still in the history the model
   * sees (a compaction or rewind that dropped it means reading it again). The lines themselves are not
   * kept, so an edit after the file changed asks as it does for any stale read, without moving the range.
   */
  private restoreReads(): void {
    const stored = this.state.context.readHashes;
    if (!stored) return;
    const visible = new Set(loadedFilesOf(this.view()));
    for (const [rel, hash] of Object.entries(stored)) if (visible.has(rel) && typeof hash === "string") this.toolState.readLedger.set(rel, hash);
  }

  /** The ledger goes into the context before every save, so whatever is stored matches it. */
  private syncReads(): void {
    const ledger = this.toolState.readLedger;
    if (ledger.size) this.state.context.readHashes = Object.fromEntries(ledger);
    else delete this.state.context.readHashes;
  }

  get id(): string {
    return this.state.meta.id;
  }

  get root(): string {
    return this.state.meta.root;
  }

  path(): SessionEntry[] {
    return activePath(this.state);
  }

  /** The conversation on the active branch, as stored (no compaction applied). */
  messages(): ChatMessage[] {
    return messageEntries(this.path()).map((e) => e.message);
  }

  view(): ViewMessage[] {
    return modelView(this.path());
  }

  /** What the orchestrator starts from: the model's view as chat messages. */
  llmHistory(): LlmMessage[] {
    return toLlmMessages(this.view());
  }

  nextCallId(): string {
    return `call_${++this.callSeq}`;
  }

  /** The newest message on the active branch. */
  headMessage(): Extract<SessionEntry, { kind: "message" }> | null {
    const path = this.path();
    for (let i = path.length - 1; i >= 0; i--) {
      const e = path[i]!;
      if (e.kind === "message") return e;
    }
    return null;
  }

  async appendMessage(message: ChatMessage): Promise<string> {
    const entry: SessionEntry = { kind: "message", id: newEntryId(), parentId: this.state.head, message };
    await this.write(entry, message.timestamp);
    return entry.id;
  }

  /** Rewrites an entry already on the branch (a tool round getting its next result). */
  async updateMessage(id: string, message: ChatMessage): Promise<void> {
    const entry = this.state.entries.get(id);
    if (!entry || entry.kind !== "message") throw new Error(`session ${this.id}: no message entry ${id}`);
    const updated: SessionEntry = { ...entry, message };
    this.state.entries.set(id, updated);
    this.state.lastActivityAt = Date.now();
    this.syncReads();
    await this.store.save(this.state, [updated]);
  }

  async appendCompaction(record: CompactionRecord, now = Date.now()): Promise<void> {
    await this.write({ kind: "compaction", id: newEntryId(), parentId: this.state.head, timestamp: now, compaction: record }, now);
  }

  /**
   * Makes `id` the head (null: before the first message). A rewind of the conversation: the entries after
   * it stay in the tree as a branch of their own, and the next message continues from `id`. The last
   * request's token count no longer describes the history, so it is dropped.
   */
  async moveHead(id: string | null): Promise<void> {
    if (id !== null && !this.state.entries.has(id)) throw new Error(`session ${this.id}: no entry ${id}`);
    const previous = this.state.head;
    this.state.head = id;
    delete this.state.context.measuredMessages;
    this.state.lastActivityAt = Date.now();
    this.syncReads();
    try {
      await this.store.save(this.state);
    } catch (error) {
      this.state.head = previous;
      throw error;
    }
  }

  /**
   * Stats and context only (no entry changed). `touch: false` when nothing was done in the session, only
   * left (quit, another one opened): its place in the list, newest first, is when it was last used.
   */
  async saveState(opts: { touch?: boolean } = {}): Promise<void> {
    if (opts.touch !== false) this.state.lastActivityAt = Date.now();
    this.syncReads();
    await this.store.save(this.state);
  }

  private async write(entry: SessionEntry, now: number): Promise<void> {
    this.state.entries.set(entry.id, entry);
    const previousHead = this.state.head;
    this.state.head = entry.id;
    this.state.lastActivityAt = Math.max(now, Date.now());
    this.syncReads();
    try {
      await this.store.save(this.state, [entry]);
    } catch (error) {
      // Memory must not run ahead of what is stored: the caller's action will not happen either.
      this.state.entries.delete(entry.id);
      this.state.head = previousHead;
      throw error;
    }
  }

  /**
   * Calls a killed process left without results get a synthetic "cancelled" one, written to the
   * session, so the next request is well-formed. Returns how many calls were repaired.
   */
  async repair(): Promise<number> {
    await this.recoverDraft();
    const fix = repairDanglingCalls(this.path(), newEntryId, Date.now());
    let repaired = 0;
    if (fix.updated) {
      const before = this.state.entries.get(fix.updated.id);
      const had = before?.kind === "message" ? (before.message.toolResults?.length ?? 0) : 0;
      await this.updateMessage(fix.updated.id, fix.updated.message);
      repaired = (fix.updated.message.toolResults?.length ?? 0) - had;
    } else if (fix.appended) {
      await this.write(fix.appended, fix.appended.message.timestamp);
      repaired = fix.appended.message.toolResults?.length ?? 0;
    }
    // The turn the dead run was in got no answer: the model is told so (modelView), as for one stopped by hand.
    const open = unrecordedTurn(this.path());
    if (open) await this.updateMessage(open.id, { ...open.message, unanswered: { how: "killed" } });
    return repaired;
  }

  /** Saves what the reply of the turn started by `entryId` has streamed so far (null: it ended). */
  async saveDraft(entryId: string | null, text = ""): Promise<void> {
    const draft = entryId === null ? null : { entryId, text, at: Date.now() };
    if (draft) this.state.draft = draft;
    else delete this.state.draft;
    await this.store.saveDraft(this.state.meta.id, draft);
  }

  /**
   * A run killed while a reply streamed (kill -9, a crash, the terminal closed) left the reply so far as
   * a draft: it becomes the turn's outcome on its user message, as an answer stopped with Esc does, so
   * showing the session again says what had come and that it was cut off; the model reads it as an
   * answer cut off (unansweredNote).
   */
  private async recoverDraft(): Promise<void> {
    const draft = this.state.draft;
    if (!draft) return;
    const entry = this.state.entries.get(draft.entryId);
    const onPath = this.path().some((e) => e.id === draft.entryId);
    if (entry?.kind === "message" && onPath && !entry.message.outcome && draft.text.trim()) {
      await this.updateMessage(entry.id, { ...entry.message, outcome: draftOutcome(draft.text), unanswered: draftUnanswered(draft.text) });
    }
    await this.saveDraft(null);
  }

  /**
   * The ↑/↓ history the UI walks: the prompts of the project's other recent sessions (loadEarlierInputs),
   * then this session's own. A prompt typed here again is shown only at its place here.
   */
  inputs(): string[] {
    const own = this.state.inputHistory;
    if (this.earlier.length === 0) return [...own];
    const here = new Set(own);
    return [...this.earlier.filter((t) => !here.has(t)), ...own].slice(-INPUT_HISTORY_LIMIT);
  }

  /** Reads the prompts of the project's other recent sessions (see inputs); none when history is not saved. */
  async loadEarlierInputs(): Promise<void> {
    if (this.opts.saveInputHistory === false) return;
    this.earlier = await this.store.earlierInputs(this.id, INPUT_HISTORY_LIMIT);
  }

  /**
   * Adds a typed prompt to the ↑/↓ history (consecutive repeats kept once). A long paste is not kept: it
   * would come back in every later session's ↑ (it stays in this run's history in the UI).
   */
  async addInput(text: string): Promise<void> {
    if (this.opts.saveInputHistory === false || !text.trim() || text.length > INPUT_HISTORY_MAX_CHARS) return;
    const h = this.state.inputHistory;
    if (h[h.length - 1] === text) return;
    h.push(text);
    if (h.length > INPUT_HISTORY_LIMIT) h.splice(0, h.length - INPUT_HISTORY_LIMIT);
    await this.store.saveInputHistory(this.state);
  }

  /** The tools' services: the undo entry is in Redis before recordEdit returns (the write comes after). */
  toolServices(index: IndexServices): ToolServices {
    return {
      recordEdit: async (record: EditRecord) => {
        await this.undoStack.push(record);
        this.state.stats.editsApplied++;
        await this.saveState();
      },
      refreshIndex: (paths) => index.refreshIndex(paths),
      registerOwnWrite: (path, hash) => index.registerOwnWrite(path, hash),
      ...(index.indexSettled ? { indexSettled: () => index.indexSettled!() } : {}),
    };
  }

  /**
   * `/undo`: takes back the newest edit of this session and records it in the stats. Requests queue:
   * Ctrl+Z pressed again while one runs waits for it. Side by side, both took the same entry (it leaves
   * the stack only after the write), the second found the file already put back and refused, and the
   * edit before it stayed; their notices also came out of order.
   */
  undo(index: Pick<IndexServices, "refreshIndex"> & Partial<Pick<IndexServices, "registerOwnWrite">>): Promise<UndoOutcome> {
    const next = this.undoing.then(() => this.undoNewest(index));
    this.undoing = next.catch(() => {}); // a failed undo is its caller's to report; the queue goes on
    return next;
  }

  private async undoNewest(index: Pick<IndexServices, "refreshIndex"> & Partial<Pick<IndexServices, "registerOwnWrite">>): Promise<UndoOutcome> {
    const outcome = await undoLastEdit({
      stack: this.undoStack,
      root: this.root,
      refreshIndex: index.refreshIndex,
      ...(index.registerOwnWrite ? { registerOwnWrite: index.registerOwnWrite } : {}),
    });
    if (outcome.status === "undone") {
      // The model's copy of the file is no longer what is on disk.
      forgetRead(this.toolState, outcome.entry.filePath);
      // Checkpoints (issue 8): what undo wrote is ipuaro's own content, not a change made by hand.
      const restored = textOf(outcome.entry.previousContent);
      await checkpointHooksFor(this.toolState)?.afterWrite(outcome.entry.filePath, restored === null ? null : Buffer.from(restored, "utf8"));
      this.state.stats.undos++;
      await this.saveState();
    }
    return outcome;
  }
}
