import { describe, expect, it } from "vitest";
import { estimateTokens, evictFacts, retentionScore } from "./fact-eviction.js";
import type { MemoryFact } from "./memory-document.js";

const NOW = new Date("2026-06-01T00:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

function fact(id: string, confidence: number, ageDays: number, content = id): MemoryFact {
  return {
    id,
    content,
    category: "context",
    confidence,
    createdAt: daysAgo(ageDays),
    source: "t",
  };
}

describe("fact eviction", () => {
  it("keeps everything within the budget, in stored order", () => {
    const facts = [fact("a", 0.1, 900), fact("b", 0.9, 0)];
    expect(evictFacts(facts, { maxFacts: 2, now: NOW })).toEqual(facts);
  });

  it("evicts the less confident first among facts of one age", () => {
    const kept = evictFacts([fact("a", 0.9, 1), fact("b", 0.5, 1), fact("c", 0.8, 1)], {
      maxFacts: 2,
      now: NOW,
    });
    expect(kept.map((f) => f.id)).toEqual(["a", "c"]);
  });

  it("evicts the older first at one confidence, and an old fact loses to a fresh, less sure one", () => {
    const sameConfidence = evictFacts([fact("old", 0.8, 400), fact("new", 0.8, 2)], {
      maxFacts: 1,
      now: NOW,
    });
    expect(sameConfidence.map((f) => f.id)).toEqual(["new"]);
    // A year-old 0.9 (0.63 + 0.3·0.06) scores below a fresh 0.8 (0.56 + 0.3).
    const mixed = evictFacts([fact("stale", 0.9, 365), fact("fresh", 0.8, 0)], {
      maxFacts: 1,
      now: NOW,
    });
    expect(mixed.map((f) => f.id)).toEqual(["fresh"]);
  });

  it("counts age from the last edit, and an undated fact as old", () => {
    const edited = { ...fact("edited", 0.8, 400), updatedAt: daysAgo(0) };
    const undated = { ...fact("undated", 0.8, 0), createdAt: "" };
    expect(retentionScore(edited, NOW, 90)).toBeCloseTo(0.86);
    expect(retentionScore(undated, NOW, 90)).toBeCloseTo(0.56);
    expect(evictFacts([undated, edited], { maxFacts: 1, now: NOW }).map((f) => f.id)).toEqual([
      "edited",
    ]);
  });

  it("also holds a token budget over the facts' text", () => {
    const long = fact("long", 0.6, 0, "x".repeat(400));
    const short = fact("short", 0.9, 0, "y".repeat(40));
    expect(estimateTokens(long.content)).toBe(100);
    const kept = evictFacts([long, short], { maxFacts: 10, tokenBudget: 50, now: NOW });
    expect(kept.map((f) => f.id)).toEqual(["short"]);
  });
});
