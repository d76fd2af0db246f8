// A temp XDG_CONFIG_HOME for a test file: the user's own ~/.config/ipuaro (a whitelist, a config) must
// not change what a test sees.
import { afterAll, beforeAll } from "vitest";
import { makeTempDir, removeDir } from "./temp-dir.js";

export function useTempConfigHome(): void {
  let saved: string | undefined;
  let dir = "";
  beforeAll(() => {
    saved = process.env.XDG_CONFIG_HOME;
    dir = makeTempDir("ipuaro-config-");
    process.env.XDG_CONFIG_HOME = dir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
    removeDir(dir);
  });
}
