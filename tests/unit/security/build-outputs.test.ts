// Bundlers build into a folder and follow links to do it (vite 8 emptied the folder a linked `dist`
// pointed at, outside the project, and wrote its build there): a run asks when its output folder leads
// out of the project or holds a link out, and runs as before otherwise. The bundlers are whitelisted
// here, so what asks is the output folder alone.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/main/security/index.js";
import { makePolicyFixture, type PolicyFixture } from "./policy-fixture.js";

const BUNDLERS = ["vite", "webpack", "rollup", "tsup", "esbuild", "parcel", "next", "astro"];

let fixture: PolicyFixture;
beforeAll(() => {
  fixture = makePolicyFixture();
  const at = (rel: string) => path.join(fixture.root, rel);
  // A site whose dist is a link out; an app whose real dist holds one; a lib with nothing linked.
  fs.mkdirSync(at("packages/site/src"), { recursive: true });
  fs.writeFileSync(at("packages/site/package.json"), JSON.stringify({ name: "site", scripts: { build: "tsc --noEmit && vite build", dev: "vite" } }));
  fs.symlinkSync(fixture.outside, at("packages/site/dist"));
  fs.mkdirSync(at("packages/app/dist"), { recursive: true });
  fs.symlinkSync(fixture.outside, at("packages/app/dist/assets"));
  fs.mkdirSync(at("packages/lib/src"), { recursive: true });
});
afterAll(() => fixture.cleanup());

type Row = [command: string, verdict: Verdict, reasonIncludes?: string];

const ROWS: Row[] = [
  ["cd packages/site && vite build", "ask", "`vite build` writes its output under `dist`, which leads outside the project"],
  ["vite build packages/site", "ask", "`vite build` writes its output under `packages/site/dist`"],
  ["cd packages/site && npx vite build --mode production", "ask", "under `dist`"],
  // Run by the package's own script, as a user's `npm run build` does.
  ["cd packages/site && npm run build", "ask", "runs `tsc --noEmit && vite build`: `vite build` writes its output under `dist`"],
  ["pnpm --filter site build", "ask", "script `build` of `packages/site/package.json` runs `tsc --noEmit && vite build`: `vite build` writes its output under `packages/site/dist`"],
  // Elsewhere, or writing nothing: the dev server, preview, help.
  ["cd packages/site && vite build --outDir build", "allow"],
  ["cd packages/site && vite", "allow"],
  ["cd packages/site && npm run dev", "allow"],
  ["cd packages/site && vite preview", "allow"],
  ["cd packages/site && vite build --help", "allow"],
  ["cd packages/lib && vite build", "allow"],
  // A link out inside the output folder: the build writes through it.
  ["cd packages/app && webpack", "ask", "`webpack` writes through symlinks, and `dist/assets` leads outside"],
  ["cd packages/app && webpack --mode production --output-path build", "allow"],
  ["cd packages/app && webpack serve", "allow"],
  ["cd packages/site && tsup src/index.ts", "ask", "`tsup` writes its output under `dist`"],
  ["cd packages/site && tsup src/index.ts -d lib", "allow"],
  // rollup and esbuild print to stdout unless told where to write (rollup's config: taken as dist).
  ["cd packages/site && rollup src/index.js", "allow"],
  ["cd packages/site && rollup -c", "ask", "`rollup` writes its output under `dist`"],
  ["cd packages/site && rollup src/index.js --file dist/bundle.js", "ask", "leads outside"],
  ["cd packages/site && esbuild src/index.ts --bundle", "allow"],
  ["cd packages/site && esbuild src/index.ts --bundle --outdir=dist", "ask", "`esbuild` writes its output under `dist`"],
  ["cd packages/site && parcel build src/index.html", "ask", "`parcel build` writes its output under `dist`"],
  ["cd packages/site && astro build", "ask", "`astro build` writes its output under `dist`"],
  ["cd packages/site && next build", "allow"],
];

describe("bundlers and output folders that lead out of the project", () => {
  it.each(ROWS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command, BUNDLERS);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});
