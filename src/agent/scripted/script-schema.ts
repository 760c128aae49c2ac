import { z } from "zod";
import { ConfigError } from "../../core/errors.js";

/**
 * The scripted-model file format: a list of rules (or `{rules, middleware_replies}`), each
 * `{match?, when_tools?, turns, stream_delay_ms?, stream_tool_args?, hang?}`. The first rule whose `match` (a
 * case-insensitive regular expression) finds the latest user message, and whose `when_tools` are
 * all bound to the call, answers; a rule without `match` answers anything. The n-th model call after that message answers `turns[n]`; the last turn repeats.
 */

const toolCallSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Optional fixed id; by default ids derive from the conversation position. */
  id: z.string().min(1).optional(),
});

const turnSchema = z.strictObject({
  content: z.string().default(""),
  tool_calls: z.array(toolCallSchema).default([]),
  reasoning: z.string().optional(),
});

const ruleSchema = z
  .strictObject({
    match: z.string().optional(),
    /** The rule applies only when every named tool is bound (e.g. `write_todos` in Plan mode). */
    when_tools: z.array(z.string().min(1)).max(64).default([]),
    turns: z.array(turnSchema).default([]),
    stream_delay_ms: z.number().int().min(0).max(60_000).default(0),
    /** Tool-call arguments stream in pieces (as a provider streams them) instead of one chunk. */
    stream_tool_args: z.boolean().default(false),
    hang: z.boolean().default(false),
  })
  .superRefine((rule, ctx) => {
    if (!rule.hang && rule.turns.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["turns"],
        message: "a rule needs at least one turn (or hang: true)",
      });
    }
  });

const scriptDocumentSchema = z.strictObject({
  rules: z.array(ruleSchema),
  /** Answers for model calls made by middlewares, keyed by caller (`middleware:title`). */
  middleware_replies: z.record(z.string(), z.string()).default({}),
});

export type ScriptToolCall = z.output<typeof toolCallSchema>;
export type ScriptTurn = z.output<typeof turnSchema>;

export interface ScriptRule {
  /** Null: answers any message. */
  match: RegExp | null;
  /** Tools that must be bound for the rule to apply; empty: always. */
  whenTools: string[];
  turns: ScriptTurn[];
  streamDelayMs: number;
  streamToolArgs: boolean;
  hang: boolean;
}

/** A validated script, ready to answer. */
export interface Script {
  rules: ScriptRule[];
  middlewareReplies: Record<string, string>;
  /** Where it came from, for error messages. */
  source: string;
}

/** Validates a parsed script document; every problem is reported with its place in the file. */
export function parseScript(raw: unknown, source: string): Script {
  // A bare list is the usual form; choosing the schema up front keeps error paths precise.
  const parsed = scriptDocumentSchema.safeParse(Array.isArray(raw) ? { rules: raw } : raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${describePath(issue.path, Array.isArray(raw))}: ${issue.message}`)
      .join("; ");
    throw new ConfigError(
      `Invalid scripted-model script ${source}: ${problems}. A script is a list of rules ` +
        "{match?, when_tools?, turns: [{content?, tool_calls?: [{name, args}], reasoning?}], stream_delay_ms?, stream_tool_args?, hang?}.",
    );
  }
  const document = parsed.data;
  return {
    rules: document.rules.map((rule, index) => ({
      match: rule.match === undefined ? null : compileMatch(rule.match, index, source),
      whenTools: rule.when_tools,
      turns: rule.turns,
      streamDelayMs: rule.stream_delay_ms,
      streamToolArgs: rule.stream_tool_args,
      hang: rule.hang,
    })),
    middlewareReplies: document.middleware_replies,
    source,
  };
}

/** `rules.0.turns` reads as `0.turns` when the file is a bare list of rules. */
function describePath(path: readonly PropertyKey[], bareList: boolean): string {
  const shown = bareList && path[0] === "rules" ? path.slice(1) : path;
  return shown.map(String).join(".") || "(top level)";
}

function compileMatch(pattern: string, index: number, source: string): RegExp {
  try {
    return new RegExp(pattern, "i");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Invalid scripted-model script ${source}: rule ${index} match: ${why}`);
  }
}
