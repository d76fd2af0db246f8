// A MULTI … EXEC whose commands go to the socket one by one, each as its own bytes. ioredis's exec first
// joins a pipeline's buffers into one new buffer (Buffer.concat): for a whole graph (≈ 18 MB of framed
// HSETs for 12K files) that one synchronous copy into freshly touched memory held the event loop
// ≈ 80 ms on a machine where a first-touched page costs 14 µs. Sent one by one in the same tick, nothing
// can come between them on the connection, Node queues the buffers as they are while the socket is
// busy, and ioredis's own guards apply as for its pipelines: each command carries its place in the batch
// (when a reconnect cuts the replies, the rest is rejected rather than half a transaction resent) and
// the body is marked as inside the transaction (dropped from the offline queue with its EXEC).
import { Command, type Redis } from "ioredis";

/** Runs `body` in one transaction; throws the first error of any command, or when EXEC was aborted. */
export async function execUnjoinedTransaction(redis: Redis, body: readonly Command[]): Promise<void> {
  const commands = [new Command("multi", []), ...body, new Command("exec", [])];
  commands.forEach((command, i) => {
    command.pipelineIndex = i;
    // As ioredis's transactions mark them: MULTI and the body, not EXEC.
    command.inTransaction = i < commands.length - 1;
  });
  for (const command of commands) redis.sendCommand(command);
  const queued = commands.slice(0, -1).map((command) => command.promise as Promise<unknown>);
  // Each queued command answers QUEUED, or its error (then EXEC fails with EXECABORT): observed below.
  for (const reply of queued) reply.catch(() => {});
  let results: unknown;
  try {
    results = await commands.at(-1)!.promise;
  } catch (err) {
    // The command that made EXEC fail says more than EXECABORT does.
    const first = (await Promise.allSettled(queued)).find((r): r is PromiseRejectedResult => r.status === "rejected");
    throw first ? first.reason : err;
  }
  if (results === null) throw new Error("transaction aborted");
  if (Array.isArray(results)) {
    const failed = results.find((r): r is Error => r instanceof Error);
    if (failed) throw failed;
  }
}
