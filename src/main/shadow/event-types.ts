// The events analytics stand on (issue 9, "Events"): recorded as they happen, kept in a sorted set by
// time so any window is one ZRANGEBYSCORE.

export type ErrorKind = "type_error" | "test_failure" | "runtime_error" | "command_failure";
export type ErrorSource = "run_tests" | "run_command";

interface EventBase {
  /** Unique id (also keeps identical events distinct members of the sorted set). */
  id: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** An edit the agent applied through edit_lines / create_file / delete_file. */
export interface EditEvent extends EventBase {
  type: "edit";
  session: string | null;
  file: string;
  added: number;
  removed: number;
  tool: string;
}

/** A change to a file made outside ipuaro (the watcher's `external` origin). */
export interface ExternalChangeEvent extends EventBase {
  type: "external";
  file: string;
  change: "created" | "updated" | "deleted" | "renamed";
  /** A human edit to a file the agent edited within the last hour. */
  humanFix: boolean;
  /** The agent session whose edit the human corrected. */
  fixedSession?: string | null;
}

/** A failure reported by run_tests or run_command, with the file it points at when one was found. */
export interface ErrorEvent extends EventBase {
  type: "error";
  session: string | null;
  source: ErrorSource;
  kind: ErrorKind;
  file: string | null;
  line: number | null;
  message: string;
}

/** An applied edit taken back through undo or a rewind of the conversation. */
export interface RevertEvent extends EventBase {
  type: "revert";
  session: string | null;
  file: string;
  via: "undo" | "rewind";
}

export interface SessionStartEvent extends EventBase {
  type: "session_start";
  session: string;
}

/** The end of one turn: which tools it called (my_stats' tools_used) and when (session duration). */
export interface TurnEvent extends EventBase {
  type: "turn";
  session: string;
  tools: Record<string, number>;
}

export type ShadowEvent = EditEvent | ExternalChangeEvent | ErrorEvent | RevertEvent | SessionStartEvent | TurnEvent;
export type ShadowEventType = ShadowEvent["type"];

/** An event before it is stored: id is assigned, time defaults to now. */
export type NewShadowEvent = ShadowEvent extends infer E ? (E extends ShadowEvent ? Omit<E, "id" | "at"> & { at?: number } : never) : never;

export function sessionOf(e: ShadowEvent): string | null {
  return "session" in e ? (e.session ?? null) : null;
}
