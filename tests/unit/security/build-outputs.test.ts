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
  // Output folders set by config files: a link out where the config builds, a plain folder where a
  // linked dist is not used, a path out of the project, and one computed by code.
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(at(rel)), { recursive: true });
    fs.writeFileSync(at(rel), text);
  };
  write("packages/vcfg/vite.config.ts", 'import { defineConfig } from "vite";\nexport default defineConfig({ build: { outDir: "public-build", sourcemap: true } });\n');
  write("packages/vcfg/package.json", JSON.stringify({ name: "vcfg", scripts: { build: "vite build" } }));
  fs.symlinkSync(fixture.outside, at("packages/vcfg/public-build"));
  write("packages/vsafe/vite.config.mjs", 'import { resolve } from "node:path";\nexport default { build: { outDir: resolve(__dirname, "build") } };\n');
  fs.symlinkSync(fixture.outside, at("packages/vsafe/dist"));
  write("packages/vcfg/vite.plain.config.ts", 'export default { build: { outDir: "plain" } };\n');
  write("packages/vsafe/vite.linked.config.ts", "export default { build: { outDir: 'dist/' } };\n");
  write("packages/vurl/vite.config.ts", 'import { fileURLToPath } from "node:url";\nexport default { build: { outDir: fileURLToPath(new URL("../../../escape", import.meta.url)) } };\n');
  write("packages/vdyn/vite.config.ts", 'export default ({ mode }) => ({ build: { outDir: mode === "lib" ? "lib" : process.env.OUT_DIR } });\n');
  write("packages/wp/webpack.config.js", 'const path = require("path");\nmodule.exports = { entry: "./src/index.js", output: { path: path.resolve(__dirname, "out"), filename: "main.js" } };\n');
  write("packages/wp/webpack.glued.config.js", 'module.exports = { output: { path: __dirname + "/out" } };\n');
  fs.symlinkSync(fixture.outside, at("packages/wp/out"));
  write("packages/rl/rollup.config.mjs", 'export default [{ input: "src/a.js", output: { file: "lib/a.js", format: "es" } }];\n');
  fs.symlinkSync(fixture.outside, at("packages/rl/lib"));
  write("packages/rl/rollup.both.config.mjs", 'export default { input: "src/a.js", output: [{ dir: "esm", format: "es" }, { dir: "lib/cjs", format: "cjs" }] };\n');
  write("packages/app/tsup.config.ts", 'export default { entry: ["src/index.ts"], outDir: `lib` };\n');
  write("packages/nx/next.config.js", "module.exports = { distDir: 'build' };\n");
  // Consts at the top of the file are followed; a `let` may be reassigned and is not.
  write("packages/vconst/vite.config.ts", 'import path from "node:path";\nconst site = path.resolve(__dirname, "site");\nconst outDir = path.join(site, "..", "public-build");\nexport default { root: site, build: { outDir } };\n');
  fs.symlinkSync(fixture.outside, at("packages/vconst/public-build"));
  // vite resolves outDir from its root: src/../dist is the package's dist (a plain folder), not one above it.
  write("packages/vroot/vite.config.ts", 'export default { root: "src", test: { root: "." }, build: { outDir: "../dist", emptyOutDir: true } };\n');
  fs.mkdirSync(at("packages/vroot/src"), { recursive: true });
  fs.symlinkSync(fixture.outside, at("packages/vroot/src/out"));
  fs.symlinkSync(fixture.outside, at("packages/dist")); // where "../dist" would be from the package folder
  write("packages/vroot/vite.out.config.ts", 'export default { root: "src", build: { outDir: "out" } };\n');
  write("packages/vlet/vite.config.ts", 'let out = "dist";\nexport default { build: { outDir: out } };\n');
  fs.symlinkSync(fixture.outside, at("packages/nx/build"));
  // parcel builds each target of package.json: `main` into its file's folder, custom targets into their
  // distDir, else dist (dist/<name> when there are several); `targets.main: false` leaves main out.
  write("packages/pmain/package.json", JSON.stringify({ name: "pmain", source: "src/index.ts", main: "lib/index.js", scripts: { build: "parcel build" } }));
  fs.symlinkSync(fixture.outside, at("packages/pmain/lib"));
  write("packages/pmain/src/index.ts", "export const x = 1;\n");
  write("packages/pcustom/package.json", JSON.stringify({ name: "pcustom", targets: { app: { distDir: "public", source: "src/app.html" }, legacy: { source: "src/old.html" } } }));
  fs.mkdirSync(at("packages/pcustom/dist"), { recursive: true });
  fs.symlinkSync(fixture.outside, at("packages/pcustom/dist/legacy"));
  write("packages/poff/package.json", JSON.stringify({ name: "poff", main: "lib/index.js", targets: { main: false } }));
  fs.symlinkSync(fixture.outside, at("packages/poff/lib"));
  write("packages/pbrowser/package.json", JSON.stringify({ name: "pbrowser", browser: { pbrowser: "../../../escape/index.js", fs: false } }));
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
  ["cd packages/site && parcel watch src/index.html", "ask", "`parcel watch` writes its output under `dist`"],
  ["cd packages/site && parcel build src/index.html --dist-dir build", "allow"],
  // The dev server writes its build too.
  ["cd packages/site && parcel src/index.html", "ask", "`parcel` writes its output under `dist`"],
  ["cd packages/site && parcel serve src/index.html --dist-dir .serve", "allow"],
  ["cd packages/site && parcel help", "allow"],
  ["cd packages/pmain && parcel build", "ask", "`parcel build` writes its output under `lib`, which leads outside the project"],
  // Judged with the cd's folder as the project (stricter): the package's lib above it counts as outside.
  ["cd packages/pmain/src && parcel build index.ts", "ask", "packages/pmain/lib`, which leads outside the project"],
  ["parcel build packages/pmain", "ask", "under `packages/pmain/lib`"],
  ["cd packages/pmain && parcel build --dist-dir build", "ask", "under `lib`"],
  ["cd packages/pmain && npm run build", "ask", "runs `parcel build`: `parcel build` writes its output under `lib`"],
  ["cd packages/pcustom && parcel build", "ask", "under `dist/legacy`, which leads outside"],
  ["cd packages/pcustom && parcel build --target app", "allow"],
  ["cd packages/pcustom && parcel build --target=legacy", "ask", "under `dist/legacy`, which leads outside"],
  ["cd packages/pcustom && parcel build --target legacy --dist-dir build", "allow"],
  ["cd packages/poff && parcel build", "allow"],
  ["cd packages/pbrowser && parcel build", "ask", "leads outside the project"],
  // webpack's first words may be entries: it builds them.
  ["cd packages/app && webpack ./src/index.js --mode production", "ask", "`webpack` writes through symlinks, and `dist/assets` leads outside"],
  ["cd packages/app && webpack info", "allow"],
  ["cd packages/site && astro build", "ask", "`astro build` writes its output under `dist`"],
  ["cd packages/site && next build", "allow"],
  // The folder a config file sets, where the command line names none.
  ["cd packages/vcfg && vite build", "ask", "`vite build` writes its output under `public-build`, which leads outside the project"],
  ["cd packages/vcfg && npm run build", "ask", "`vite build` writes its output under `public-build`"],
  ["vite build packages/vcfg", "ask", "under `packages/vcfg/public-build`"],
  ["cd packages/vcfg && vite build --outDir build", "allow"],
  ["cd packages/vsafe && vite build", "allow"],
  ["cd packages/vcfg && vite build -c vite.plain.config.ts", "allow"],
  ["cd packages/vsafe && vite build --config vite.linked.config.ts", "ask", "under `dist`"],
  ["cd packages/vurl && vite build", "ask", "leads outside the project"],
  ["cd packages/vdyn && vite build", "ask", "`vite build` writes its output where `outDir` in `vite.config.ts` says, which is computed"],
  ["cd packages/wp && webpack --mode production", "ask", "`webpack` writes its output under `out`"],
  ["cd packages/wp && webpack --output-path build", "allow"],
  ["cd packages/wp && webpack -c webpack.glued.config.js", "ask", "`webpack` writes its output under `out`"],
  ["cd packages/rl && rollup -c", "ask", "`rollup` writes its output under `lib`"],
  ["cd packages/rl && rollup -c rollup.config.mjs", "ask", "under `lib`"],
  ["cd packages/rl && rollup src/a.js", "allow"],
  ["cd packages/rl && rollup --config rollup.both.config.mjs", "ask", "under `lib/cjs`"],
  ["cd packages/app && tsup", "allow"],
  ["cd packages/nx && next build", "ask", "`next build` writes its output under `build`"],
  ["cd packages/vconst && vite build", "ask", "under `public-build`, which leads outside the project"],
  ["cd packages/vroot && vite build", "allow"],
  ["cd packages/vroot && vite build -c vite.out.config.ts", "ask", "under `src/out`"],
  ["cd packages/vlet && vite build", "ask", "where `outDir` in `vite.config.ts` says, which is computed"],
];

describe("bundlers and output folders that lead out of the project", () => {
  it.each(ROWS)("%j → %s", (command, verdict, reason) => {
    const result = fixture.judge(command, BUNDLERS);
    expect(result.verdict, result.reason).toBe(verdict);
    if (reason) expect(result.reason).toContain(reason);
  });
});
