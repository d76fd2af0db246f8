// Whether a package's binary is installed where npx looks first: node_modules/.bin of the project or
// of a folder above it (a monorepo's root). The command policy asks before `npx` would download a
// package; run_tests says "install the dependencies" instead of running a runner that is not there.
import fs from "node:fs";
import path from "node:path";

export function installedBinary(root: string, name: string): boolean {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "node_modules", ".bin", name))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
