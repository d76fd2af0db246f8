// IPUARO_HOME: a relative one is refused as a config error (resolved against wherever ipuaro starts, it
// put a Redis and a file history inside the project folder, another one per folder), and a data folder
// that is a file is named as the problem.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_EXIT_CODE, loadConfig } from "../../../src/main/config/loader.js";
import { homeFolderProblem, ipuaroHome } from "../../../src/main/config/paths.js";
import { FatalError } from "../../../src/main/errors.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const RELATIVE =
  'invalid configuration in environment variable IPUARO_HOME:\n  IPUARO_HOME: "relative/home" is a relative path; give an absolute one (e.g. IPUARO_HOME="$PWD/relative/home"), so ipuaro\'s data does not depend on the folder it is started in';

let dir: string;
beforeEach(() => {
  dir = makeTempDir("ipuaro-home-");
});
afterEach(() => removeDir(dir));

describe("ipuaroHome", () => {
  it("refuses a relative IPUARO_HOME with a config error", () => {
    expect(() => ipuaroHome({ IPUARO_HOME: "relative/home" })).toThrow(new FatalError(RELATIVE, CONFIG_EXIT_CODE));
    expect(() => ipuaroHome({ IPUARO_HOME: "./data" })).toThrow(/"\.\/data" is a relative path/);
  });

  it("so does loading the config, before anything is created", () => {
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(() => loadConfig({ env: { IPUARO_HOME: "relative/home", XDG_CONFIG_HOME: path.join(dir, "xdg") } })).toThrow(RELATIVE);
    } finally {
      process.chdir(cwd);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("takes an absolute one as it is, normalised", () => {
    expect(ipuaroHome({ IPUARO_HOME: `${dir}/x/../home/` })).toBe(path.join(dir, "home"));
    expect(ipuaroHome({ XDG_DATA_HOME: dir })).toBe(path.join(dir, "ipuaro"));
  });
});

describe("homeFolderProblem", () => {
  it("names a data folder that is a file; a folder or a missing one is fine", () => {
    const file = path.join(dir, "home-file");
    fs.writeFileSync(file, "x");
    expect(homeFolderProblem(file)).toBe(
      `ipuaro's data folder ${file} is a file, not a folder; point IPUARO_HOME at a folder (ipuaro keeps its Redis and file history there) or remove it`,
    );
    expect(homeFolderProblem(dir)).toBeNull();
    expect(homeFolderProblem(path.join(dir, "not-yet"))).toBeNull();
  });
});
