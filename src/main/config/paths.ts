// Every place ipuaro reads or writes outside the project goes through here, so tests can redirect
// them with environment variables instead of touching the real home directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageFile } from "../../pipeline/package-files.js";
import { FatalError } from "../errors.js";

/** Exit code of an invalid configuration (loader.ts re-exports it; defined here, which loader imports). */
export const CONFIG_EXIT_CODE = 52;

/**
 * ipuaro's data folder: its own Redis (socket, AOF) and the file history. A relative IPUARO_HOME is
 * refused, not resolved: resolved against wherever ipuaro was started, `IPUARO_HOME=data ipuaro` run in
 * two projects would give each its own Redis and history (sessions and undo seemingly lost), and put
 * them inside the project, where the index and the watcher would see them. The XDG base directory spec
 * calls a relative path in its variables invalid for the same reason. Thrown as a config error (exit 52).
 */
export function ipuaroHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.IPUARO_HOME;
  if (home) {
    if (!path.isAbsolute(home)) {
      throw new FatalError(
        `invalid configuration in environment variable IPUARO_HOME:\n  IPUARO_HOME: ${JSON.stringify(home)} is a relative path; give an absolute one (e.g. IPUARO_HOME="$PWD/${home}"), so ipuaro's data does not depend on the folder it is started in`,
        CONFIG_EXIT_CODE,
      );
    }
    return path.resolve(home);
  }
  const dataHome = env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share");
  return path.join(dataHome, "ipuaro");
}

/** Why `home` cannot be ipuaro's data folder (something other than a folder is there), or null. */
export function homeFolderProblem(home: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(home);
  } catch {
    return null; // missing: created on first use (or reported by what fails to create it)
  }
  if (st.isDirectory()) return null;
  const what = st.isFile() ? "a file" : "not a folder";
  return `ipuaro's data folder ${home} is ${what}, not a folder; point IPUARO_HOME at a folder (ipuaro keeps its Redis and file history there) or remove it`;
}

export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(configHome, "ipuaro");
}

/** The package's own `config/` folder (default.json, blacklist.json, whitelist.json). */
export function packageConfigDir(): string {
  return packageFile("config");
}

export const PROJECT_CONFIG_FILE = ".ipuaro.json";
