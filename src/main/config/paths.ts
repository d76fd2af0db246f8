// Every place ipuaro reads or writes outside the project goes through here, so tests can redirect
// them with environment variables instead of touching the real home directory.
import os from "node:os";
import path from "node:path";
import { packageFile } from "../../pipeline/package-files.js";

export function ipuaroHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IPUARO_HOME) return path.resolve(env.IPUARO_HOME);
  const dataHome = env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share");
  return path.join(dataHome, "ipuaro");
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
