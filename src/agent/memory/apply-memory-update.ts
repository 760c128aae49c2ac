import { randomUUID } from "node:crypto";
import { evictFacts } from "./fact-eviction.js";
import {
  FACT_CATEGORIES,
  FACT_CONTENT_MAX_CHARS,
  type FactCategory,
  HISTORY_SECTIONS,
  type MemoryDocument,
  type MemorySection,
  USER_SECTIONS,
} from "./memory-document.js";
import type { MemoryUpdate, SummaryUpdate } from "./parse-memory-update.js";

export interface MemoryWriteRules {
  /** Facts kept at most; the lowest retention score (old, unsure) go first (fact-eviction.ts). */
  maxFacts: number;
  /** Token budget of all facts' text (≈4 characters a token); null = none. */
  factTokenBudget?: number | null | undefined;
  factHalfLifeDays?: number | undefined;
  /** New facts below this confidence are not stored. */
  factConfidenceThreshold: number;
}

export interface MemoryUpdateContext {
  /** Where the facts were learned. */
  threadId: string;
  now: Date;
  newFactId?: () => string;
}

export interface AppliedMemoryUpdate {
  memory: MemoryDocument;
  summaries: string[];
  added: number;
  removed: number;
  /** New facts the write gate refused (scope, durability, authority, confidence, duplicates). */
  rejected: number;
}

/**
 * The write gate and merge of one update. Summaries are replaced only when the
 * model says so, with text, and not marked as thread/project-scoped or transactional. A new fact
 * is stored only when labelled user-scoped, durable and descriptive, at or above the confidence
 * threshold, and not a whitespace/case-insensitive duplicate. Removals name existing ids. Returns
 * null when nothing changes, so the caller writes nothing.
 */
export function applyMemoryUpdate(
  current: MemoryDocument,
  update: MemoryUpdate,
  rules: MemoryWriteRules,
  context: MemoryUpdateContext,
): AppliedMemoryUpdate | null {
  const at = context.now.toISOString();
  const summaries: string[] = [];
  const user = { ...current.user };
  for (const key of USER_SECTIONS) {
    const next = acceptedSummary(update.user[key], at);
    if (next) {
      user[key] = next;
      summaries.push(`user.${key}`);
    }
  }
  const history = { ...current.history };
  for (const key of HISTORY_SECTIONS) {
    const next = acceptedSummary(update.history[key], at);
    if (next) {
      history[key] = next;
      summaries.push(`history.${key}`);
    }
  }

  const removals = new Set(
    update.factsToRemove
      .filter((removal) => removal.scope === undefined || removal.scope === "user")
      .map((removal) => removal.id),
  );
  let facts = current.facts.filter((fact) => !removals.has(fact.id));
  const removed = current.facts.length - facts.length;

  const seen = new Set(facts.map((fact) => normalizeFact(fact.content)));
  const newId =
    context.newFactId ?? (() => `fact_${randomUUID().replaceAll("-", "").slice(0, 12)}`);
  let added = 0;
  let rejected = 0;
  for (const candidate of update.newFacts) {
    const key = normalizeFact(candidate.content);
    const eligible =
      candidate.scope === "user" &&
      candidate.durability === "durable" &&
      candidate.authority === "descriptive" &&
      candidate.confidence >= rules.factConfidenceThreshold &&
      candidate.content.length <= FACT_CONTENT_MAX_CHARS &&
      !seen.has(key);
    if (!eligible) {
      rejected += 1;
      continue;
    }
    seen.add(key);
    facts.push({
      id: newId(),
      content: candidate.content.replace(/\s+/g, " ").trim(),
      category: categoryOf(candidate.category),
      confidence: candidate.confidence,
      createdAt: at,
      source: context.threadId,
    });
    added += 1;
  }
  facts = evictFacts(facts, {
    maxFacts: rules.maxFacts,
    tokenBudget: rules.factTokenBudget,
    halfLifeDays: rules.factHalfLifeDays,
    now: context.now,
  });

  if (summaries.length === 0 && added === 0 && removed === 0) return null;
  return { memory: { ...current, user, history, facts }, summaries, added, removed, rejected };
}

function acceptedSummary(update: SummaryUpdate | undefined, at: string): MemorySection | null {
  if (!update?.shouldUpdate) return null;
  const summary = update.summary.trim();
  if (summary === "") return null;
  if (update.scope !== undefined && update.scope !== "user") return null;
  if (update.authority !== undefined && update.authority !== "descriptive") return null;
  return { summary, updatedAt: at };
}

export function normalizeFact(content: string): string {
  return content.replace(/\s+/g, " ").trim().toLowerCase();
}

function categoryOf(raw: string): FactCategory {
  return FACT_CATEGORIES.find((category) => category === raw) ?? "context";
}
