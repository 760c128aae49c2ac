import { z } from "zod";
import { isPlainObject } from "../../core/config/env-expansion.js";
import {
  HISTORY_SECTIONS,
  type HistorySection,
  USER_SECTIONS,
  type UserSection,
} from "./memory-document.js";

/**
 * The update the memory model answers with, read defensively: an answer
 * that is not a JSON object of this shape is no update at all, and an individual malformed entry
 * is dropped without spoiling the rest. The write gate (apply-memory-update.ts) decides what of
 * it is stored.
 */

const label = z.string().trim().toLowerCase().optional().catch(undefined);

const summarySchema = z.object({
  summary: z.string().catch(""),
  shouldUpdate: z.boolean().catch(false),
  scope: label,
  authority: label,
});

const newFactSchema = z.object({
  content: z.string().trim().min(1),
  category: z.string().trim().toLowerCase().catch("context"),
  confidence: z.coerce.number().min(0).max(1),
  scope: label,
  durability: label,
  authority: label,
});

const removalSchema = z.object({ id: z.string().min(1), scope: label });

export type SummaryUpdate = z.output<typeof summarySchema>;
export type NewFact = z.output<typeof newFactSchema>;
export type FactRemoval = z.output<typeof removalSchema>;

export interface MemoryUpdate {
  user: Partial<Record<UserSection, SummaryUpdate>>;
  history: Partial<Record<HistorySection, SummaryUpdate>>;
  newFacts: NewFact[];
  factsToRemove: FactRemoval[];
}

const UPDATE_KEYS = ["user", "history", "newFacts", "factsToRemove"];

export function parseMemoryUpdate(answer: string): MemoryUpdate | null {
  const raw = extractJsonObject(answer);
  if (raw === null || !UPDATE_KEYS.some((key) => key in raw)) return null;
  return {
    user: sectionsOf(raw.user, USER_SECTIONS),
    history: sectionsOf(raw.history, HISTORY_SECTIONS),
    newFacts: itemsOf(raw.newFacts, newFactSchema),
    factsToRemove: itemsOf(raw.factsToRemove, removalSchema),
  };
}

/** The JSON object in a model answer, tolerating code fences and text around it. */
function extractJsonObject(answer: string): Record<string, unknown> | null {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start === -1 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(answer.slice(start, end + 1));
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

function sectionsOf<K extends string>(
  raw: unknown,
  keys: readonly K[],
): Partial<Record<K, SummaryUpdate>> {
  const sections: Partial<Record<K, SummaryUpdate>> = {};
  if (!isPlainObject(raw)) return sections;
  for (const key of keys) {
    const parsed = summarySchema.safeParse(raw[key]);
    if (parsed.success) sections[key] = parsed.data;
  }
  return sections;
}

function itemsOf<S extends z.ZodType>(raw: unknown, schema: S): z.output<S>[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
