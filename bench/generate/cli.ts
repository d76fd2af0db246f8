// npx tsx bench/generate/cli.ts --files 12000 --out DIR [--seed N]
// (npm run bench:gen -- --files 12000 --out DIR)

import { parseArgs } from "node:util";

import { DEFAULT_SEED, generateMonorepo } from "./generate-monorepo.js";

const USAGE = "usage: bench:gen --files N --out DIR [--seed N]";

function parseInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { files: { type: "string" }, out: { type: "string" }, seed: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const files = parseInteger("files", values.files);
  if (files === undefined || values.out === undefined) {
    console.error(USAGE);
    return 2;
  }
  const seed = parseInteger("seed", values.seed) ?? DEFAULT_SEED;
  const started = performance.now();
  const { manifest, manifestPath } = await generateMonorepo({ files, out: values.out, seed });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const c = manifest.categories;
  console.log(
    [
      `wrote ${manifest.files} files, ${(manifest.bytes / 1024 / 1024).toFixed(1)} MiB in ${seconds}s (seed ${seed})`,
      `  ts ${c.ts}, tsx ${c.tsx}, js ${c.js}, json ${c.json}, yaml ${c.yaml}, other ${c.other}`,
      `  binary ${c.binary}, non-UTF-8 ${c.nonUtf8}, ignored in tree ${c.ignored}`,
      `  excluded: node_modules ${manifest.excluded.nodeModules}, dist ${manifest.excluded.dist}`,
      `  symlinks: ${manifest.symlinks.supported ? manifest.symlinks.entries.length : "not supported here"}`,
      `  big file: ${manifest.bigFile.path} (${manifest.bigFile.lines} lines, ${(manifest.bigFile.bytes / 1024 / 1024).toFixed(1)} MiB)`,
      `  manifest: ${manifestPath}`,
    ].join("\n"),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bench:gen: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
