// The project folder a command works on: `[path]` resolved through symlinks, and a clear exit-2 error
// when it is missing or not a folder. Kept apart from the commands so none loads another to get it.
import fs from "node:fs";
import path from "node:path";
import { FatalError } from "../errors.js";

export function resolveProjectRoot(input: string | undefined): string {
  const abs = path.resolve(input ?? ".");
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    throw new FatalError(`no such directory: ${abs}`, 2);
  }
  if (!fs.statSync(real).isDirectory()) throw new FatalError(`not a directory: ${abs}`, 2);
  return real;
}
