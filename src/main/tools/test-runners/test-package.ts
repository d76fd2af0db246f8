// Which package's tests a path belongs to, in a monorepo: the nearest folder from the path up to the
// project root whose package.json names a test runner. run_tests runs there (`cd packages/core && …`),
// with that package's runner and config, as `npm test` in the package would; the root's runner (often
// `turbo run test` or none at all) knew nothing of a package's vitest.
import fs from "node:fs";
import path from "node:path";
import { detectTestRunner, type RunnerDetection } from "./detect-runner.js";

export interface TestPackage {
  /** Project-relative folder of the package; "." for the project root. */
  folder: string;
  detection: RunnerDetection;
}

/** `rel` (project-relative, a file or a folder) → the package whose runner runs it. */
export function testPackageFor(root: string, rel: string | undefined, isFolder: boolean): TestPackage {
  let dir = rel === undefined ? "." : isFolder ? rel : path.posix.dirname(rel);
  while (dir !== "." && dir !== "" && dir !== "/") {
    if (fs.existsSync(path.join(root, dir, "package.json"))) {
      const detection = detectTestRunner(path.join(root, dir));
      if (detection.ok) return { folder: dir, detection };
    }
    dir = path.posix.dirname(dir);
  }
  return { folder: ".", detection: detectTestRunner(root) };
}

/** `rel` relative to the package folder; undefined for the package folder itself (all its tests). */
export function pathInPackage(folder: string, rel: string | undefined): string | undefined {
  if (rel === undefined || folder === ".") return rel;
  return path.posix.relative(folder, rel) || undefined;
}
