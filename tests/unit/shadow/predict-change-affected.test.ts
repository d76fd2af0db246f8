// predict_change on a hub with no history: its affected files are the dependents most else hangs on,
// not the first ten by name (which were all from one app).
import { describe, expect, it } from "vitest";
import type { ShadowHistory } from "../../../src/main/shadow/change-history.js";
import type { IndexView } from "../../../src/main/shadow/index-view.js";
import { predictChange } from "../../../src/main/shadow/predict-change.js";
import type { FileMeta } from "../../../src/workers/ast-types.js";

const meta = (dependents: string[]): FileMeta =>
  ({ complexity: { loc: 10, nesting: 1, imports: 1, score: 5 }, dependencies: [], dependents, isHub: dependents.length > 5, isEntryPoint: false }) as FileMeta;

const history: ShadowHistory = {
  version: "t",
  events: [],
  commits: [],
  changes: [],
  byFile: new Map(),
  sweeps: new Map(),
  errors: [],
  errorsIn: new Map(),
  reverts: new Map(),
  causesBugsIn: new Map(),
};

describe("predict_change's affected files", () => {
  it("lists a hub's dependents by how much depends on them in turn", () => {
    const leaves = Array.from({ length: 12 }, (_, i) => `apps/api/src/a${String(i).padStart(2, "0")}.ts`);
    const metas = new Map<string, FileMeta>([
      ["packages/utils/src/index.ts", meta([...leaves, "packages/core/src/index.ts", "packages/ui/src/index.ts"])],
      ["packages/core/src/index.ts", meta(Array.from({ length: 40 }, (_, i) => `c${i}.ts`))],
      ["packages/ui/src/index.ts", meta(Array.from({ length: 9 }, (_, i) => `u${i}.ts`))],
    ]);
    const view: IndexView = { metas, maxComplexity: 5 };
    const r = predictChange(history, view, "packages/utils/src/index.ts")!;
    expect(r.affected_files.slice(0, 3)).toEqual(["packages/core/src/index.ts", "packages/ui/src/index.ts", "apps/api/src/a00.ts"]);
    expect(r.dependency_count).toBe(14);
  });
});
