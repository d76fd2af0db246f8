// `ipuaro tool` and `run` bring the index up to date before they work; when that takes long (a large
// file changed since the last run) they say so instead of sitting silent.
import { describe, expect, it } from "vitest";
import { withSlowIndexNote } from "../../../src/main/cli/commands/first-index-note.js";

describe("the note for a slow index update", () => {
  it("is said once when the update outlasts the delay, and not at all when it is quick", async () => {
    const said: string[] = [];
    let finish = () => {};
    const slow = withSlowIndexNote("the tool runs", () => new Promise<string>((resolve) => (finish = () => resolve("done"))), (l) => said.push(l), 5);
    await new Promise((r) => setTimeout(r, 40));
    finish();
    expect(await slow).toBe("done");
    expect(said).toEqual(["ipuaro: updating the index before the tool runs (files changed since the last run)…\n"]);
    said.length = 0;
    expect(await withSlowIndexNote("the tool runs", async () => 1, (l) => said.push(l), 1000)).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(said).toEqual([]);
  });

  it("passes a failed update's error on, without the note", async () => {
    const said: string[] = [];
    await expect(withSlowIndexNote("the agent runs", async () => Promise.reject(new Error("redis down")), (l) => said.push(l), 1000)).rejects.toThrow("redis down");
    expect(said).toEqual([]);
  });
});
