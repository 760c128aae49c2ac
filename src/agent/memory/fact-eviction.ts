import type { MemoryConfig } from "../../core/config/schema.js";
import type { MemoryFact } from "./memory-document.js";

/** What a user's facts may take: a count and, optionally, a token budget of their text. */
export interface FactBudget {
  maxFacts: number;
  /** ≈4 characters a token, over every fact's content; null = no budget. */
  tokenBudget?: number | null | undefined;
  /** A fact's freshness halves every this many days (default 90). */
  halfLifeDays?: number | undefined;
  now?: Date | undefined;
}

const CONFIDENCE_WEIGHT = 0.7;
const FRESHNESS_WEIGHT = 0.3;
const DEFAULT_HALF_LIFE_DAYS = 90;
const DAY_MS = 86_400_000;

/** The token estimate memory uses everywhere (no tokenizer download). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * How much a fact is worth keeping: 0.7 × confidence + 0.3 × freshness, where freshness is 1 for
 * a fact learned (or last changed) now and halves every `halfLifeDays`. A fact with no readable
 * date counts as old.
 */
export function retentionScore(fact: MemoryFact, now: Date, halfLifeDays: number): number {
  const at = Date.parse(fact.updatedAt ?? fact.createdAt);
  const ageDays = Number.isNaN(at)
    ? Number.POSITIVE_INFINITY
    : Math.max(0, now.getTime() - at) / DAY_MS;
  const freshness = 2 ** (-ageDays / halfLifeDays);
  return CONFIDENCE_WEIGHT * fact.confidence + FRESHNESS_WEIGHT * freshness;
}

/**
 * The facts kept within the budget, in their stored order. Facts go lowest retention score first
 * (older and less confident ones), the older first among equals, until both the count and the
 * token budget hold.
 */
export function evictFacts(facts: readonly MemoryFact[], budget: FactBudget): MemoryFact[] {
  const tokenBudget = budget.tokenBudget ?? Number.POSITIVE_INFINITY;
  let tokens = facts.reduce((sum, fact) => sum + estimateTokens(fact.content), 0);
  if (facts.length <= budget.maxFacts && tokens <= tokenBudget) return [...facts];
  const now = budget.now ?? new Date();
  const halfLife = budget.halfLifeDays ?? DEFAULT_HALF_LIFE_DAYS;
  const order = facts
    .map((fact) => ({ fact, score: retentionScore(fact, now, halfLife) }))
    .sort(
      (a, b) =>
        a.score - b.score ||
        dateOf(a.fact).localeCompare(dateOf(b.fact)) ||
        a.fact.id.localeCompare(b.fact.id),
    );
  const evicted = new Set<string>();
  let count = facts.length;
  for (const { fact } of order) {
    if (count <= budget.maxFacts && tokens <= tokenBudget) break;
    evicted.add(fact.id);
    count -= 1;
    tokens -= estimateTokens(fact.content);
  }
  return facts.filter((fact) => !evicted.has(fact.id));
}

function dateOf(fact: MemoryFact): string {
  return fact.updatedAt ?? fact.createdAt;
}

/** The budget `memory:` config sets. */
export function factBudgetOf(
  config: Pick<MemoryConfig, "max_facts" | "fact_token_budget" | "fact_half_life_days">,
): Omit<FactBudget, "now"> {
  return {
    maxFacts: config.max_facts,
    tokenBudget: config.fact_token_budget ?? null,
    halfLifeDays: config.fact_half_life_days,
  };
}
