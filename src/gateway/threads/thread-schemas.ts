import { z } from "zod";
import { THREAD_STATUSES } from "../../ports/thread-store.js";
import {
  checkpointSelector,
  idString,
  jsonFilter,
  jsonObject,
  MAX_PAGE,
} from "../http/json-schemas.js";
import { commandBody } from "../runs/run-schemas.js";

/** Request bodies of the thread routes: every field the LangGraph SDK sends, nothing else. */

const ttl = z.union([
  z.number().min(0),
  z.strictObject({ ttl: z.number().min(0).nullish(), strategy: z.string().max(32).nullish() }),
]);

/** One superstep of a thread built from updates: applied together, one checkpoint. */
const superstep = z.strictObject({
  updates: z
    .array(
      z.strictObject({
        values: jsonObject.nullish(),
        command: commandBody.nullish(),
        as_node: z.string().min(1).max(128).nullish(),
      }),
    )
    .min(1)
    .max(100),
});
export type ThreadCreateSuperstep = z.output<typeof superstep>;

export const threadCreateBody = z.strictObject({
  thread_id: idString.nullish(),
  metadata: jsonObject.nullish(),
  if_exists: z.enum(["raise", "do_nothing"]).nullish(),
  assistant_id: z.string().max(128).nullish(),
  graph_id: z.string().max(128).nullish(),
  supersteps: z.array(superstep).max(100).nullish(),
  ttl: ttl.nullish(),
});

export const threadPatchBody = z.strictObject({
  metadata: jsonObject.nullish(),
  ttl: ttl.nullish(),
});

export const THREAD_SORT_FIELDS = [
  "thread_id",
  "status",
  "created_at",
  "updated_at",
  "state_updated_at",
] as const;

export const THREAD_SELECT_FIELDS = [
  "thread_id",
  "created_at",
  "updated_at",
  "state_updated_at",
  "metadata",
  "config",
  "context",
  "status",
  "values",
  "interrupts",
  "error",
] as const;

export const threadSearchBody = z.strictObject({
  metadata: jsonFilter.nullish(),
  ids: z.array(idString).max(MAX_PAGE).nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
  status: z.enum(THREAD_STATUSES).nullish(),
  sort_by: z.enum(THREAD_SORT_FIELDS).nullish(),
  sort_order: z.enum(["asc", "desc"]).nullish(),
  select: z.array(z.enum(THREAD_SELECT_FIELDS)).max(20).nullish(),
  values: jsonFilter.nullish(),
  extract: jsonObject.nullish(),
});
export type ThreadSearchBody = z.output<typeof threadSearchBody>;

export const threadCountBody = z.strictObject({
  metadata: jsonFilter.nullish(),
  values: jsonFilter.nullish(),
  status: z.enum(THREAD_STATUSES).nullish(),
});

const stateSelectFields = z.array(z.string().max(128)).max(20);

export const stateUpdateBody = z.strictObject({
  values: z.union([jsonObject, z.array(jsonObject).max(100)]).nullish(),
  checkpoint: checkpointSelector.nullish(),
  checkpoint_id: z.string().min(1).max(128).nullish(),
  as_node: z.string().min(1).max(128).nullish(),
});

export const stateAtCheckpointBody = z.strictObject({
  checkpoint: checkpointSelector,
  subgraphs: z.boolean().nullish(),
  select: stateSelectFields.nullish(),
});

/** `before` is a checkpoint id (reference) or a LangGraph config object (SDK). */
export const historyBody = z.strictObject({
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  before: z
    .union([
      z.string().min(1).max(128),
      z.looseObject({ configurable: z.looseObject({ checkpoint_id: z.string().min(1).max(128) }) }),
    ])
    .nullish(),
  metadata: jsonFilter.nullish(),
  checkpoint: checkpointSelector.nullish(),
  select: stateSelectFields.nullish(),
});
