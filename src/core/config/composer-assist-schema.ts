import { z } from "zod";

/** The most follow-up suggestions one request may ask for (the reference's limit). */
export const MAX_SUGGESTIONS_LIMIT = 5;

/**
 * `suggestions:` — follow-up questions offered after an answer (`POST /threads/{id}/suggestions`),
 * read by the reference's UI through `GET /suggestions/config`. Defaults as in the reference.
 */
export const suggestionsConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    max_suggestions: z.number().int().min(1).max(MAX_SUGGESTIONS_LIMIT).default(3),
    /** The model asked; null: the request's `model_name`, else the default model. */
    model_name: z.string().min(1).nullable().default(null),
  })
  .prefault({});

/**
 * `input_polish:` — the composer's "polish my draft" (`POST /input-polish`): one model call that
 * rewrites the draft, never a run. Defaults as in the reference.
 */
export const inputPolishConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** Longest draft accepted, in characters (after trimming). */
    max_chars: z.number().int().min(1).max(100_000).default(4000),
    /** A fast, inexpensive model is best; null: the default model. */
    model_name: z.string().min(1).nullable().default(null),
  })
  .prefault({});

export type SuggestionsConfig = z.output<typeof suggestionsConfigSchema>;
export type InputPolishConfig = z.output<typeof inputPolishConfigSchema>;
