// The events sorted set: score = time, member = event JSON. Writes bump the history version so cached
// analyses know to reload; the set is capped at MAX_STORED_EVENTS, oldest first out.
import { randomBytes } from "node:crypto";
import type { NewShadowEvent, ShadowEvent } from "./event-types.js";
import { parseJsonValues, shadowOp, type ShadowScope } from "./shadow-scope.js";

export const MAX_STORED_EVENTS = 200_000;
/** Events read per ZRANGEBYSCORE page, so a long history never comes back as one huge reply. */
const READ_PAGE = 5_000;

export function newEventId(): string {
  return randomBytes(6).toString("hex");
}

export async function appendEvents(scope: ShadowScope, events: readonly NewShadowEvent[]): Promise<ShadowEvent[]> {
  if (!events.length) return [];
  const stored = events.map((e) => ({ ...e, id: newEventId(), at: e.at ?? scope.now() }) as ShadowEvent);
  await shadowOp(scope, "recording analytics events", async () => {
    const multi = scope.redis.multi();
    multi.zadd(scope.keys.events, ...stored.flatMap((e) => [e.at, JSON.stringify(e)]));
    multi.zremrangebyrank(scope.keys.events, 0, -(MAX_STORED_EVENTS + 1));
    multi.incr(scope.keys.version);
    const results = await multi.exec();
    for (const [err] of results ?? []) if (err) throw err;
  });
  return stored;
}

/** Events with `from <= at <= to`, oldest first. */
export async function readEvents(scope: ShadowScope, from = 0, to = Number.MAX_SAFE_INTEGER): Promise<ShadowEvent[]> {
  const out: ShadowEvent[] = [];
  let offset = 0;
  for (;;) {
    const page = await shadowOp(scope, "reading analytics events", () =>
      scope.redis.zrangebyscore(scope.keys.events, from, to, "LIMIT", offset, READ_PAGE),
    );
    out.push(...parseJsonValues<ShadowEvent>(page));
    if (page.length < READ_PAGE) return out;
    offset += page.length;
  }
}

/** Changes whenever events or imported git history change. */
export function historyVersion(scope: ShadowScope): Promise<string> {
  return shadowOp(scope, "reading the analytics version", async () => (await scope.redis.get(scope.keys.version)) ?? "0");
}

export function bumpHistoryVersion(scope: ShadowScope): Promise<void> {
  return shadowOp(scope, "bumping the analytics version", async () => {
    await scope.redis.incr(scope.keys.version);
  });
}
