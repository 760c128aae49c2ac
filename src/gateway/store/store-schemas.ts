import { z } from "zod";
import { jsonFilter, jsonObject, MAX_PAGE } from "../http/json-schemas.js";
import { queryBool } from "../http/query.js";

/**
 * Request shapes of `/store/*`: every field the LangGraph SDK's store client sends. The store
 * checks labels (non-empty, no "."), depth and key size; these bound the rest.
 */

/** Labels per namespace, as the store bounds them; each label's length. */
const MAX_LABELS = 32;
const MAX_LABEL_CHARS = 256;
/** Serialized bytes of one stored value. */
export const MAX_STORE_VALUE_BYTES = 1024 * 1024;
/** Items skipped before a page; bounds the rows one search reads. */
const MAX_OFFSET = 100_000;

const label = z
  .string()
  .min(1, "namespace labels cannot be empty")
  .max(MAX_LABEL_CHARS)
  .refine((text) => !text.includes("."), "namespace labels cannot contain periods ('.')");
const namespace = z.array(label).max(MAX_LABELS);
const key = z.string().max(1000);
const limit = z.number().int().min(0).max(MAX_PAGE);
const offset = z.number().int().min(0).max(MAX_OFFSET);

export const putItemBody = z.strictObject({
  namespace,
  key,
  value: jsonObject.refine(
    (value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_STORE_VALUE_BYTES,
    `a stored value is at most ${MAX_STORE_VALUE_BYTES} bytes of JSON`,
  ),
  /** Accepted for parity; no vector index is configured, so nothing is embedded. */
  index: z.union([z.literal(false), z.array(z.string().max(256)).max(64)]).nullish(),
  /** Minutes until the item expires; null or absent: never. */
  ttl: z.number().positive().max(1e9).nullish(),
});

export const deleteItemBody = z.strictObject({
  namespace: namespace.nullish(),
  key,
});

/** `GET /store/items?namespace=a.b&key=k`: the SDK joins the labels with "." (none holds one). */
export const getItemQuery = z.object({
  namespace: z
    .string()
    .max(MAX_LABELS * (MAX_LABEL_CHARS + 1))
    .optional()
    .transform((text) => (text === undefined || text === "" ? [] : text.split("."))),
  key,
  refresh_ttl: queryBool.optional(),
});

export const searchItemsBody = z.strictObject({
  namespace_prefix: namespace,
  filter: jsonFilter.nullish(),
  limit: limit.nullish(),
  offset: offset.nullish(),
  /** Accepted; without a vector index it ranks nothing (a plain filtered search). */
  query: z.string().max(4000).nullish(),
  refresh_ttl: z.boolean().nullish(),
});

export const listNamespacesBody = z.strictObject({
  prefix: namespace.nullish(),
  suffix: namespace.nullish(),
  max_depth: z.number().int().min(1).max(MAX_LABELS).nullish(),
  limit: limit.nullish(),
  offset: offset.nullish(),
});
