// get_todos reads the markers of JS/TS files from the index (the extractor records them with the
// file's facts), parses only what the index has none recorded for (JSON, YAML, files indexed before),
// and follows the live index as files change.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { projectKey } from "../../../src/main/store/keys.js";
import { getTodos } from "../../../src/main/tools/get-todos.js";
import { extractFile } from "../../../src/workers/extract/index.js";
import type { IndexedProject } from "../../helpers/indexed-project.js";
import { useRedisServer } from "../../helpers/redis-server.js";
import { toolContext } from "../../helpers/tool-context.js";
import { openSearchFixture } from "./search-fixture.js";

const server = useRedisServer();
let project: IndexedProject;
const key = (part: Parameters<typeof projectKey>[1]) => projectKey(project.store.projectName, part);
const STRINGS = "packages/core/src/utils/strings.ts";
const CONTROLLER = "apps/api/src/orders/order.controller.ts";

beforeAll(async () => void (project = await openSearchFixture(server().url)), 60_000);
afterAll(() => project?.close());

const todos = async (args: Record<string, unknown> = {}) => {
  const r = await getTodos.run("call-1", args, toolContext(project));
  expect(r.error).toBeUndefined();
  return r.data as string;
};

it("the extractor records comment markers with their lines, never those in strings or JSX text", () => {
  const src = ['// TODO: one FIXME two', 'const s = "TODO";', "/**", " * @todo doc", " */", "const v = <p>HACK in text</p>; // XXX trailing", "let TODO_LIST = 1;"].join("\n");
  expect(extractFile(src, "tsx").todos).toEqual([
    { line: 1, marker: "TODO", text: "// TODO: one FIXME two" },
    { line: 4, marker: "TODO", text: "* @todo doc" },
    { line: 6, marker: "XXX", text: "const v = <p>HACK in text</p>; // XXX trailing" },
  ]);
});

it("answers JS/TS markers from the index, without reading the files", async () => {
  const before = await todos({ path: STRINGS });
  expect(before).toContain('1 TODO │ // TODO: handle Cyrillic transliteration ("привет" → "privet")');
  // With the file's text gone from the index, only the recorded markers can answer.
  const stored = (await project.redis.hget(key("files"), STRINGS)) as string;
  await project.redis.hdel(key("files"), STRINGS);
  try {
    expect(await todos({ path: STRINGS })).toBe(before);
  } finally {
    await project.redis.hset(key("files"), STRINGS, stored);
  }
});

it("parses the files the index recorded no markers for (indexed before they were recorded)", async () => {
  const facts = (await project.redis.hget(key("facts"), CONTROLLER)) as string;
  const old = JSON.parse(facts) as Record<string, unknown>;
  delete old.todos;
  await project.redis.hset(key("facts"), CONTROLLER, JSON.stringify(old));
  try {
    expect(await todos({ path: CONTROLLER })).toContain("13 FIXME │ // FIXME: parse the id properly");
  } finally {
    await project.redis.hset(key("facts"), CONTROLLER, facts);
  }
});

it("a damaged facts record costs nothing: the file is parsed instead", async () => {
  const facts = (await project.redis.hget(key("facts"), CONTROLLER)) as string;
  await project.redis.hset(key("facts"), CONTROLLER, `${facts.slice(0, 40)}, "todos":[{`);
  try {
    expect(await todos({ path: CONTROLLER })).toContain("13 FIXME │ // FIXME: parse the id properly");
  } finally {
    await project.redis.hset(key("facts"), CONTROLLER, facts);
  }
});

it("follows a re-index: a marker added to a file is found, one removed is gone", async () => {
  const file = path.join(project.root, STRINGS);
  const original = fs.readFileSync(file, "utf8");
  fs.writeFileSync(file, original.replace("// TODO: handle Cyrillic", "// handle Cyrillic") + "\n// HACK: added later\n");
  try {
    await project.reindex();
    const out = await todos({ path: STRINGS });
    expect(out).toContain("HACK │ // HACK: added later");
    expect(out).not.toContain("handle Cyrillic");
  } finally {
    fs.writeFileSync(file, original);
    await project.reindex();
  }
});
