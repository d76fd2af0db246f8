// Sessions in Redis. `session:{id}:data` is a hash: `meta`, `head`, `lastActivityAt`, `messages`,
// `stats`, `context`, `input`, and one `e:<entryId>` field per history entry. Every write that adds or
// changes an entry is ONE HSET (atomic) that also moves head and the counters, so a kill between two
// writes never leaves half an update. The project's sessions are a sorted set scored by last activity.
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { IpuaroError } from "../errors.js";
import { redisOp } from "../store/connection.js";
import { projectSessionsKey, sessionDataKey, sessionUndoKey } from "../store/keys.js";
import { activePath, messageEntries } from "./session-tree.js";
import { emptyStats, type ContextState, type SessionEntry, type SessionMeta, type SessionState, type SessionStats, type StreamDraft } from "./session-types.js";

const ENTRY_PREFIX = "e:";
/** Without `session.persistIndefinitely`, a session idle this long is dropped by Redis. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionSummary {
  id: string;
  createdAt: number;
  lastActivityAt: number;
  /** Messages on the active branch. */
  messages: number;
  /** The first line of the branch's first user message (what the session is about); "" when none. */
  title: string;
}

/** Longest title kept, in characters. */
const TITLE_CHARS = 80;

/** The first line of the first user message of a branch, whitespace collapsed, cut at TITLE_CHARS. */
export function sessionTitle(path: readonly SessionEntry[]): string {
  const first = messageEntries(path).find((e) => e.message.role === "user");
  const line = first?.message.content.split("\n").find((l) => l.trim()) ?? "";
  const chars = Array.from(line.replace(/\s+/g, " ").trim());
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join("")}…` : chars.join("");
}

export interface SessionStoreOptions {
  persistIndefinitely?: boolean;
}

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(2).toString("hex")}`;
}

/** Ids are used inside Redis keys: the same characters keys.ts allows. */
export function isValidSessionId(id: string): boolean {
  return /^[A-Za-z0-9._-]{1,100}$/.test(id);
}

export function newEntryId(): string {
  return randomBytes(5).toString("hex");
}

/** How many of the project's latest sessions lend their prompts to ↑ in another one. */
const RECENT_INPUT_SESSIONS = 20;

export class SessionStore {
  readonly sessionsKey: string;

  constructor(
    private readonly redis: Redis,
    readonly projectName: string,
    private readonly opts: SessionStoreOptions = {},
  ) {
    this.sessionsKey = projectSessionsKey(projectName);
  }

  get client(): Redis {
    return this.redis;
  }

  private op<T>(action: string, fn: () => Promise<T>): Promise<T> {
    return redisOp(this.redis, action, fn);
  }

  /** A new session's state, not stored (see create). */
  draft(root: string, now = Date.now()): SessionState {
    const meta: SessionMeta = { id: newSessionId(new Date(now)), projectName: this.projectName, root, createdAt: now };
    return {
      meta,
      lastActivityAt: now,
      head: null,
      entries: new Map(),
      stats: emptyStats(),
      context: { loadedFiles: [], tokensUsed: 0, tokensLimit: 0 },
      inputHistory: [],
    };
  }

  async create(root: string, now = Date.now()): Promise<SessionState> {
    const state = this.draft(root, now);
    const { meta } = state;
    await this.op(`creating session ${meta.id}`, async () => {
      const key = sessionDataKey(meta.id);
      const pipe = this.redis.pipeline();
      pipe.hset(key, {
        meta: JSON.stringify(meta),
        head: "",
        lastActivityAt: String(now),
        messages: "0",
        stats: JSON.stringify(state.stats),
        context: JSON.stringify(state.context),
        input: "[]",
      });
      if (this.opts.persistIndefinitely === false) pipe.expire(key, SESSION_TTL_SECONDS);
      pipe.zadd(this.sessionsKey, now, meta.id);
      await execOrThrow(pipe);
    });
    return state;
  }

  /** The session, or null when there is none with this id. Throws when it belongs to another project. */
  async load(id: string): Promise<SessionState | null> {
    if (!isValidSessionId(id)) return null;
    const raw = await this.op(`loading session ${id}`, () => this.redis.hgetall(sessionDataKey(id)));
    if (!raw.meta) return null;
    const state = parseState(id, raw);
    if (state.meta.projectName !== this.projectName) {
      throw new IpuaroError("config", `session ${id} belongs to project ${state.meta.projectName}, not ${this.projectName}`, {
        recoverable: false,
        suggestion: "Run the command from that project's folder, or pick one of this project's sessions (`ipuaro sessions list`).",
      });
    }
    return state;
  }

