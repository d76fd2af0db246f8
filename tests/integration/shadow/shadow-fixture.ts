// A small shop project with a scripted git history and recorded agent sessions, indexed into a real
// Redis: what the analytics tests measure against. Dates are days before the test's start, so the
// windows (7d, 30d) always cut the history at the same places.
//
// History (days ago, author, subject → files):
//   80 alice  initial                           every source file, tests, engine
//   58 bob    pricing tiers                     price, discount
//   50 alice  cart totals                       cart
//   40 bob    pricing rounding                  price, discount
//   35 bob    fix tests broken by rounding      price, tests/pricing.test   (blames the 40-day change)
//   20 carol  pricing currency                  price, discount, checkout
//   12 bob    discount caps                     price, discount
//   10 alice  fix: regression in price caps     price, tests/pricing.test   (blames the 12-day change)
//    5 carol  format helpers                    format
//  3,2 alice  bulk reformat (2 commits)         price, format + 30 generated files each (ignored for co-change)
//
// Agent sessions (recorded through the AnalyticsEvents recorder):
//   S6 (9.5 days): 2 edits of price, each followed by a failing pricing test (after Alice's 10-day commit:
//                 edits before it would be the same work as that commit, which is made at this checkout)
//   S1 ( 9 days): price edited → vitest fails in pricing and checkout tests → price edited → tsc error in
//                 price → a human edits price 30 min later (human_fix)
//   S5 ( 8 days): 5 edits of engine, each followed by an error in another file
//   S7 (13 days): price edited, then undone
//   S2 ( 4 days): cart edited, tests pass
//   S3 ( 1 day):  format edited
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createAnalyticsEvents, type AnalyticsEvents } from "../../../src/main/shadow/events-recorder.js";
import { shadowScope, type ShadowScope } from "../../../src/main/shadow/shadow-scope.js";
import { openIndexedProject, type IndexedProject } from "../../helpers/indexed-project.js";
import { makeTempDir, removeDir, writeTree } from "../../helpers/temp-dir.js";
import { toolContext, type TestToolContext } from "../../helpers/tool-context.js";

export const DAY = 24 * 3600_000;
export const MINUTE = 60_000;

