// How npm reads its first operand: exact command names, aliases (`i`, `rm`, `un` …), camelCase, and any
// unambiguous prefix of a command or alias (`npm pub` is `npm publish`). Taken from npm 11's
// lib/utils/cmd-list.js, so rules about `publish` or `install` hold however the model spells them.

const COMMANDS = [
  "access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe",
  "deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor", "edit", "exec", "explain", "explore",
  "find-dupes", "fund", "get", "help", "help-search", "init", "install", "install-ci-test", "install-scripts",
  "install-test", "link", "ll", "login", "logout", "ls", "org", "outdated", "owner", "pack", "ping", "pkg",
  "prefix", "profile", "prune", "publish", "query", "rebuild", "repo", "restart", "root", "run", "sbom", "search",
  "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team", "test", "token", "trust", "undeprecate",
  "uninstall", "unpublish", "unstar", "update", "version", "view", "whoami",
];

const ALIASES: Record<string, string> = {
  author: "owner", home: "docs", issues: "bugs", info: "view", show: "view", find: "search", add: "install",
  unlink: "uninstall", remove: "uninstall", rm: "uninstall", r: "uninstall", un: "uninstall", rb: "rebuild",
  list: "ls", ln: "link", create: "init", i: "install", it: "install-test", cit: "install-ci-test", u: "update",
  up: "update", c: "config", s: "search", se: "search", tst: "test", t: "test", ddp: "dedupe", v: "view",
  "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", x: "exec", why: "explain",
  la: "ll", verison: "version", ic: "ci", innit: "init", in: "install", ins: "install", inst: "install",
  insta: "install", instal: "install", isnt: "install", isnta: "install", isntal: "install", isntall: "install",
  "install-clean": "ci", "isntall-clean": "ci", hlep: "help", "dist-tags": "dist-tag", upgrade: "update",
  udpate: "update", rum: "run", sit: "install-ci-test", urn: "run", ogr: "org", "add-user": "adduser",
};

const NAMES = [...COMMANDS, ...Object.keys(ALIASES)];

/** The npm command a first operand runs (`pub` → `publish`, `i` → `install`), or null when npm knows none. */
export function npmCommand(word: string): string | null {
  let name = word;
  if (/[A-Z]/.test(name)) name = name.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`);
  if (COMMANDS.includes(name)) return name;
  if (ALIASES[name]) return ALIASES[name]!;
  if (name === "") return null;
  // A full name that is also a prefix of another (`ll` of none, `ls` …) was handled above.
  const matches = NAMES.filter((candidate) => candidate.startsWith(name));
  if (matches.length !== 1) return null;
  let found = matches[0]!;
  while (ALIASES[found]) found = ALIASES[found]!;
  return found;
}
