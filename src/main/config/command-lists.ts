// The command lists run_command and check-command judge with: the package's blacklist.json and
// whitelist.json plus the user's own whitelist (`~/.config/ipuaro/whitelist.json`, `{"user": [...]}`),
// where "always" answers are remembered. Read on every use, so a hand edit takes effect at once.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { FatalError } from "../errors.js";
import { CONFIG_EXIT_CODE } from "./loader.js";
import { packageConfigDir, userConfigDir } from "./paths.js";
import { BlacklistSchema, WhitelistSchema } from "./schema.js";

/** The user's file holds only their additions (and may turn asking for unknown programs off). */
export const UserWhitelistSchema = z
  .object({
    $schema: z.string().optional(),
    user: WhitelistSchema.shape.user,
    askForUnknown: WhitelistSchema.shape.askForUnknown.optional(),
  })
  .strict();
export type UserWhitelist = z.infer<typeof UserWhitelistSchema>;

export interface CommandLists {
  blacklist: string[];
  /** Default + user programs, what judgeCommand gets as `whitelist`. */
  whitelist: string[];
  defaultWhitelist: string[];
  userWhitelist: string[];
  askForUnknown: boolean;
  /** Where the lists came from, for messages. */
  files: { blacklist: string; whitelist: string; user: string };
}

export function userWhitelistFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(env), "whitelist.json");
}

function readJson(file: string, missingOk: boolean): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if (missingOk && (err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new FatalError(`cannot read command list ${file}: ${(err as Error).message}`, CONFIG_EXIT_CODE);
  }
  try {
    // A BOM (Windows editors add one) is no JSON error.
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new FatalError(`command list ${file} is not valid JSON: ${(err as Error).message}`, CONFIG_EXIT_CODE);
  }
}

/**
 * What each file must look like, said with every error: zod's "(root): expected object, received array"
 * for a user's `["docker"]` did not say what to write instead. Also in the README (Configuration).
 */
const EXPECTED_SHAPE = {
  user: '{"user": ["docker", "make", ...]} (programs to allow besides the defaults; optional "askForUnknown": false denies programs on no list instead of asking)',
  whitelist: '{"default": ["npm", ...], "user": [], "askForUnknown": true}',
  blacklist: '{"commands": ["rm -rf", "git push --force", ...]}',
} as const;

function parseWith<T>(schema: z.ZodType<T>, value: unknown, file: string, shape: keyof typeof EXPECTED_SHAPE): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`).join("; ");
  // A bare list of programs is the likeliest mistake in the user's file: say exactly what to write.
  const bareList = shape === "user" && Array.isArray(value) && value.every((p) => typeof p === "string");
  const fix = bareList ? `; write it as {"user": ${JSON.stringify(value)}}` : "";
  throw new FatalError(`invalid command list ${file}: ${issues}. Expected ${EXPECTED_SHAPE[shape]}${fix}`, CONFIG_EXIT_CODE);
}

function readUserWhitelist(file: string): UserWhitelist | null {
  const raw = readJson(file, true);
  return raw === undefined ? null : parseWith(UserWhitelistSchema, raw, file, "user");
}

/** Loads and validates the three lists; an invalid file is a FatalError naming it (exit code 52). */
export function loadCommandLists(env: NodeJS.ProcessEnv = process.env): CommandLists {
  const dir = packageConfigDir();
  const files = { blacklist: path.join(dir, "blacklist.json"), whitelist: path.join(dir, "whitelist.json"), user: userWhitelistFile(env) };
  const blacklist = parseWith(BlacklistSchema, readJson(files.blacklist, false), files.blacklist, "blacklist");
  const packaged = parseWith(WhitelistSchema, readJson(files.whitelist, false), files.whitelist, "whitelist");
  const user = readUserWhitelist(files.user);
  const userWhitelist = [...new Set([...packaged.user, ...(user?.user ?? [])])];
  return {
    blacklist: blacklist.commands,
    whitelist: [...new Set([...packaged.default, ...userWhitelist])],
    defaultWhitelist: packaged.default,
    userWhitelist,
    askForUnknown: user?.askForUnknown ?? packaged.askForUnknown,
    files,
  };
}

/**
 * Adds programs to the user's whitelist file (created when missing) and returns the ones that were new.
 * Written to a temp file and renamed over, so a crash never leaves a half-written list.
 */
export function addToUserWhitelist(programs: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userWhitelistFile(env);
  const current = readUserWhitelist(file) ?? { user: [] };
  const added = [...new Set(programs.filter((p) => p.trim() !== "" && !current.user.includes(p)))];
  if (added.length === 0) return [];
  const next: UserWhitelist = { ...current, user: [...current.user, ...added] };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  return added;
}
