import { z } from "zod";

/**
 * What Fawn remembers about one user, as kept in the document store (collection `memory`) and answered by
 * `GET /api/memory`: summaries of the user and of their history, and a list of short facts. The
 * field names follow the reference's memory API (camelCase) so its UI reads them unchanged.
 */

export const USER_SECTIONS = ["workContext", "personalContext", "topOfMind"] as const;
export const HISTORY_SECTIONS = ["recentMonths", "earlierContext", "longTermBackground"] as const;
export type UserSection = (typeof USER_SECTIONS)[number];
export type HistorySection = (typeof HISTORY_SECTIONS)[number];

export const FACT_CATEGORIES = [
  "preference",
  "knowledge",
  "context",
  "behavior",
  "goal",
  "correction",
] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/**
 * What a category may look like: the known ones above, or a label a person typed in the reference
 * UI ("hobby"). Kept plain, since it goes into the prompt beside the fact.
 */
export const FACT_CATEGORY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$/;

/** Longest fact kept (characters); a longer one is not a short fact. */
export const FACT_CONTENT_MAX_CHARS = 2_000;

const sectionSchema = z.object({
  summary: z.string().default(""),
  updatedAt: z.string().default(""),
});

const factSchema = z.object({
  id: z.string().min(1),
  content: z.string().min(1),
  category: z.string().regex(FACT_CATEGORY_PATTERN).catch("context"),
  confidence: z.number().min(0).max(1).catch(0.5),
  createdAt: z.string().default(""),
  /** The thread the fact was learned in. */
  source: z.string().default("unknown"),
  /** When the fact was last changed by hand (edit), if ever; eviction counts age from it. */
  updatedAt: z.string().optional(),
});

export const memoryDocumentSchema = z.object({
  version: z.literal("1.0").default("1.0"),
  revision: z.number().int().min(0).default(0),
  lastUpdated: z.string().default(""),
  user: z.object({
    workContext: sectionSchema.prefault({}),
    personalContext: sectionSchema.prefault({}),
    topOfMind: sectionSchema.prefault({}),
  }),
  history: z.object({
    recentMonths: sectionSchema.prefault({}),
    earlierContext: sectionSchema.prefault({}),
    longTermBackground: sectionSchema.prefault({}),
  }),
  facts: z.array(factSchema).default([]),
});

export type MemorySection = z.output<typeof sectionSchema>;
export type MemoryFact = z.output<typeof factSchema>;
export type MemoryDocument = z.output<typeof memoryDocumentSchema>;

export function emptyMemory(): MemoryDocument {
  return memoryDocumentSchema.parse({ user: {}, history: {} });
}

/** True when there is nothing to show or inject. */
export function isEmptyMemory(memory: MemoryDocument): boolean {
  const sections = [
    ...USER_SECTIONS.map((key) => memory.user[key]),
    ...HISTORY_SECTIONS.map((key) => memory.history[key]),
  ];
  return memory.facts.length === 0 && sections.every((section) => section.summary.trim() === "");
}
