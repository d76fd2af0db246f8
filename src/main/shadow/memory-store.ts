// Long-lived project knowledge (seed 001 §3, §5, §7): facts written with memory_write, reminder notes
// and architecture decisions, each a hash of JSON entries under the project's shadow keys.
import { parseNoteCondition, type NoteCondition } from "./note-conditions.js";
import { ShadowError } from "./shadow-errors.js";
import { parseJsonValues, shadowOp, type ShadowScope } from "./shadow-scope.js";
import { contentHash, extractTags } from "./tags.js";

export const MEMORY_CATEGORIES = ["PROJECT_RULES", "ARCHITECTURE", "CONSTRAINTS", "CONFIG_VALUES", "NAMING"] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
export const DECISION_STATUSES = ["proposed", "accepted", "deprecated", "superseded"] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export const MIN_CONTENT = 10;
export const MAX_CONTENT = 10_000;
export const MIN_TITLE = 5;
export const MAX_TITLE = 200;
export const MIN_DESCRIPTION = 20;
export const MAX_CONDITION = 500;

export interface MemoryEntry {
  id: string;
  category: MemoryCategory;
  content: string;
  tags: string[];
  session_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface NoteEntry {
  id: string;
  content: string;
  surface_condition: string | null;
  condition: NoteCondition;
  status: "active" | "surfaced";
  session_id: string | null;
  created_at: number;
  surfaced_at?: number;
  /** Why it surfaced (the condition that held). */
  surfaced_because?: string;
}

export interface DecisionEntry {
  id: number;
  title: string;
  description: string;
  context: string | null;
  alternatives: string[];
  status: DecisionStatus;
  related_files: string[];
  tags: string[];
  created_at: number;
  updated_at: number;
  supersedes?: number;
  superseded_by?: number;
}

/** Content of a memory or a note: trimmed, 10–10,000 characters. */
export function checkContent(content: unknown, what = "content"): string {
  if (typeof content !== "string") throw new ShadowError("SHADOW_ERR_CONTENT_TOO_SHORT", `${what} must be text of at least ${MIN_CONTENT} characters.`, { length: 0, min: MIN_CONTENT });
  const text = content.trim();
  if (text.length < MIN_CONTENT) throw new ShadowError("SHADOW_ERR_CONTENT_TOO_SHORT", `${what} must be at least ${MIN_CONTENT} characters; got ${text.length}.`, { length: text.length, min: MIN_CONTENT });
  if (text.length > MAX_CONTENT) throw new ShadowError("SHADOW_ERR_CONTENT_TOO_LONG", `${what} must be at most ${MAX_CONTENT} characters; got ${text.length}. Split it into several facts.`, { length: text.length, max: MAX_CONTENT });
  return text;
}

async function values<T>(scope: ShadowScope, key: string, what: string): Promise<T[]> {
  return parseJsonValues<T>(await shadowOp(scope, `reading ${what}`, () => scope.redis.hvals(key)));
}

// --- memory -------------------------------------------------------------------------------------------

/** Same content (ignoring case and whitespace) is the same memory: it is updated, not duplicated. */
export async function writeMemory(scope: ShadowScope, input: { category: MemoryCategory; content: string; sessionId: string | null }): Promise<{ entry: MemoryEntry; created: boolean }> {
  const content = checkContent(input.content);
  const id = `memory:${contentHash(content)}`;
  const now = scope.now();
  const previousRaw = await shadowOp(scope, "reading a memory", () => scope.redis.hget(scope.keys.memory, id));
  const previous = previousRaw ? parseJsonValues<MemoryEntry>([previousRaw])[0] : undefined;
  const entry: MemoryEntry = { id, category: input.category, content, tags: extractTags(content), session_id: input.sessionId, created_at: previous?.created_at ?? now, updated_at: now };
  await shadowOp(scope, "writing a memory", () => scope.redis.hset(scope.keys.memory, id, JSON.stringify(entry)));
  return { entry, created: !previous };
}

export async function listMemories(scope: ShadowScope): Promise<MemoryEntry[]> {
  return (await values<MemoryEntry>(scope, scope.keys.memory, "project memory")).sort((a, b) => b.updated_at - a.updated_at);
}

/** Deletes a memory or a note by id; false when there was none. */
export async function deleteMemoryOrNote(scope: ShadowScope, id: string): Promise<boolean> {
  const key = id.startsWith("note:") ? scope.keys.notes : scope.keys.memory;
  return (await shadowOp(scope, `deleting ${id}`, () => scope.redis.hdel(key, id))) === 1;
}

// --- notes --------------------------------------------------------------------------------------------

export async function createNote(scope: ShadowScope, input: { content: string; surfaceCondition?: string; sessionId: string | null }): Promise<NoteEntry> {
  const content = checkContent(input.content);
  const condition = input.surfaceCondition?.trim() || null;
  if (condition && condition.length > MAX_CONDITION) {
    throw new ShadowError("SHADOW_ERR_CONTENT_TOO_LONG", `surface_condition must be at most ${MAX_CONDITION} characters; got ${condition.length}.`, { length: condition.length, max: MAX_CONDITION });
  }
  const now = scope.now();
  const note: NoteEntry = {
    id: `note:${now}_${Math.random().toString(36).slice(2, 8)}`,
    content,
    surface_condition: condition,
    condition: parseNoteCondition(condition),
    status: "active",
    session_id: input.sessionId,
    created_at: now,
  };
  await saveNote(scope, note);
  return note;
}

export function saveNote(scope: ShadowScope, note: NoteEntry): Promise<void> {
  return shadowOp(scope, "writing a note", async () => {
    await scope.redis.hset(scope.keys.notes, note.id, JSON.stringify(note));
  });
}

export async function listNotes(scope: ShadowScope): Promise<NoteEntry[]> {
  return (await values<NoteEntry>(scope, scope.keys.notes, "notes")).sort((a, b) => a.created_at - b.created_at);
}

// --- decisions ----------------------------------------------------------------------------------------

export interface NewDecision {
  title: string;
  description: string;
  context?: string;
  alternatives: string[];
  status: DecisionStatus;
  relatedFiles: string[];
  tags: string[];
  supersedes?: number;
}

const titleKey = (t: string) => t.trim().replace(/\s+/g, " ").toLowerCase();

export async function listDecisions(scope: ShadowScope): Promise<DecisionEntry[]> {
  return (await values<DecisionEntry>(scope, scope.keys.decisions, "decisions")).sort((a, b) => a.id - b.id);
}

export async function createDecision(scope: ShadowScope, input: NewDecision): Promise<DecisionEntry> {
  const title = input.title.trim();
  if (title.length < MIN_TITLE) throw new ShadowError("SHADOW_ERR_TITLE_TOO_SHORT", `title must be at least ${MIN_TITLE} characters; got ${title.length}.`, { length: title.length, min: MIN_TITLE });
  if (title.length > MAX_TITLE) throw new ShadowError("SHADOW_ERR_CONTENT_TOO_LONG", `title must be at most ${MAX_TITLE} characters; got ${title.length}.`, { length: title.length, max: MAX_TITLE });
  const description = input.description.trim();
  if (description.length < MIN_DESCRIPTION) {
    throw new ShadowError("SHADOW_ERR_DESCRIPTION_TOO_SHORT", `description must be at least ${MIN_DESCRIPTION} characters; got ${description.length}. Say what was decided and why.`, { length: description.length, min: MIN_DESCRIPTION });
  }
  if (description.length > MAX_CONTENT) throw new ShadowError("SHADOW_ERR_CONTENT_TOO_LONG", `description must be at most ${MAX_CONTENT} characters.`, { length: description.length, max: MAX_CONTENT });
  const existing = await listDecisions(scope);
  const replaced = input.supersedes !== undefined ? existing.find((d) => d.id === input.supersedes) : undefined;
  if (input.supersedes !== undefined && !replaced) {
    throw new ShadowError("SHADOW_ERR_NO_DECISIONS", `there is no decision ${input.supersedes} to supersede; see analyze decisions_list.`, { supersedes: input.supersedes });
  }
  // A decision superseded once keeps its one successor: a second one would leave the first pointing at a
  // decision that no longer says it replaced anything.
  if (replaced?.superseded_by !== undefined) {
    throw new ShadowError("SHADOW_ERR_DECISION_EXISTS", `decision ${replaced.id} "${replaced.title}" is already superseded by decision ${replaced.superseded_by}; supersede ${replaced.superseded_by} instead.`, {
      existing_id: replaced.superseded_by,
      supersedes: replaced.id,
    });
  }
  // Re-deciding under the same title is how a decision is revised (proposed → accepted, a new reason):
  // allowed when it supersedes the decision of that title, as the error below suggests. Titles of
  // superseded decisions are free again, or a second revision would trip over the first.
  const same = existing.find((d) => titleKey(d.title) === titleKey(title) && d.id !== replaced?.id && d.status !== "superseded");
  if (same) throw new ShadowError("SHADOW_ERR_DECISION_EXISTS", `a decision titled "${same.title}" already exists (id ${same.id}); choose another title or pass supersedes: ${same.id}.`, { existing_id: same.id });
  const now = scope.now();
  const id = await shadowOp(scope, "numbering a decision", () => scope.redis.incr(scope.keys.decision_seq));
  const entry: DecisionEntry = {
    id,
    title,
    description,
    context: input.context?.trim() || null,
    alternatives: input.alternatives,
    status: input.status,
    related_files: input.relatedFiles,
    tags: input.tags.length ? input.tags : extractTags(`${title} ${description}`),
    created_at: now,
    updated_at: now,
    ...(replaced ? { supersedes: replaced.id } : {}),
  };
  await shadowOp(scope, "writing a decision", async () => {
    const multi = scope.redis.multi().hset(scope.keys.decisions, String(id), JSON.stringify(entry));
    if (replaced) multi.hset(scope.keys.decisions, String(replaced.id), JSON.stringify({ ...replaced, status: "superseded", superseded_by: id, updated_at: now }));
    const results = await multi.exec();
    for (const [err] of results ?? []) if (err) throw err;
  });
  return entry;
}