  /** The project's sessions, most recently active first. Ids whose data is gone are dropped from the list. */
  async list(): Promise<SessionSummary[]> {
    return this.op(`listing the sessions of ${this.projectName}`, async () => {
      const ids = await this.redis.zrevrange(this.sessionsKey, 0, -1);
      if (ids.length === 0) return [];
      const pipe = this.redis.pipeline();
      for (const id of ids) pipe.hmget(sessionDataKey(id), "meta", "lastActivityAt", "messages", "title");
      const replies = (await pipe.exec()) ?? [];
      const out: SessionSummary[] = [];
      const gone: string[] = [];
      const untitled: SessionSummary[] = [];
      replies.forEach(([err, value], i) => {
        if (err) throw err;
        const [meta, last, messages, title] = value as Array<string | null>;
        if (!meta) return void gone.push(ids[i]!);
        const m = JSON.parse(meta) as SessionMeta;
        const summary = { id: m.id, createdAt: m.createdAt, lastActivityAt: Number(last) || m.createdAt, messages: Number(messages) || 0, title: title ?? "" };
        // Saved before sessions kept a title: read once from its messages and stored.
        if (title === null && summary.messages > 0) untitled.push(summary);
        out.push(summary);
      });
      if (gone.length > 0) await this.redis.zrem(this.sessionsKey, ...gone);
      for (const s of untitled) await this.backfillTitle(s);
      return out.sort((a, b) => b.lastActivityAt - a.lastActivityAt || b.createdAt - a.createdAt);
    });
  }

  /** Sets `summary.title` from the session's messages and stores it; a session that will not load keeps "". */
  private async backfillTitle(summary: SessionSummary): Promise<void> {
    const raw = await this.redis.hgetall(sessionDataKey(summary.id));
    if (!raw.meta) return;
    let title: string;
    try {
      title = sessionTitle(activePath(parseState(summary.id, raw)));
    } catch {
      return; // damaged: `sessions` lists it; opening it says what is wrong
    }
    summary.title = title;
    await this.redis.hset(sessionDataKey(summary.id), "title", title);
  }

  async latestId(): Promise<string | null> {
    return (await this.list())[0]?.id ?? null;
  }

  /** Removes the session, its undo stack and its place in the project's list. false: there was no such session. */
  async delete(id: string): Promise<boolean> {
    const existing = await this.load(id);
    if (!existing) return false;
    await this.op(`deleting session ${id}`, async () => {
      await execOrThrow(this.redis.multi().unlink(sessionDataKey(id), sessionUndoKey(id)));
      await this.redis.zrem(this.sessionsKey, id);
    });
    return true;
  }

  /**
   * Stores `entries` (new or changed) and the session's head, counters, stats and context in one HSET.
   * Callers update `state` first; this only writes it.
   */
  async save(state: SessionState, entries: readonly SessionEntry[] = []): Promise<void> {
    const id = state.meta.id;
    const path = activePath(state);
    const fields: Record<string, string> = {
      head: state.head ?? "",
      lastActivityAt: String(state.lastActivityAt),
      messages: String(messageEntries(path).length),
      title: sessionTitle(path),
      stats: JSON.stringify(state.stats),
      context: JSON.stringify(state.context),
    };
    for (const e of entries) fields[ENTRY_PREFIX + e.id] = JSON.stringify(e);
    await this.op(`saving session ${id}`, async () => {
      const key = sessionDataKey(id);
      const pipe = this.redis.pipeline();
      pipe.hset(key, fields);
      if (this.opts.persistIndefinitely === false) pipe.expire(key, SESSION_TTL_SECONDS);
      pipe.zadd(this.sessionsKey, state.lastActivityAt, id);
      await execOrThrow(pipe);
    });
  }

  /** The streaming reply so far (null: the reply ended, the draft goes). */
  async saveDraft(id: string, draft: StreamDraft | null): Promise<void> {
    await this.op(`saving the reply streamed so far in ${id}`, () =>
      draft ? this.redis.hset(sessionDataKey(id), "draft", JSON.stringify(draft)) : this.redis.hdel(sessionDataKey(id), "draft"),
    );
  }

