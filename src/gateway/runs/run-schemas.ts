import { z } from "zod";
import { MULTITASK_STRATEGIES } from "../../ports/run-types.js";
import { checkpointSelector, jsonObject } from "../http/json-schemas.js";

/**
 * The body of every run-creating route: each field the LangGraph SDK sends (see docs/API.md for
 * what each one does here); anything else is a 422.
 */

/**
 * API stream modes. `messages-tuple` runs the graph's `messages` mode (SSE event `messages`);
 * `messages` streams `messages/metadata`, `messages/partial` and `messages/complete`; `events`
 * streams LangChain's stream events (v2).
 */
export const API_STREAM_MODES = [
  "values",
  "messages",
  "messages-tuple",
  "updates",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "events",
] as const;
export type ApiStreamMode = (typeof API_STREAM_MODES)[number];

const streamMode = z.enum(API_STREAM_MODES, {
  error: () => `unknown stream mode; use one of ${API_STREAM_MODES.join(", ")}`,
});

const nodeList = z.union([z.literal("*"), z.array(z.string().min(1).max(128)).max(100)]);

const gotoEntry = z.union([
  z.string().min(1).max(128),
  z.strictObject({ node: z.string().min(1).max(128), input: z.unknown().optional() }),
]);

export const commandBody = z.strictObject({
  resume: z.unknown().optional(),
  goto: z.union([gotoEntry, z.array(gotoEntry).max(100)]).nullish(),
  update: z
    .union([jsonObject, z.array(z.tuple([z.string().max(256), z.unknown()])).max(1000)])
    .nullish(),
});

export const runConfigBody = z.looseObject({
  tags: z.array(z.string().max(256)).max(100).nullish(),
  recursion_limit: z.number().int().min(1).max(1_000_000).nullish(),
  configurable: jsonObject.nullish(),
  metadata: jsonObject.nullish(),
  run_name: z.string().max(256).nullish(),
});

/** An http(s) URL, or a path on this server (`/hooks/done`, resolved when the run is created). */
const webhookUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    if (value.startsWith("/") && !value.startsWith("//")) return true;
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL or a path starting with /");

export const runCreateBody = z.strictObject({
  assistant_id: z.string().min(1).max(128).nullish(),
  input: z.union([jsonObject, z.null()]).optional(),
  command: commandBody.nullish(),
  config: runConfigBody.nullish(),
  context: jsonObject.nullish(),
  metadata: jsonObject.nullish(),
  stream_mode: z.union([streamMode, z.array(streamMode).max(10)]).nullish(),
  stream_subgraphs: z.boolean().nullish(),
  stream_resumable: z.boolean().nullish(),
  feedback_keys: z.array(z.string().max(256)).max(100).nullish(),
  interrupt_before: nodeList.nullish(),
  interrupt_after: nodeList.nullish(),
  checkpoint: checkpointSelector.nullish(),
  checkpoint_id: z.string().min(1).max(128).nullish(),
  webhook: webhookUrl.nullish(),
  strict_resume: z.boolean().nullish(),
  multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
  on_completion: z.enum(["delete", "keep", "complete", "continue"]).nullish(),
  on_disconnect: z.enum(["cancel", "continue"]).nullish(),
  after_seconds: z.number().min(0).max(86_400).nullish(),
  if_not_exists: z.enum(["create", "reject"]).nullish(),
  checkpoint_during: z.boolean().nullish(),
  durability: z.enum(["sync", "async", "exit"]).nullish(),
  langsmith_tracer: jsonObject.nullish(),
});
export type RunCreateBody = z.output<typeof runCreateBody>;
