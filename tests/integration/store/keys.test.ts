import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  PROJECT_KEY_PARTS,
  projectKey,
  projectKeys,
  projectNameFor,
  projectSessionsKey,
  sessionDataKey,
  sessionUndoKey,
} from "../../../src/main/store/keys.js";
import { makeTempDir, removeDir } from "../../helpers/temp-dir.js";

/** The hash tag Redis Cluster hashes: the text between the first `{` and the next `}`. */
function hashTag(key: string): string | null {
  const open = key.indexOf("{");
  const close = key.indexOf("}", open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : null;
}

describe("project keys", () => {
  it("carry the project name as a literal hash tag", () => {
    expect(projectKey("work-main", "files")).toBe("project:{work-main}:files");
    expect(projectKey("work-main", "ast")).toBe("project:{work-main}:ast");
    expect(projectKey("work-main", "meta")).toBe("project:{work-main}:meta");
    expect(projectKey("work-main", "indexes")).toBe("project:{work-main}:indexes");
    expect(projectKey("work-main", "config")).toBe("project:{work-main}:config");
    expect(projectKey("work-main", "stat")).toBe("project:{work-main}:stat");
  });

  it("put every key of a project in the same cluster slot", () => {
    const keys = [...Object.values(projectKeys("work-main")), projectSessionsKey("work-main")];
    expect(keys).toHaveLength(PROJECT_KEY_PARTS.length + 1);
    for (const key of keys) expect(hashTag(key)).toBe("work-main");
  });

  it("build session keys around the session id", () => {
    expect(sessionDataKey("s-1")).toBe("session:{s-1}:data");
    expect(sessionUndoKey("s-1")).toBe("session:{s-1}:undo");
  });

  it.each(["a}b", "a{b", "a:b", "", "a b"])("reject the unsafe name %j", (name) => {
    expect(() => projectKey(name, "files")).toThrow(/Invalid project name/);
  });
});

describe("projectNameFor", () => {
  const tmp = makeTempDir("ipuaro-keys-");
  afterAll(() => removeDir(tmp));

  it("is {parent}-{folder} of the real path", () => {
    const root = path.join(tmp, "work", "main");
    fs.mkdirSync(root, { recursive: true });
    expect(projectNameFor(root)).toBe("work-main");
    expect(projectNameFor(root + "/")).toBe("work-main");
  });

  it("follows symlinks to the real folder", () => {
    const real = path.join(tmp, "projects", "myapp");
    fs.mkdirSync(real, { recursive: true });
    const link = path.join(tmp, "shortcut");
    fs.symlinkSync(real, link);
    expect(projectNameFor(link)).toBe("projects-myapp");
  });

  it("replaces characters that could break a key, and keeps look-alikes apart", () => {
    const spaced = path.join(tmp, "my {odd}", "app:v2");
    const underscored = path.join(tmp, "my__odd_", "app_v2");
    fs.mkdirSync(spaced, { recursive: true });
    fs.mkdirSync(underscored, { recursive: true });
    const a = projectNameFor(spaced);
    const b = projectNameFor(underscored);
    expect(a).toMatch(/^my__odd_-app_v2-[0-9a-f]{8}$/);
    expect(b).toBe("my__odd_-app_v2");
    expect(a).not.toBe(b);
    expect(() => projectKey(a, "files")).not.toThrow();
  });

  it("keeps letters of any script: a Cyrillic folder is named as it is, not as a row of underscores", () => {
    const cyrillic = path.join(tmp, "проекты", "магазин");
    const spaced = path.join(tmp, "проекты", "мой магазин");
    fs.mkdirSync(cyrillic, { recursive: true });
    fs.mkdirSync(spaced, { recursive: true });
    expect(projectNameFor(cyrillic)).toBe("проекты-магазин");
    expect(projectNameFor(spaced)).toMatch(/^проекты-мой_магазин-[0-9a-f]{8}$/);
    expect(() => projectKey(projectNameFor(spaced), "files")).not.toThrow();
  });

  it("gives sane names at the top of the tree", () => {
    expect(projectNameFor("/")).toBe("root");
    expect(projectNameFor("/usr")).toBe("root-usr");
  });
});
