import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { threadScopeOf } from "../tools/thread-scope.js";
import { normalizeFact } from "./apply-memory-update.js";
import { addFact, newFactId as defaultFactId, patchFact, removeFact } from "./fact-edits.js";
import type { FactBudget } from "./fact-eviction.js";
import { FACT_CATEGORIES, type MemoryFact } from "./memory-document.js";
import type { MemoryStore } from "./memory-store.js";

export interface MemoryToolsOptions {
  store: MemoryStore;
  /** What the facts may take; adding beyond it evicts the lowest retention score first. */
  budget: Omit<FactBudget, "now">;
  now?: () => Date;
  newFactId?: () => string;
}

const DEFAULT_SEARCH_LIMIT = 10;
const MAX_SEARCH_LIMIT = 50;
const MAX_FACT_CHARS = 1_000;

const factContent = z
  .string()
  .trim()
  .min(1)
  .max(MAX_FACT_CHARS)
  .describe("One short, durable fact about the user, in a sentence.");
const category = z.enum(FACT_CATEGORIES);
const confidence = z.number().min(0).max(1);

/**
 * The memory tools of `memory.mode: tool`: the agent looks facts up and keeps
 * them itself instead of a background update after each run. They act on the run's user (from the
 * admitted run, never from the model) through the store's compare-and-set write, so they never
 * lose a concurrent change; a result is plain text the model reads.
 */
export function createMemoryTools(options: MemoryToolsOptions): StructuredToolInterface[] {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const newFactId = options.newFactId ?? defaultFactId;

  const search = tool(
    async (input, config) => {
      const { userId } = threadScopeOf(config);
      const facts = rankFacts((await store.read(userId)).facts, input.query);
      const shown = facts.slice(0, input.limit ?? DEFAULT_SEARCH_LIMIT);
      if (shown.length === 0) {
        return input.query.trim() === "" ? "No memories yet." : "No memory matches that query.";
      }
      return shown.map(describeFact).join("\n");
    },
    {
      name: "memory_search",
      description:
        "Search what you remember about the user (facts kept from earlier conversations). An empty query lists the most confident facts. Each line: id [category] fact (confidence).",
      schema: z.object({
        query: z.string().describe("Words to look for; empty for the most confident facts."),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).nullish(),
      }),
    },
  );

  const add = tool(
    async (input, config) => {
      const { userId, threadId } = threadScopeOf(config);
      let outcome = "";
      await store.update(userId, (memory) => {
        const added = addFact(
          memory,
          {
            content: input.content,
            category: input.category ?? "context",
            confidence: input.confidence ?? 0.9,
            source: threadId,
          },
          options.budget,
          { id: newFactId(), now: now() },
        );
        if (added.outcome === "duplicate") {
          outcome = `Already remembered as ${added.existing.id}.`;
          return null;
        }
        if (added.outcome === "no_room") {
          outcome = `Not remembered: memory is full (${options.budget.maxFacts} facts) of more confident or more recent ones.`;
          return null;
        }
        outcome = `Remembered as ${added.fact.id}.`;
        return added.memory;
      });
      return outcome;
    },
    {
      name: "memory_add",
      description:
        "Remember a durable fact about the user (a preference, their work, a goal, a correction) for future conversations. Not for things that only matter in this conversation.",
      schema: z.object({
        content: factContent,
        category: category.nullish(),
        confidence: confidence.nullish().describe("How sure you are, 0..1 (default 0.9)."),
      }),
    },
  );

  const update = tool(
    async (input, config) => {
      const { userId } = threadScopeOf(config);
      let outcome = `Error: no memory with id ${input.id}. Use memory_search to find ids.`;
      await store.update(userId, (memory) => {
        const patched = patchFact(memory, input.id, input, now());
        if (patched.outcome === "not_found") return null;
        if (patched.outcome === "duplicate") {
          outcome = `Error: ${patched.existing.id} already says that.`;
          return null;
        }
        outcome = `Updated ${input.id}.`;
        return patched.memory;
      });
      return outcome;
    },
    {
      name: "memory_update",
      description: "Correct a remembered fact (by id from memory_search).",
      schema: z.object({
        id: z.string().min(1),
        content: factContent.nullish(),
        category: category.nullish(),
        confidence: confidence.nullish(),
      }),
    },
  );

  const remove = tool(
    async (input, config) => {
      const { userId } = threadScopeOf(config);
      let outcome = `Error: no memory with id ${input.id}. Use memory_search to find ids.`;
      await store.update(userId, (memory) => {
        const next = removeFact(memory, input.id);
        if (next !== null) outcome = `Forgot ${input.id}.`;
        return next;
      });
      return outcome;
    },
    {
      name: "memory_delete",
      description: "Forget a remembered fact (by id from memory_search), e.g. when the user asks.",
      schema: z.object({ id: z.string().min(1) }),
    },
  );

  return [search, add, update, remove];
}

/**
 * Facts matching the query's words (case-insensitive), most matched words first, then most
 * confident, then newest. An empty query ranks every fact.
 */
export function rankFacts(facts: readonly MemoryFact[], query: string): MemoryFact[] {
  const words = normalizeFact(query).split(" ").filter(Boolean);
  const scored = facts
    .map((fact) => {
      const text = normalizeFact(fact.content);
      return { fact, hits: words.filter((word) => text.includes(word)).length };
    })
    .filter((entry) => words.length === 0 || entry.hits > 0);
  scored.sort(
    (a, b) =>
      b.hits - a.hits ||
      b.fact.confidence - a.fact.confidence ||
      b.fact.createdAt.localeCompare(a.fact.createdAt),
  );
  return scored.map((entry) => entry.fact);
}

function describeFact(fact: MemoryFact): string {
  return `${fact.id} [${fact.category}] ${fact.content} (${fact.confidence.toFixed(2)})`;
}