  /**
   * What was typed in the project's other recent sessions (the RECENT_INPUT_SESSIONS last started), for ↑
   * to reach past a new session's first prompt: oldest first, each prompt once (at its latest use), at
   * most `limit`. Read, not copied: deleting a session takes its prompts with it.
   */
  async earlierInputs(excludeId: string, limit: number): Promise<string[]> {
    return this.op(`reading the input history of ${this.projectName}`, async () => {
      // Oldest started first, so sessions last active at the same moment keep the order they were started in.
      const ids = (await this.redis.zrevrange(this.sessionsKey, 0, RECENT_INPUT_SESSIONS)).filter((id) => id !== excludeId).reverse();
      if (ids.length === 0) return [];
      const pipe = this.redis.pipeline();
      for (const id of ids) pipe.hmget(sessionDataKey(id), "input", "lastActivityAt");
      const sessions: { last: number; inputs: unknown }[] = [];
      for (const [err, value] of (await pipe.exec()) ?? []) {
        const [input, last] = (err ? [] : value) as Array<string | null>;
        if (!input) continue;
        try {
          sessions.push({ last: Number(last) || 0, inputs: JSON.parse(input) });
        } catch {
          // A damaged history only loses its prompts here; opening that session says what is wrong.
        }
      }
      sessions.sort((a, b) => a.last - b.last);
      const typed = sessions.flatMap((s) => (Array.isArray(s.inputs) ? s.inputs.filter((t): t is string => typeof t === "string" && t.trim() !== "") : []));
      return latestOccurrences(typed).slice(-limit);
    });
  }

  async saveInputHistory(state: SessionState): Promise<void> {
    await this.op(`saving the input history of ${state.meta.id}`, () =>
      this.redis.hset(sessionDataKey(state.meta.id), "input", JSON.stringify(state.inputHistory)),
    );
  }
}

/** Each entry once, where it last appears (as a shell's erasedups keeps history). */
export function latestOccurrences(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const t = entries[i] as string;
    if (seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out.reverse();
}

async function execOrThrow(pipe: { exec(): Promise<Array<[Error | null, unknown]> | null> }): Promise<void> {
  for (const [err] of (await pipe.exec()) ?? []) if (err) throw err;
}

function damaged(id: string, what: string): IpuaroError {
  return new IpuaroError("redis", `session ${id} is damaged: ${what}`, {
    recoverable: false,
    suggestion: `Delete it with \`ipuaro sessions delete ${id}\` and start a new one.`,
  });
}

function parseJson<T>(id: string, field: string, raw: string | undefined, fallback: T): T {
  if (raw === undefined || raw === "") return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    throw damaged(id, `field ${field} is not valid JSON`);
  }
}

function parseEntry(id: string, field: string, raw: string): SessionEntry {
  const e = parseJson<Partial<SessionEntry> & Record<string, unknown>>(id, field, raw, {});
  const okBase = typeof e.id === "string" && (e.parentId === null || typeof e.parentId === "string");
  if (okBase && e.kind === "message") {
    const m = (e as { message?: { role?: unknown; content?: unknown } }).message;
    if (m && (m.role === "user" || m.role === "assistant" || m.role === "tool") && typeof m.content === "string") return e as SessionEntry;
  }
  if (okBase && e.kind === "compaction" && typeof (e as { compaction?: { summary?: unknown } }).compaction?.summary === "string") {
    return e as SessionEntry;
  }
  throw damaged(id, `entry ${field} has an unexpected shape`);
}

function parseState(id: string, raw: Record<string, string>): SessionState {
  const meta = parseJson<SessionMeta>(id, "meta", raw.meta, null as unknown as SessionMeta);
  const entries = new Map<string, SessionEntry>();
  for (const [field, value] of Object.entries(raw)) {
    if (!field.startsWith(ENTRY_PREFIX)) continue;
    const entry = parseEntry(id, field, value);
    entries.set(entry.id, entry);
  }
  const head = raw.head ? raw.head : null;
  if (head !== null && !entries.has(head)) throw damaged(id, `its head ${head} is not one of its entries`);
  const stats: SessionStats = { ...emptyStats(), ...parseJson<Partial<SessionStats>>(id, "stats", raw.stats, {}) };
  const context: ContextState = { loadedFiles: [], tokensUsed: 0, tokensLimit: 0, ...parseJson<Partial<ContextState>>(id, "context", raw.context, {}) };
  return {
    meta,
    lastActivityAt: Number(raw.lastActivityAt) || meta.createdAt,
    head,
    entries,
    stats,
    context,
    inputHistory: parseJson<string[]>(id, "input", raw.input, []),
    ...(raw.draft ? { draft: parseJson<StreamDraft>(id, "draft", raw.draft, null as unknown as StreamDraft) } : {}),
  };
}
