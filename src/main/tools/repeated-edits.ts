// A sloppy model repeats its last edit in the next round ("did it apply?"): line numbers still valid
// against the new file, an insertion went in twice. The last edit applied to each file is remembered with
// the content it left; the same call again on that very content is refused as already done.
import type { ToolSessionState } from "./tool-types.js";

interface AppliedEdit {
  key: string;
  /** Hash of the file right after it. */
  hash: string;
}

const applied = new WeakMap<ToolSessionState, Map<string, AppliedEdit>>();

const keyOf = (start: number, end: number, content: string) => `${start}\u0000${end}\u0000${content}`;

export function noteAppliedEdit(session: ToolSessionState, rel: string, start: number, end: number, content: string, hashAfter: string | null): void {
  let files = applied.get(session);
  if (!files) applied.set(session, (files = new Map()));
  if (hashAfter === null) files.delete(rel);
  else files.set(rel, { key: keyOf(start, end, content), hash: hashAfter });
}

/** Whether this call is the file's last applied edit again, on the content that edit left. */
export function isRepeatOfLastEdit(session: ToolSessionState, rel: string, start: number, end: number, content: string, hashNow: string): boolean {
  const last = applied.get(session)?.get(rel);
  return !!last && last.hash === hashNow && last.key === keyOf(start, end, content);
}
