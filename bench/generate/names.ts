// Vocabulary for identifiers, paths and prose in the generated monorepo.

export const NOUNS = [
  "account", "address", "alert", "asset", "audit", "balance", "batch", "billing", "booking", "bucket",
  "budget", "campaign", "cart", "catalog", "channel", "checkout", "claim", "cluster", "comment", "contract",
  "coupon", "credit", "customer", "dashboard", "dataset", "deal", "delivery", "device", "discount", "document",
  "draft", "entry", "estimate", "feed", "filter", "folder", "forecast", "gateway", "grant", "inventory",
  "invoice", "job", "journal", "label", "ledger", "lead", "license", "listing", "member", "message",
  "metric", "note", "offer", "order", "owner", "package", "page", "partner", "payment", "payout",
  "period", "permission", "pipeline", "plan", "policy", "portfolio", "post", "price", "product", "profile",
  "project", "quota", "quote", "receipt", "record", "refund", "region", "release", "report", "request",
  "reservation", "review", "role", "route", "rule", "schedule", "segment", "session", "shipment", "sku",
  "snapshot", "source", "stock", "subscription", "supplier", "survey", "tag", "task", "team", "template",
  "tenant", "thread", "ticket", "token", "transfer", "trip", "upload", "usage", "user", "vendor",
  "version", "voucher", "warehouse", "webhook", "widget", "workflow", "workspace", "zone",
] as const;

export const QUALIFIERS = [
  "active", "archived", "batch", "cached", "daily", "default", "draft", "external", "global", "incoming",
  "internal", "legacy", "live", "local", "monthly", "outgoing", "partial", "pending", "primary", "public",
  "queued", "recent", "remote", "scheduled", "shared", "signed", "stale", "synced", "trusted", "weekly",
] as const;

export const VERBS = [
  "apply", "archive", "assign", "build", "calculate", "cancel", "check", "collect", "compute", "convert",
  "create", "decode", "delete", "detect", "dispatch", "emit", "encode", "ensure", "estimate", "export",
  "extract", "fetch", "filter", "find", "flush", "format", "group", "import", "index", "list",
  "load", "lookup", "map", "match", "merge", "normalize", "parse", "patch", "prepare", "publish",
  "read", "reconcile", "refresh", "register", "release", "remove", "render", "reset", "resolve", "restore",
  "retry", "save", "schedule", "select", "serialize", "sort", "split", "submit", "summarize", "sync",
  "track", "transform", "update", "upsert", "validate", "verify", "write",
] as const;

export const SERVICE_SUFFIXES = [
  "Service", "Manager", "Store", "Client", "Adapter", "Provider", "Builder", "Resolver", "Handler",
  "Processor", "Registry", "Gateway", "Mapper", "Serializer", "Scheduler", "Tracker", "Coordinator", "Cache",
] as const;

export const FIELD_NAMES = [
  "id", "name", "title", "status", "createdAt", "updatedAt", "ownerId", "amount", "currency", "count",
  "priority", "tags", "description", "enabled", "version", "region", "email", "score", "limit", "expiresAt",
  "parentId", "position", "locale", "slug", "checksum", "weight", "notes", "source", "retries", "timeoutMs",
] as const;

export const STATUS_VALUES = [
  "pending", "active", "paused", "failed", "completed", "cancelled", "archived", "draft", "expired", "queued",
] as const;

export const PROSE = [
  "Keeps the hot path allocation-free; callers reuse the returned objects.",
  "Mirrors the shape returned by the upstream API, so keep field names stable.",
  "Values are normalised before they reach persistence.",
  "Used by both the HTTP layer and background jobs.",
  "The order of checks matters: cheap ones first.",
  "Retries are bounded; see the options for the limit.",
  "This stays synchronous on purpose: it runs inside a tight loop.",
  "Kept small so it can be tree-shaken from the client bundle.",
  "Timestamps are UTC milliseconds throughout.",
  "Callers own the lifecycle; nothing here holds global state.",
] as const;

export const TODO_NOTES = [
  "TODO: move this to the shared config once the migration lands",
  "TODO(perf): cache the lookup per request",
  "FIXME: this breaks when the list is empty on first load",
  "TODO: remove after all tenants migrate to v2",
  "FIXME: race with the background refresh, see incident 2231",
  "HACK: the upstream API returns strings for numbers here",
  "TODO: handle pagination properly",
] as const;

/** Non-ASCII strings appear in real code (messages, tests); the indexer must keep offsets right. */
export const INTL_STRINGS = [
  "Не удалось загрузить данные",
  "Заказ успешно создан",
  "Проверьте правильность ввода",
  "加载失败，请稍后重试",
  "订单已创建",
  "データを保存しました",
  "Überprüfen Sie Ihre Eingabe",
  "Ça marche très bien — merci",
  "Готово ✓",
  "保存 🚀",
] as const;

export function pascal(words: readonly string[]): string {
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
}

export function camel(words: readonly string[]): string {
  const joined = pascal(words);
  return joined.charAt(0).toLowerCase() + joined.slice(1);
}

export function kebab(words: readonly string[]): string {
  return words.map((word) => word.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()).join("-");
}

export function constantCase(words: readonly string[]): string {
  return kebab(words).replace(/-/g, "_").toUpperCase();
}

/** Hands out names once. Exported names are unique repo-wide so barrels can `export *` without clashes. */
export class NameRegistry {
  readonly #taken = new Set<string>();

  claim(candidate: string): string {
    let name = candidate;
    for (let n = 2; this.#taken.has(name); n++) name = `${candidate}${n}`;
    this.#taken.add(name);
    return name;
  }

  has(name: string): boolean {
    return this.#taken.has(name);
  }
}
