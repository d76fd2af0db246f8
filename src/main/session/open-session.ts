// Picks the session a run works in: a given id, the project's last one, or a new one. A session that
// was interrupted is repaired on the way in (calls left without results get a "cancelled" result).
import type { Redis } from "ioredis";
import type { IpuaroConfig } from "../config/schema.js";
import { IpuaroError } from "../errors.js";
import { LiveSession } from "./live-session.js";
import { openElsewhereError, SessionLease, type LeaseHolder } from "./session-lease.js";
import { SessionStore } from "./session-store.js";
import type { SessionState } from "./session-types.js";
import { UndoStack } from "./undo-stack.js";

export type SessionChoice =
  | { kind: "new" }
  | { kind: "id"; id: string }
  /** The project's most recently active session; a new one when there is none. */
  | { kind: "last" };

export interface OpenSessionOptions {
  redis: Redis;
  projectName: string;
  root: string;
  config: Pick<IpuaroConfig, "session" | "undo">;
  choice: SessionChoice;
  /**
   * Take the session's lease (session-lease.ts) as this: "the UI", "ipuaro run". The project's last
   * session open in another process gives a new session; a session asked for by id is refused.
   */
  lease?: string;
  /** With `lease`, when the project's last session is open elsewhere: start a new one (default) or refuse. */
  ifLastOpenElsewhere?: "new" | "refuse";
  /**
   * The fix said when the session is refused as open elsewhere, in the caller's own options (the UI has
   * --new, `run` starts a new session when --session and --continue are left out).
   */
  openElsewhereHint?: string;
  /** Also read the prompts of the project's other recent sessions, for ↑ (LiveSession.inputs). */
  earlierInputs?: boolean;
}

export interface OpenedSession {
  session: LiveSession;
  /** True when a new session was started. */
  created: boolean;
  /** Calls given a synthetic "cancelled" result because the previous run stopped mid-round. */
  repairedCalls: number;
  /** Held while the session is open (with `lease`): release it when done. */
  lease: SessionLease | null;
  /** The project's last session, left to the process that has it open (a new one was started). */
  lastOpenElsewhere?: { id: string; holder: LeaseHolder };
}

export function sessionStoreFor(redis: Redis, projectName: string, config: Pick<IpuaroConfig, "session">): SessionStore {
  return new SessionStore(redis, projectName, { persistIndefinitely: config.session.persistIndefinitely });
}

export function sessionNotFound(id: string, projectName: string): IpuaroError {
  return new IpuaroError("input", `no session ${id} in project ${projectName}`, {
    recoverable: false,
    suggestion: "See the project's sessions with `ipuaro sessions list`.",
  });
}

function liveSession(store: SessionStore, opts: Omit<OpenSessionOptions, "choice">, state: SessionState): LiveSession {
  const undo = new UndoStack(opts.redis, state.meta.id, opts.config.undo.stackSize, { persistIndefinitely: opts.config.session.persistIndefinitely });
  return new LiveSession(store, state, undo, { saveInputHistory: opts.config.session.saveInputHistory });
}

/**
 * A session that is never stored: for a one-off tool call that only reads (`ipuaro tool get_lines`), which
 * must not leave an empty session behind and become the project's "last" one.
 */
export function transientSession(opts: Omit<OpenSessionOptions, "choice" | "lease">): LiveSession {
  const store = sessionStoreFor(opts.redis, opts.projectName, opts.config);
  return liveSession(store, opts, store.draft(opts.root));
}

/** An existing session as it is (no repair, nothing created): for commands that only read it or undo. */
export async function findSession(opts: Omit<OpenSessionOptions, "choice"> & { id: string | null }): Promise<LiveSession | null> {
  const store = sessionStoreFor(opts.redis, opts.projectName, opts.config);
  const id = opts.id ?? (await store.latestId());
  if (id === null) return null;
  const state = await store.load(id);
  if (!state) {
    if (opts.id !== null) throw sessionNotFound(id, opts.projectName);
    return null;
  }
  return liveSession(store, opts, state);
}

export async function openSession(opts: OpenSessionOptions): Promise<OpenedSession> {
  const store = sessionStoreFor(opts.redis, opts.projectName, opts.config);
  const live = async (state: SessionState) => {
    const session = liveSession(store, opts, state);
    if (opts.earlierInputs) await session.loadEarlierInputs();
    return session;
  };
  const take = async (id: string) => (opts.lease === undefined ? { lease: null } : SessionLease.acquire(opts.redis, id, opts.lease));

  let id: string | null = null;
  if (opts.choice.kind === "id") id = opts.choice.id;
  else if (opts.choice.kind === "last") id = await store.latestId();
  let lastOpenElsewhere: OpenedSession["lastOpenElsewhere"];
  if (id !== null) {
    const state = await store.load(id);
    if (!state) {
      if (opts.choice.kind === "id") throw sessionNotFound(id, opts.projectName);
    } else {
      const taken = await take(id);
      if ("heldBy" in taken) {
        if (opts.choice.kind === "id") throw openElsewhereError(id, taken.heldBy, opts.openElsewhereHint ?? "Close it there first, or start a new session with --new.");
        if (opts.ifLastOpenElsewhere === "refuse") throw openElsewhereError(id, taken.heldBy, opts.openElsewhereHint ?? "Close it there first, or leave out --continue to start a new session.");
        lastOpenElsewhere = { id, holder: taken.heldBy };
      } else {
        try {
          const session = await live(state);
          const repairedCalls = await session.repair();
          return { session, created: false, repairedCalls, lease: taken.lease };
        } catch (error) {
          await taken.lease?.release();
          throw error;
        }
      }
    }
  }
  const state = await store.create(opts.root);
  const taken = await take(state.meta.id);
  return { session: await live(state), created: true, repairedCalls: 0, lease: "lease" in taken ? taken.lease : null, ...(lastOpenElsewhere ? { lastOpenElsewhere } : {}) };
}
