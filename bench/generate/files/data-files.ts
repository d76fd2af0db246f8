// JSON data (locales, fixtures), YAML (CI, compose, k8s, app config) and Markdown docs.

import { FIELD_NAMES, NOUNS, PROSE, STATUS_VALUES, TODO_NOTES, camel, pascal } from "../names.js";
import { Rng } from "../prng.js";
import type { Workspace } from "../model.js";

export const LOCALES = ["en", "ru", "zh-CN", "ja", "uk"] as const;

const PHRASES: Record<(typeof LOCALES)[number], readonly string[]> = {
  en: ["Save", "Cancel", "Something went wrong", "Loading…", "No results", "Delete this item?", "Welcome back"],
  ru: ["Сохранить", "Отмена", "Что-то пошло не так", "Загрузка…", "Ничего не найдено", "Удалить этот элемент?", "С возвращением"],
  "zh-CN": ["保存", "取消", "出了点问题", "加载中…", "没有结果", "删除此项目？", "欢迎回来"],
  ja: ["保存", "キャンセル", "問題が発生しました", "読み込み中…", "結果がありません", "この項目を削除しますか？", "おかえりなさい"],
  uk: ["Зберегти", "Скасувати", "Щось пішло не так", "Завантаження…", "Нічого не знайдено", "Видалити цей елемент?", "З поверненням"],
};

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A locale bundle: nested namespaces of UI strings in one language. */
export function localeJson(path: string, locale: (typeof LOCALES)[number], seed: number, size: number): string {
  const rng = Rng.forKey(seed, path);
  const bundle: Record<string, Record<string, string>> = {};
  for (const ns of rng.sample(NOUNS, Math.max(2, size))) {
    const entries: Record<string, string> = {};
    for (const key of rng.sample(["title", "empty", "save", "cancel", "error", "confirm", "loading", "greeting", "hint"], rng.int(3, 8))) {
      entries[key] = `${rng.pick(PHRASES[locale])}${rng.chance(0.3) ? ` {{${rng.pick(FIELD_NAMES)}}}` : ""}`;
    }
    bundle[ns] = entries;
  }
  return json(bundle);
}

/** Test fixture or seed data: an array of records. */
export function fixtureJson(path: string, seed: number, size: number): string {
  const rng = Rng.forKey(seed, path);
  const rows = [];
  for (let i = 0; i < Math.max(1, size * 3); i++) {
    const row: Record<string, unknown> = { id: `${rng.pick(NOUNS)}-${rng.int(1000, 99999)}` };
    for (const field of rng.sample(FIELD_NAMES.filter((f) => f !== "id"), rng.int(3, 8))) {
      row[field] = rng.chance(0.4) ? rng.int(0, 10_000) : rng.chance(0.5) ? rng.pick(STATUS_VALUES) : rng.chance(0.8) ? `${rng.pick(NOUNS)} ${rng.pick(NOUNS)}` : null;
    }
    rows.push(row);
  }
  return json(rng.chance(0.5) ? rows : { version: rng.int(1, 4), generatedBy: "seed-script", items: rows });
}

/** JSON Schema documents, as found next to validation code. */
export function schemaJson(path: string, seed: number, size: number): string {
  const rng = Rng.forKey(seed, path);
  const properties: Record<string, unknown> = {};
  for (const field of rng.sample(FIELD_NAMES, Math.min(FIELD_NAMES.length, 3 + size))) {
    properties[field] = rng.chance(0.5) ? { type: "string", maxLength: rng.int(8, 256) } : { type: "integer", minimum: 0 };
  }
  return json({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: `https://acme.dev/schemas/${path.split("/").pop()}`, type: "object", properties, required: Object.keys(properties).slice(0, 2), additionalProperties: false });
}

export function ciWorkflow(): string {
  return `name: CI

on:
  push:
    branches: [main]
  pull_request:

concurrency:
  group: ci-\${{ github.ref }}
  cancel-in-progress: true

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [20, 22]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: \${{ matrix.node }}
          cache: npm
      - run: npm ci
      - run: npm run lint
      - run: npm run build
      - run: npm test -- --coverage
      - name: Upload coverage
        if: matrix.node == 20
        uses: actions/upload-artifact@v4
        with:
          name: coverage
          path: coverage/
`;
}

