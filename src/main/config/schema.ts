// The one source of truth for ipuaro's configuration. Every layer (default, user, project, env) is
// validated against it; unknown keys are errors so typos are caught instead of silently ignored.
import { z } from "zod";
import { IpuaroError } from "../errors.js";
import { normalizeOllamaHost } from "../llm/ollama-host.js";
import { resolveRedisTarget } from "../store/redis-target.js";

/** A check that throws our error, as a zod refinement: its message (and fix) lands under the key. */
function checkedBy(check: (value: string) => unknown) {
  return (value: string | null, ctx: z.RefinementCtx) => {
    if (value === null) return;
    try {
      check(value);
    } catch (err) {
      const e = err instanceof IpuaroError ? err : null;
      ctx.addIssue({ code: "custom", message: e ? `${e.message}${e.suggestion ? `. ${e.suggestion}` : ""}` : String(err) });
    }
  };
}

const redis = z
  .object({
    url: z
      .string()
      .min(1)
      .nullable()
      .superRefine(checkedBy((url) => resolveRedisTarget({ url })))
      .describe("redis://, rediss://, unix:///path or a socket path; null = ipuaro's own redis-server"),
    host: z.string().min(1).describe("Host when no url is given and the managed server is not used"),
    port: z.number().int().min(0).max(65535).describe("Port for host"),
    db: z.number().int().min(0).max(15).describe("Logical database"),
  })
  .strict();

const llm = z
  .object({
    provider: z.literal("ollama").describe("Model provider"),
    // The same forms OLLAMA_HOST takes (host:port, :port, a URL); the client normalises it.
    host: z.string().min(1).superRefine(checkedBy(normalizeOllamaHost)).describe("Ollama base URL or host:port (OLLAMA_HOST overrides)"),
    model: z.string().min(1).describe("Model name as Ollama knows it"),
    contextWindow: z.number().int().min(512).describe("num_ctx sent with every request"),
    temperature: z.number().min(0).max(2).describe("Sampling temperature"),
    // The system prompt is English (answers follow the user's language); no other is written.
    systemPromptLanguage: z.literal("en", { error: 'only "en": the system prompt is written in English, and the model answers in the language of your message' }).describe("Language of the system prompt"),
    toolFormat: z.enum(["xml", "json"]).describe("How tool calls are taught to the model"),
    autoRetry: z.boolean().describe("Retry failed requests without asking"),
    // Every request goes to the model (its answers depend on the files as they are now).
    cache: z.literal(false, { error: "answers are not cached (each request goes to the model, against the files as they are now); leave it false" }).describe("Cache model answers (not supported)"),
  })
  .strict();

const project = z
  .object({
    scope: z.enum(["repository", "directory"]).describe("What the project root is"),
    ignorePatterns: z.array(z.string()).describe("gitignore-style patterns never indexed"),
    binaryExtensions: z.array(z.string().regex(/^\./, "must start with a dot")).describe("Extensions stored as metadata only"),
  })
  .strict();

const session = z
  .object({
    persistIndefinitely: z.boolean(),
    maxHistoryMessages: z.number().int().min(1),
    saveInputHistory: z.boolean(),
  })
  .strict();

const context = z
  .object({
    systemPromptTokens: z.number().int().min(0),
    projectBudgetTokens: z.number().int().min(500).describe("Token budget of the project outline in the initial context"),
    maxContextUsage: z.number().gt(0).max(1),
    autoCompressAt: z.number().gt(0).max(1).nullable().describe("Fill ratio that triggers compression; null = off"),
    compressionMethod: z.enum(["llm-summary", "truncate"]),
  })
  .strict();

const edit = z
  .object({
    alwaysConfirm: z.boolean(),
    autoApply: z.boolean(),
    showDiff: z.boolean(),
    diffFormat: z.enum(["inline-highlights", "unified"]),
    syntaxHighlight: z.boolean(),
    showDescription: z.boolean(),
    wrapLongLines: z.boolean(),
  })
  .strict();

const display = z
  .object({
    showStats: z.boolean(),
    showToolCalls: z.boolean(),
    theme: z.enum(["dark", "light"]),
    bellOnComplete: z.boolean(),
    progressBar: z.boolean(),
  })
  .strict();

export const ConfigSchema = z
  .object({
    $schema: z.string().optional(),
    redis,
    llm,
    project,
    session,
    context,
    watchdog: z.object({ debounceMs: z.number().int().min(0).max(60_000) }).strict(),
    commands: z.object({ timeout: z.number().int().positive().nullable().describe("ms; null = no timeout") }).strict(),
    undo: z.object({ stackSize: z.number().int().min(1).max(1000) }).strict(),
    edit,
    display,
    autocomplete: z.object({ source: z.enum(["redis-index"]) }).strict(),
    input: z.object({ multiline: z.enum(["auto", "always", "never"]) }).strict(),
    limits: z
      .object({
        maxFilesWarning: z.number().int().min(1),
        encoding: z.literal("utf-8"),
      })
      .strict(),
    agent: z
      .object({
        maxToolRounds: z.number().int().min(1).max(500).describe("Consecutive tool rounds in one turn before the turn is stopped"),
      })
      .strict(),
    indexing: z
      .object({
        workers: z.number().int().min(1).max(64).nullable().describe("Worker threads; null = number of cores"),
      })
      .strict(),
    checkpoints: z
      .object({
        mode: z
          .enum(["tools", "shadow-git"])
          .describe('"tools": back up files ipuaro edits and files commands change; "shadow-git": also snapshot every file per turn in a git dir of ipuaro\'s own (falls back to tools above 20,000 files or 3 s per snapshot)'),
        maxFileBytes: z.number().int().min(1).describe("Files larger than this are not backed up (a rewind reports them as not restorable)"),
        keep: z.number().int().min(1).max(10_000).describe("Checkpoints kept per session; older user messages can only be rewound in the conversation"),
      })
      .strict()
      .describe("Checkpoints per user turn, for rewinding the code and the conversation"),
    ui: z
      .object({
        restoreOnCancel: z.boolean().describe("Esc during a turn that has produced nothing yet cancels it and puts the message back in the input"),
      })
      .strict()
      .describe("Interactive behaviour of the TUI"),
  })
  .strict();

export type IpuaroConfig = z.infer<typeof ConfigSchema>;

export const BlacklistSchema = z.object({ commands: z.array(z.string().min(1)) }).strict();
export const WhitelistSchema = z
  .object({ default: z.array(z.string().min(1)), user: z.array(z.string().min(1)), askForUnknown: z.boolean() })
  .strict();
export type Blacklist = z.infer<typeof BlacklistSchema>;
export type Whitelist = z.infer<typeof WhitelistSchema>;
