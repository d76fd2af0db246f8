// The user's whitelist file: an invalid one says what the file must look like (zod's "(root): expected
// object, received array" for `["docker"]` did not), and a bare list is answered with the exact fix.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCommandLists, userWhitelistFile } from "../../../src/main/config/command-lists.js";
import { CONFIG_EXIT_CODE } from "../../../src/main/config/loader.js";
import { FatalError } from "../../../src/main/errors.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

const SHAPE = 'Expected {"user": ["docker", "make", ...]} (programs to allow besides the defaults; optional "askForUnknown": false denies programs on no list instead of asking)';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = makeTempDir("ipuaro-lists-");
  env = { XDG_CONFIG_HOME: dir };
  fs.mkdirSync(path.dirname(userWhitelistFile(env)), { recursive: true });
});
afterEach(() => removeDir(dir));

function failure(content: string): FatalError {
  fs.writeFileSync(userWhitelistFile(env), content);
  try {
    loadCommandLists(env);
  } catch (err) {
    expect(err).toBeInstanceOf(FatalError);
    expect((err as FatalError).exitCode).toBe(CONFIG_EXIT_CODE);
    return err as FatalError;
  }
  throw new Error(`${content} should be refused`);
}

describe("the user's whitelist.json", () => {
  it("a bare list of programs: the expected shape, and the file as it should read", () => {
    expect(failure('["docker"]').message).toBe(
      `invalid command list ${userWhitelistFile(env)}: (root): Invalid input: expected object, received array. ${SHAPE}; write it as {"user": ["docker"]}`,
    );
  });

  it("an object without user: the expected shape", () => {
    expect(failure("{}").message).toBe(`invalid command list ${userWhitelistFile(env)}: user: Invalid input: expected array, received undefined. ${SHAPE}`);
  });

  it("in that shape, adds its programs to the defaults", () => {
    fs.writeFileSync(userWhitelistFile(env), '{"user": ["docker"], "askForUnknown": false}');
    const lists = loadCommandLists(env);
    expect(lists.userWhitelist).toContain("docker");
    expect(lists.whitelist).toEqual(expect.arrayContaining(["npm", "docker"]));
    expect(lists.askForUnknown).toBe(false);
  });
});
