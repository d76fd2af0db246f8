import { describe, expect, it } from "vitest";
import { compactionWhat } from "../../../src/main/context/compression/compact-conversation.js";

describe("what a compaction says it did", () => {
  it("names only what happened", () => {
    expect(compactionWhat({ summarisedMessages: 6, stubbedResults: 2 })).toBe("6 messages summarised, 2 tool results cut");
    expect(compactionWhat({ summarisedMessages: 0, stubbedResults: 1 })).toBe("1 tool result cut");
    // "0 messages summarised" read as a failure; the room came from code leaving the context.
    expect(compactionWhat({ summarisedMessages: 0, stubbedResults: 0 })).toBe("older code left the context");
  });
});
