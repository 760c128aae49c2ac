import { z } from "zod";
import { ASSISTANT_SORT_COLUMNS } from "../../ports/assistant-store.js";
import { idString, jsonFilter, jsonObject, MAX_PAGE } from "../http/json-schemas.js";
import { queryBool, queryInt } from "../http/query.js";
import { ASSISTANT_SELECT_FIELDS } from "./api-assistant.js";

/** Request bodies and queries of `/assistants…` (LangGraph's shapes, bounded). */

const graphId = z.string().min(1).max(128);
const name = z.string().max(256);
const description = z.string().max(10_000);

/** A RunnableConfig as an assistant keeps it: known keys checked, others kept as given. */
const assistantConfig = z.looseObject({
  tags: z.array(z.string().max(256)).max(100).optional(),
  recursion_limit: z.number().int().min(1).optional(),
  configurable: jsonObject.optional(),
});

export const assistantCreateBody = z.strictObject({
  assistant_id: idString.nullish(),
  graph_id: graphId,
  config: assistantConfig.nullish(),
  context: jsonObject.nullish(),
  metadata: jsonObject.nullish(),
  if_exists: z.enum(["raise", "do_nothing"]).nullish(),
  name: name.nullish(),
  description: description.nullish(),
});

export const assistantPatchBody = z.strictObject({
  graph_id: graphId.nullish(),
  config: assistantConfig.nullish(),
  context: jsonObject.nullish(),
  metadata: jsonObject.nullish(),
  name: name.nullish(),
  description: description.nullish(),
});

export const assistantSearchBody = z.strictObject({
  graph_id: graphId.nullish(),
  name: name.nullish(),
  metadata: jsonFilter.nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
  sort_by: z.enum(ASSISTANT_SORT_COLUMNS).nullish(),
  sort_order: z.enum(["asc", "desc"]).nullish(),
  select: z.array(z.enum(ASSISTANT_SELECT_FIELDS)).max(20).nullish(),
});

export const assistantCountBody = assistantSearchBody.pick({
  graph_id: true,
  name: true,
  metadata: true,
});

export const assistantVersionsBody = z.strictObject({
  metadata: jsonFilter.nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

export const assistantLatestBody = z.strictObject({ version: z.number().int().min(1) });

/** Path ids: a stored assistant's id, or a served graph id (the LangGraph graph-id alias). */
export const assistantIdParam = z.string().min(1).max(128);

/** A subgraph namespace (`parent|child`). */
export const namespaceParam = z.string().min(1).max(512);

export const deleteQuery = z.object({ delete_threads: queryBool.optional() });

/** `xray`: `true`/`false`, or a depth. */
export const graphQuery = z.object({
  xray: z.union([queryInt(0, 100), queryBool]).optional(),
});

export const subgraphsQuery = z.object({ recurse: queryBool.optional() });
