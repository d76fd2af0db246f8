// What the chat says after a compaction, /compact's or the automatic one. Only a compaction that was
// applied with the model's summary gets the plain "Context a% → b%" line: a tester read that line as
// success when the summary had failed and, on a short conversation, when the context had grown.
import { compactionWhat, type CompactionRun } from "../../main/context/compression/compact-conversation.js";
import type { NoticeLevel } from "../chat/transcript.js";

export interface CompactionNotice {
  level: NoticeLevel;
  text: string;
}

/** The notice for `/compact` (a sentence) or, with `auto`, for the compaction before a request (a clause). */
export function compactionNotice(r: CompactionRun, opts: { auto?: boolean } = {}): CompactionNotice {
  const change = `${r.percentBefore}% → ${r.percentAfter}%`;
  const failed = r.summaryError ? `the model could not write the summary (${r.summaryError})` : null;
  if (r.skipped === "no-gain") {
    const why = failed
      ? `${failed}, and the outline built from the messages instead would not make the context smaller (${change})`
      : `a summary would not make the context smaller (${change})`;
    return { level: failed ? "warn" : "info", text: `Nothing to compact: the conversation is already small — ${why}. It is left as it was.` };
  }
  if (failed) {
    const head = opts.auto ? `context ${change}, compressed` : `Context ${change}, compacted`;
    const n = r.summarisedMessages;
    const replaced = n ? `${n} message${n === 1 ? " was" : "s were"} replaced by a plain outline of their questions, files and last answer` : "a plain outline was used";
    const cut = r.stubbedResults ? `; ${compactionWhat({ summarisedMessages: 0, stubbedResults: r.stubbedResults })}` : "";
    return { level: "warn", text: `${head} without a summary: ${failed}, so ${replaced}${cut}.` };
  }
  return opts.auto
    ? { level: "info", text: `context ${change} (compressed: ${compactionWhat(r)})` }
    : { level: "info", text: `Context ${change} (${compactionWhat(r)}).` };
}
