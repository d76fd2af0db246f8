// Every call in one reply was written against what the model knew before that reply: a second edit_lines
// to a file in the same reply still counts lines as the model read them, not as the first edit left
// them (results reach the model only after the whole reply has run). The file's lines as the reply's
// first edit understood them are kept, so later ranges are mapped across the reply's own edits.
import type { ToolSessionState } from "./tool-types.js";

let replies = 0;

/** A fresh id for the calls of one model reply (ToolContext.reply). */
export function newReplyId(): string {
  return `reply-${++replies}`;
}

const bases = new WeakMap<ToolSessionState, { reply: string; files: Map<string, readonly string[]> }>();

/** The lines the model's numbers refer to, when an earlier call of this reply already edited `rel`. */
export function replyBase(session: ToolSessionState, reply: string | undefined, rel: string): readonly string[] | null {
  if (reply === undefined) return null;
  const held = bases.get(session);
  return held && held.reply === reply ? (held.files.get(rel) ?? null) : null;
}

/** Keeps `lines` as what this reply's line numbers for `rel` mean (the first edit of the file in it wins). */
export function noteReplyBase(session: ToolSessionState, reply: string | undefined, rel: string, lines: readonly string[]): void {
  if (reply === undefined) return;
  let held = bases.get(session);
  if (!held || held.reply !== reply) bases.set(session, (held = { reply, files: new Map() }));
  if (!held.files.has(rel)) held.files.set(rel, lines);
}
