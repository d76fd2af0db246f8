// A decision's related_files are files or globs ("src/validators/*.ts" in seed 001's own example): what
// a path given as focus is compared against.

/** `*` and `?` stay inside one folder, `**` crosses folders; anything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") {
      // `**/` also matches no folder at all: `src/**/a.ts` covers src/a.ts.
      re += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const isGlob = (p: string) => /[*?]/.test(p);

/**
 * Whether a related_files entry concerns `target`: the same file, a file under a target folder, a glob
 * matching the target file, or a glob whose fixed part lies under the target folder.
 */
export function relatedTo(entry: string, target: string, targetIsFolder: boolean): boolean {
  const clean = entry.replace(/^\.\//, "").replace(/\/$/, "");
  const under = (p: string) => p === target || p.startsWith(`${target}/`);
  if (!isGlob(clean)) return targetIsFolder ? under(clean) : clean === target || target.startsWith(`${clean}/`);
  if (!targetIsFolder) return globToRegExp(clean).test(target);
  const fixed = clean.slice(0, clean.search(/[*?]/)).replace(/\/[^/]*$/, "");
  return under(fixed) || globToRegExp(clean).test(target) || target.startsWith(`${fixed}/`);
}
