// Non-code buckets that scale with --files: JSON data, YAML, Markdown, image assets, ignored files.

import { LOCALES, changelog, fixtureJson, localeJson, markdownDoc, schemaJson, yamlFile } from "../files/data-files.js";
import { png } from "../files/edge-files.js";
import { NOUNS, kebab } from "../names.js";
import type { Workspace } from "../model.js";
import type { Rng } from "../prng.js";
import { NESTED_IGNORE_DIR } from "./fixed.js";
import { uniquePath } from "./link.js";
import type { FileSink } from "./workspaces.js";

function claim(sink: FileSink, taken: Set<string>, path: string): string {
  let candidate = uniquePath(taken, path);
  while (sink.has(candidate)) candidate = uniquePath(taken, path);
  return candidate;
}

export function addJsonBucket(sink: FileSink, rng: Rng, seed: number, packages: readonly Workspace[], web: Workspace, count: number): void {
  const taken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const size = rng.skewedInt(4, 0.6, 1, 40);
    const kind = rng.weighted<string>([["fixture", 5], ["locale", 3], ["schema", 2]]);
    if (kind === "locale") {
      const locale = rng.pick(LOCALES);
      const path = claim(sink, taken, `${web.dir}/src/locales/${kebab([rng.pick(NOUNS)])}/${locale}.json`);
      sink.text(path, () => localeJson(path, locale, seed, size));
    } else if (kind === "schema") {
      const path = claim(sink, taken, `${rng.pick(packages).dir}/schemas/${kebab([rng.pick(NOUNS)])}.schema.json`);
      sink.text(path, () => schemaJson(path, seed, size));
    } else {
      const path = claim(sink, taken, `${rng.pick(packages).dir}/fixtures/${kebab([rng.pick(NOUNS), rng.pick(NOUNS)])}.json`);
      sink.text(path, () => fixtureJson(path, seed, size));
    }
  }
}

export function addYamlBucket(sink: FileSink, rng: Rng, seed: number, packages: readonly Workspace[], api: Workspace, count: number): void {
  const taken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const size = rng.skewedInt(4, 0.5, 1, 20);
    const kind = rng.weighted<string>([["k8s", 4], ["config", 2], ["fixture", 3]]);
    const path =
      kind === "k8s"
        ? claim(sink, taken, `deploy/k8s/${kebab([rng.pick(NOUNS)])}/${rng.pick(["deployment", "service", "configmap", "ingress"])}.yaml`)
        : kind === "config"
          ? claim(sink, taken, `${api.dir}/config/${rng.pick(["staging", "production", "test", "local"])}.${rng.chance(0.3) ? "yml" : "yaml"}`)
          : claim(sink, taken, `${rng.pick(packages).dir}/fixtures/${kebab([rng.pick(NOUNS)])}.yaml`);
    sink.text(path, () => yamlFile(path, seed, size));
  }
}

export function addDocsBucket(sink: FileSink, rng: Rng, seed: number, packages: readonly Workspace[], count: number): void {
  const taken = new Set<string>();
  let adr = 1;
  for (let i = 0; i < count; i++) {
    const size = rng.skewedInt(4, 0.5, 1, 25);
    const changelogFor = packages.find((p) => !sink.has(`${p.dir}/CHANGELOG.md`));
    if (changelogFor && rng.chance(0.3)) {
      const path = `${changelogFor.dir}/CHANGELOG.md`;
      sink.text(path, () => changelog(path, seed));
      continue;
    }
    const path = rng.chance(0.4)
      ? claim(sink, taken, `docs/adr/${String(adr++).padStart(4, "0")}-${kebab([rng.pick(NOUNS), rng.pick(NOUNS)])}.md`)
      : claim(sink, taken, `docs/${rng.pick(["guides", "ru", "zh", "runbooks"])}/${kebab([rng.pick(NOUNS)])}.md`);
    sink.text(path, () => markdownDoc(path, seed, size));
  }
}

export function addAssetsBucket(sink: FileSink, rng: Rng, seed: number, web: Workspace, count: number): void {
  const taken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = kebab([rng.pick(NOUNS)]);
    if (rng.chance(0.7)) {
      const path = claim(sink, taken, `${web.dir}/public/images/${name}.png`);
      const size = rng.int(8, 48);
      sink.add({ path, category: "binary", render: () => png(seed, path, size) });
    } else {
      const path = claim(sink, taken, `${web.dir}/public/images/${name}.svg`);
      const radius = rng.int(2, 11);
      sink.text(path, () => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="${radius}"/></svg>\n`);
    }
  }
}

/** In-tree files an indexer must skip: codegen cache (nested .gitignore), coverage reports, logs. */
export function addIgnoredBucket(sink: FileSink, rng: Rng, count: number): void {
  const taken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const kind = rng.weighted<string>([["cache", 6], ["coverage", 3], ["log", 1]]);
    if (kind === "cache") {
      const noun = rng.pick(NOUNS);
      const path = claim(sink, taken, `${NESTED_IGNORE_DIR}/generated-cache/${noun}-client.ts`);
      sink.text(path, () => `// cached codegen output\nexport const ${noun.toUpperCase()}_VERSION = ${i};\n`, { ignoredBy: "nested-gitignore" });
    } else if (kind === "coverage") {
      const path = claim(sink, taken, `coverage/lcov-report/${kebab([rng.pick(NOUNS)])}.ts.html`);
      sink.text(path, () => `<!doctype html>\n<html><body><pre class="prettyprint">covered ${i}</pre></body></html>\n`, { ignoredBy: "gitignore" });
    } else {
      const path = claim(sink, taken, `apps/api/logs/app-${i}.log`);
      sink.text(path, () => `[${i}] GET /api/health 200\n`, { ignoredBy: "gitignore" });
    }
  }
}
