import { z } from "zod";
import { isValidId } from "../../core/ids.js";

/** Building blocks shared by the request schemas. */

export const jsonObject = z.record(z.string().max(256), z.unknown());

/**
 * Most keys in one search filter (`metadata`, `values`): each key is a condition the store
 * evaluates per candidate row, so the count is what bounds a search's cost.
 */
export const MAX_FILTER_KEYS = 32;

/** A `{key: value}` equality filter of at most `MAX_FILTER_KEYS` keys. */
export const jsonFilter = jsonObject.refine(
  (filter) => Object.keys(filter).length <= MAX_FILTER_KEYS,
  {
    message: `a filter has at most ${MAX_FILTER_KEYS} keys (limit ${MAX_FILTER_KEYS})`,
  },
);

export const idString = z
  .string()
  .refine(isValidId, 'must be a UUID or 1-64 characters of letters, digits, "_" or "-"');

/** Sizes that keep one request from costing unbounded work. */
export const MAX_PAGE = 1000;

export const checkpointSelector = z.strictObject({
  thread_id: idString.nullish(),
  checkpoint_id: z.string().min(1).max(128).nullish(),
  checkpoint_ns: z.string().max(512).nullish(),
  checkpoint_map: jsonObject.nullish(),
});
export type CheckpointSelectorBody = z.output<typeof checkpointSelector>;