export function dockerCompose(): string {
  return `services:
  api:
    build:
      context: .
      dockerfile: apps/api/Dockerfile
    environment:
      DATABASE_URL: postgres://acme:acme@db:5432/acme
      REDIS_URL: redis://cache:6379
    ports:
      - "3000:3000"
    depends_on:
      - db
      - cache
  web:
    build:
      context: .
      dockerfile: apps/web/Dockerfile
    ports:
      - "5173:5173"
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: acme
      POSTGRES_PASSWORD: acme
    volumes:
      - db-data:/var/lib/postgresql/data
  cache:
    image: redis:7-alpine

volumes:
  db-data: {}
`;
}

export function dependabot(): string {
  return `version: 2
updates:
  - package-ecosystem: npm
    directory: "/"
    schedule:
      interval: weekly
    groups:
      nestjs:
        patterns: ["@nestjs/*"]
  - package-ecosystem: github-actions
    directory: "/"
    schedule:
      interval: monthly
`;
}

/** k8s manifests, app config and YAML fixtures, chosen by the path's folder. */
export function yamlFile(path: string, seed: number, size: number): string {
  const rng = Rng.forKey(seed, path);
  const name = path.split("/").slice(-2, -1)[0] ?? "service";
  if (path.includes("/k8s/")) {
    return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: acme
spec:
  replicas: ${rng.int(1, 6)}
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
    spec:
      containers:
        - name: ${name}
          image: ghcr.io/acme/${name}:${rng.int(1, 9)}.${rng.int(0, 30)}.${rng.int(0, 9)}
          ports:
            - containerPort: ${rng.int(3000, 9000)}
          resources:
            limits:
              cpu: "${rng.int(1, 4) * 250}m"
              memory: ${rng.int(1, 8) * 128}Mi
          env:
${rng.sample(FIELD_NAMES, Math.max(1, size)).map((f) => `            - name: ${camel([f]).toUpperCase()}\n              value: "${rng.pick(STATUS_VALUES)}"`).join("\n")}
`;
  }
  const lines = [`# ${rng.pick(PROSE)}`, `${camel([rng.pick(NOUNS)])}:`];
  for (const key of rng.sample(FIELD_NAMES, Math.min(FIELD_NAMES.length, 2 + size))) {
    lines.push(rng.chance(0.3) ? `  ${key}:\n    - ${rng.pick(NOUNS)}\n    - ${rng.pick(NOUNS)}` : `  ${key}: ${rng.chance(0.5) ? rng.int(0, 5000) : JSON.stringify(rng.pick(STATUS_VALUES))}`);
  }
  if (rng.chance(0.3)) lines.push("messages:", `  greeting: "Привет, {{name}}"`, `  farewell: "再见"`);
  return `${lines.join("\n")}\n`;
}

export function rootReadme(workspaces: readonly Workspace[]): string {
  return [
    "# Acme monorepo",
    "",
    "Packages and apps of the Acme platform. Русская документация — в `docs/ru/`. 中文文档见 `docs/zh/`.",
    "",
    "| workspace | path |",
    "| --- | --- |",
    ...workspaces.map((w) => `| \`${w.name}\` | \`${w.dir}\` |`),
    "",
    "## Development",
    "",
    "```bash",
    "npm ci",
    "npm run build",
    "npm test",
    "```",
    "",
  ].join("\n");
}

export function markdownDoc(path: string, seed: number, size: number): string {
  const rng = Rng.forKey(seed, path);
  const title = pascal([rng.pick(NOUNS), rng.pick(NOUNS)]);
  const out = [`# ${title}`, "", rng.pick(PROSE), ""];
  for (let i = 0; i < Math.max(1, size); i++) {
    out.push(`## ${pascal([rng.pick(NOUNS)])} ${rng.pick(["flow", "model", "limits", "rollout", "migration"])}`, "", `${rng.pick(PROSE)} ${rng.pick(PROSE)}`, "");
    if (rng.chance(0.4)) out.push("```ts", `const ${camel([rng.pick(NOUNS)])} = await client.${camel([rng.pick(NOUNS)])}.list({ limit: ${rng.int(5, 50)} });`, "```", "");
    if (rng.chance(0.2)) out.push(`> ${rng.pick(TODO_NOTES)}`, "");
  }
  return out.join("\n");
}

export function changelog(path: string, seed: number): string {
  const rng = Rng.forKey(seed, path);
  const out = ["# Changelog", ""];
  for (let v = rng.int(3, 9); v > 0; v--) {
    out.push(`## 1.${v}.0`, "", `- ${rng.pick(PROSE)}`, `- Fix ${rng.pick(NOUNS)} ${rng.pick(["sorting", "pagination", "rounding", "caching"])}`, "");
  }
  return out.join("\n");
}
