// The programs that write through symlinks where the line does not show it, and the check for each:
// one table for a command typed (program-rules.ts) and a command in a package script (script-writes.ts).
import { bundlerFindings } from "./build-outputs.js";
import { eslintFindings, snapshotFindings, tscFindings } from "./linked-writes.js";
import type { ShellWord } from "./shell-words.js";
import type { Finding } from "./shell-types.js";

/** Ask findings for `program` with `args` run in `cwd` (of the project at `root`) writing through a link out; none for other programs. */
export function linkedWriteFindings(program: string, args: readonly ShellWord[], root: string, cwd = root): Finding[] {
  if (program === "eslint") return eslintFindings(args, root, cwd);
  if (program === "tsc") return tscFindings(args, root, cwd);
  if (program === "vitest" || program === "jest") return snapshotFindings(program, args, root, cwd);
  return bundlerFindings(program, args, root, cwd);
}
