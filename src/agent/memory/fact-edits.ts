import { randomUUID } from "node:crypto";
import { normalizeFact } from "./apply-memory-update.js";
import { evictFacts, type FactBudget } from "./fact-eviction.js";
import type { MemoryDocument, MemoryFact } from "./memory-document.js";

/**
 * Edits of single facts, shared by the memory tools and the memory API: pure functions from the
 * memory as read to the memory to store, so a compare-and-set retry can run them again.
 */

export interface NewFact {
  content: string;
  category: string;
  confidence: number;
  /** Where it was learned: a thread id, or `manual` for the API. */
  source: string;
}

export type AddedFact =
  | { outcome: "added"; memory: MemoryDocument; fact: MemoryFact }
  | { outcome: "duplicate"; existing: MemoryFact }
  /** The budget would evict the new fact itself: nothing stored. */
  | { outcome: "no_room" };

export function newFactId(): string {
  return `fact_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

export function addFact(
  memory: MemoryDocument,
  input: NewFact,
  budget: FactBudget,
  options: { id?: string; now: Date },
): AddedFact {
  const content = input.content.replace(/\s+/g, " ").trim();
  const key = normalizeFact(content);
  const existing = memory.facts.find((fact) => normalizeFact(fact.content) === key);
  if (existing) return { outcome: "duplicate", existing };
  const fact: MemoryFact = {
    id: options.id ?? newFactId(),
    content,
    category: input.category,
    confidence: input.confidence,
    createdAt: options.now.toISOString(),
    source: input.source,
  };
  const facts = evictFacts([...memory.facts, fact], { ...budget, now: options.now });
  if (!facts.includes(fact)) return { outcome: "no_room" };
  return { outcome: "added", memory: { ...memory, facts }, fact };
}

export interface FactPatch {
  content?: string | null | undefined;
  category?: string | null | undefined;
  confidence?: number | null | undefined;
}

export type PatchedFact =
  | { outcome: "updated"; memory: MemoryDocument; fact: MemoryFact }
  | { outcome: "not_found" }
  | { outcome: "duplicate"; existing: MemoryFact };

/** Changes the given fields of one fact (omitted ones kept) and stamps `updatedAt`. */
export function patchFact(
  memory: MemoryDocument,
  id: string,
  patch: FactPatch,
  now: Date,
): PatchedFact {
  const index = memory.facts.findIndex((fact) => fact.id === id);
  const current = memory.facts[index];
  if (current === undefined) return { outcome: "not_found" };
  const content = patch.content ? patch.content.replace(/\s+/g, " ").trim() : current.content;
  const key = normalizeFact(content);
  const clash = memory.facts.find((fact) => fact.id !== id && normalizeFact(fact.content) === key);
  if (clash) return { outcome: "duplicate", existing: clash };
  const fact: MemoryFact = {
    ...current,
    content,
    ...(patch.category ? { category: patch.category } : {}),
    ...(patch.confidence != null ? { confidence: patch.confidence } : {}),
    updatedAt: now.toISOString(),
  };
  return { outcome: "updated", memory: { ...memory, facts: memory.facts.with(index, fact) }, fact };
}

/** The memory without the fact, or null when it has no fact with that id. */
export function removeFact(memory: MemoryDocument, id: string): MemoryDocument | null {
  const facts = memory.facts.filter((fact) => fact.id !== id);
  return facts.length === memory.facts.length ? null : { ...memory, facts };
}
