// Which index a project folder uses. The name is `{parent-folder}-{project-folder}` (keys.ts), so two
// folders can share one: /a/dev/app and /b/dev/app are both `dev-app`, and the second's index run would
// remove the first one's files. The index records the folder it belongs to (config `root`); a second
// folder of the same name gets the name with a short hash of its real path, for good.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Redis } from "ioredis";
import { projectKeys, projectNameFor } from "./keys.js";
import { redisOp } from "./connection.js";

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The name with the folder's own hash: what a second folder of the same name uses. */
export function hashedProjectName(root: string): string {
  const real = realPath(root);
  return `${projectNameFor(real)}-${createHash("sha1").update(real).digest("hex").slice(0, 8)}`;
}

/**
 * The project name for `root`: the plain one unless an index of that name belongs to another folder
 * that still exists (a folder moved to a new place of the same name takes its index along).
 */
export async function resolveProjectName(redis: Redis, root: string): Promise<string> {
  const real = realPath(root);
  const plain = projectNameFor(real);
  const hashed = hashedProjectName(real);
  const [plainRoot, hashedRoot] = await redisOp(redis, `choosing the index of ${real}`, () =>
    Promise.all([redis.hget(projectKeys(plain).config, "root"), redis.hget(projectKeys(hashed).config, "root")]),
  );
  if (hashedRoot !== null && realPath(hashedRoot) === real) return hashed;
  if (plainRoot === null || realPath(plainRoot) === real || !fs.existsSync(plainRoot)) return plain;
  return hashed;
}