/** The test's own git: fixed identity and dates, no inherited GIT_* variables or global config. */
export function git(cwd: string, args: string[], opts: { author?: string; at?: number } = {}): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  Object.assign(env, { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" });
  if (opts.author) {
    const email = `${opts.author.toLowerCase()}@example.com`;
    Object.assign(env, { GIT_AUTHOR_NAME: opts.author, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: opts.author, GIT_COMMITTER_EMAIL: email });
  }
  if (opts.at !== undefined) {
    const date = `@${Math.floor(opts.at / 1000)} +0000`;
    Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

export const PRICE = "src/pricing/price.ts";
export const DISCOUNT = "src/pricing/discount.ts";
export const CART = "src/cart/cart.ts";
export const CHECKOUT = "src/checkout/checkout.ts";
export const ORDERS = "src/orders/orders.ts";
export const ROUTES = "src/api/routes.ts";
export const FORMAT = "src/utils/format.ts";
export const ENGINE = "src/legacy/engine.ts";
export const PRICING_TEST = "tests/pricing.test.ts";
export const CART_TEST = "tests/cart.test.ts";
export const CHECKOUT_TEST = "tests/checkout.test.ts";

const SOURCES: Record<string, string> = {
  [ENGINE]: "export function runEngine(input: number): number {\n  return input * 2;\n}\n",
  [FORMAT]: "export function formatMoney(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n",
  [PRICE]: [
    'import { runEngine } from "../legacy/engine.js";',
    "export function priceOf(base: number, tier: string, qty: number): number {",
    "  let total = runEngine(base) * qty;",
    "  if (tier === 'gold') {",
    "    for (let i = 0; i < qty; i++) {",
    "      if (i > 10) {",
    "        if (total > 1000) {",
    "          total -= 5;",
    "        }",
    "      }",
    "    }",
    "  }",
    "  return total;",
    "}",
    "",
  ].join("\n"),
  [DISCOUNT]: "export function discountFor(total: number): number {\n  return total > 100 ? 10 : 0;\n}\n",
  [CART]: 'import { priceOf } from "../pricing/price.js";\nimport { runEngine } from "../legacy/engine.js";\nexport class Cart {\n  total(): number {\n    return priceOf(runEngine(1), "basic", 1);\n  }\n}\n',
  [CHECKOUT]: 'import { priceOf } from "../pricing/price.js";\nimport { Cart } from "../cart/cart.js";\nimport { runEngine } from "../legacy/engine.js";\nexport function checkout(cart: Cart): number {\n  return priceOf(cart.total(), "basic", runEngine(1));\n}\n',
  [ORDERS]: 'import { priceOf } from "../pricing/price.js";\nimport { runEngine } from "../legacy/engine.js";\nexport function orderTotal(): number {\n  return priceOf(runEngine(3), "gold", 2);\n}\n',
  [ROUTES]: 'import { checkout } from "../checkout/checkout.js";\nimport { orderTotal } from "../orders/orders.js";\nimport { formatMoney } from "../utils/format.js";\nimport { runEngine } from "../legacy/engine.js";\nexport function routes(): string[] {\n  return [formatMoney(orderTotal()), String(checkout), String(runEngine)];\n}\n',
  [PRICING_TEST]: 'import { priceOf } from "../src/pricing/price.js";\nexport const pricingCase = priceOf(1, "gold", 1);\n',
  [CART_TEST]: 'import { Cart } from "../src/cart/cart.js";\nexport const cartCase = new Cart();\n',
  [CHECKOUT_TEST]: 'import { checkout } from "../src/checkout/checkout.js";\nexport const checkoutCase = checkout;\n',
  "package.json": '{ "name": "shop", "version": "0.1.0", "type": "module" }\n',
};

export interface ShadowFixture {
  root: string;
  now: number;
  project: IndexedProject;
  ctx: TestToolContext;
  /** A scope whose clock is the fixture's `now`. */
  scope: ShadowScope;
  commit(author: string, daysAgo: number, subject: string, files: string[]): void;
  close(): Promise<void>;
}

/** Builds the repository and its history; `withSessions: false` leaves the agent events out. */
export async function buildShadowFixture(redisUrl: string, opts: { withSessions?: boolean; gitUser?: string } = {}): Promise<ShadowFixture> {
  const now = Date.now();
  const root = makeTempDir("ipuaro-shadow-");
  git(root, ["init", "--quiet", "--initial-branch=main"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  git(root, ["config", "user.name", opts.gitUser ?? "Alice"]);
  git(root, ["config", "user.email", `${(opts.gitUser ?? "Alice").toLowerCase()}@example.com`]);
  let n = 0;
  const commit = (author: string, daysAgo: number, subject: string, files: string[]) => {
    for (const f of files) {
      const abs = path.join(root, f);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      const before = fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : (SOURCES[f] ?? "export const generated = 1;\n");
      fs.writeFileSync(abs, f.endsWith(".json") ? before : `${before}// change ${++n}\n`);
    }
    git(root, ["add", "--all"]);
    git(root, ["commit", "--quiet", "-m", subject], { author, at: now - daysAgo * DAY });
  };
  writeTree(root, SOURCES);
  commit("Alice", 80, "initial", Object.keys(SOURCES));
  commit("Bob", 58, "pricing tiers", [PRICE, DISCOUNT]);
  commit("Alice", 50, "cart totals", [CART]);
  commit("Bob", 40, "pricing rounding", [PRICE, DISCOUNT]);
  commit("Bob", 35, "fix tests broken by rounding", [PRICE, PRICING_TEST]);
  commit("Carol", 20, "pricing currency", [PRICE, DISCOUNT, CHECKOUT]);
  commit("Bob", 12, "discount caps", [PRICE, DISCOUNT]);
  commit("Alice", 10, "fix: regression in price caps", [PRICE, PRICING_TEST]);
  commit("Carol", 5, "format helpers", [FORMAT]);
  const generated = (k: number) => Array.from({ length: 30 }, (_, i) => `gen/part-${k}-${i}.ts`);
  commit("Alice", 3, "bulk reformat", [PRICE, FORMAT, ...generated(1)]);
  commit("Alice", 2, "bulk reformat again", [PRICE, FORMAT, ...generated(2)]);

  const project = await openIndexedProject(root, redisUrl);
  await project.reindex();
  let clock = now;
  const scope = shadowScope(project.store, root, { now: () => clock });
  if (opts.withSessions !== false) {
    const events = createAnalyticsEvents(scope, { onError: (e) => { throw e; } });
    const at = async (t: number, fn: (e: AnalyticsEvents) => Promise<unknown>) => {
      clock = t;
      await fn(events);
    };
    await recordSessions(root, now, at);
    clock = now;
  }
  const ctx = toolContext(project);
  return {
    root,
    now,
    project,
    ctx,
    scope,
    commit,
    async close() {
      await project.close();
      removeDir(root);
    },
  };
}

const edit = (sessionId: string, file: string, added = 4, removed = 1) => ({
  sessionId,
  file,
  before: Array.from({ length: 10 + removed }, (_, i) => `line ${i}`),
  after: [...Array.from({ length: 10 }, (_, i) => `line ${i}`), ...Array.from({ length: added }, (_, i) => `new ${i}`)],
  tool: "edit_lines",
});

async function recordSessions(root: string, now: number, at: (t: number, fn: (e: AnalyticsEvents) => Promise<unknown>) => Promise<void>): Promise<void> {
  const failing = (file: string, name: string) => ({ name, file: path.join(root, file), line: 3, message: "expected 10 to be 12" });
  // S7: an edit of price taken back.
  const s7 = now - 13 * DAY;
  await at(s7, (e) => e.sessionStarted("S7"));
  await at(s7 + MINUTE, (e) => e.editApplied(edit("S7", PRICE)));
  await at(s7 + 3 * MINUTE, (e) => e.editReverted({ sessionId: "S7", file: PRICE, via: "undo" }));
  // S6: two price edits, each breaking the pricing test.
  const s6 = now - 9.5 * DAY;
  for (const k of [0, 1]) {
    await at(s6 + k * 45 * MINUTE, (e) => e.editApplied(edit("S6", PRICE)));
    await at(s6 + k * 45 * MINUTE + 5 * MINUTE, (e) => e.commandFailed({ sessionId: "S6", source: "run_tests", command: "npx vitest run", output: "", failures: [failing(PRICING_TEST, "pricing > gold tier")] }));
  }
  // S1: the story of a file that keeps breaking tests, and a human fixing the agent's edit.
  const s1 = now - 9 * DAY;
  await at(s1, (e) => e.sessionStarted("S1"));
  await at(s1 + MINUTE, (e) => e.editApplied(edit("S1", PRICE, 10, 2)));
  await at(s1 + 5 * MINUTE, (e) =>
    e.commandFailed({ sessionId: "S1", source: "run_tests", command: "npx vitest run", output: "", failures: [failing(PRICING_TEST, "pricing > rounds"), failing(CHECKOUT_TEST, "checkout > total")] }),
  );
  await at(s1 + 6 * MINUTE, (e) => e.turnFinished("S1", ["get_lines", "edit_lines", "run_tests"]));
  await at(s1 + 10 * MINUTE, (e) => e.editApplied(edit("S1", PRICE, 3, 3)));
  await at(s1 + 12 * MINUTE, (e) =>
    e.commandFailed({ sessionId: "S1", source: "run_command", command: "npx tsc --noEmit", output: `${PRICE}(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n` }),
  );
  await at(s1 + 13 * MINUTE, (e) => e.turnFinished("S1", ["edit_lines", "run_command"]));
  await at(s1 + 40 * MINUTE, (e) => e.externalChange({ file: PRICE, change: "updated" }));
  // S5: every edit of engine breaks something else.
  const s5 = now - 8 * DAY;
  const broken = [CART_TEST, CHECKOUT_TEST, CART, ORDERS, PRICING_TEST];
  for (const [k, file] of broken.entries()) {
    const t = s5 + k * 45 * MINUTE;
    await at(t, (e) => e.editApplied(edit("S5", ENGINE)));
    const output = file.endsWith(".test.ts") ? "" : `${file}:4:3 - error TS2554: Expected 1 arguments, but got 0.\n`;
    const failures = file.endsWith(".test.ts") ? [failing(file, `${file} case`)] : [];
    await at(t + 5 * MINUTE, (e) => e.commandFailed({ sessionId: "S5", source: failures.length ? "run_tests" : "run_command", command: "npm test", output, failures }));
  }
  await at(s5 + 4 * 45 * MINUTE + 6 * MINUTE, (e) => e.turnFinished("S5", ["edit_lines", "edit_lines", "run_tests"]));
  // S2 and S3: clean work.
  const s2 = now - 4 * DAY;
  await at(s2, (e) => e.sessionStarted("S2"));
  await at(s2 + 2 * MINUTE, (e) => e.editApplied(edit("S2", CART, 3, 1)));
  await at(s2 + 20 * MINUTE, (e) => e.turnFinished("S2", ["get_lines", "edit_lines", "run_tests"]));
  const s3 = now - 1 * DAY;
  await at(s3, (e) => e.sessionStarted("S3"));
  await at(s3 + 5 * MINUTE, (e) => e.editApplied(edit("S3", FORMAT, 2, 0)));
  await at(s3 + 15 * MINUTE, (e) => e.turnFinished("S3", ["edit_lines"]));
}
