// What the checkpoint tests share: a temp IPUARO_HOME (checkpoint backups live under it) and a fake
// Ollama, both for the whole file.
import { afterAll, beforeAll } from "vitest";
import { FakeOllama } from "../../helpers/fake-ollama.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

/** Starts both before the file's tests and hands them over through `set`; restores IPUARO_HOME after. */
export function useHomeAndFakeModel(set: (fake: FakeOllama, home: string) => void): void {
  const savedHome = process.env.IPUARO_HOME;
  let fake: FakeOllama | null = null;
  let home = "";
  beforeAll(async () => {
    home = makeTempDir("ipuaro-home-");
    process.env.IPUARO_HOME = home;
    fake = await new FakeOllama().start();
    set(fake, home);
  });
  afterAll(async () => {
    await fake?.close();
    removeDir(home);
    if (savedHome === undefined) delete process.env.IPUARO_HOME;
    else process.env.IPUARO_HOME = savedHome;
  });
}
