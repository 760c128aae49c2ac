import type { Context } from "hono";
import { Hono } from "hono";
import { addFact, patchFact, removeFact } from "../../agent/memory/fact-edits.js";
import { evictFacts, factBudgetOf } from "../../agent/memory/fact-eviction.js";
import { memoryQueueFor } from "../../agent/memory/memory-update-queue.js";
import { memoryBackendNotes } from "../../core/config/memory-config-schema.js";
import type { MemoryConfig } from "../../core/config/schema.js";
import { ConflictError, NotFoundError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import {
  factCreateSchema,
  factIdOf,
  factPatchSchema,
  parseMemoryImport,
} from "./memory-requests.js";

/**
 * The reference's memory API, for the caller's own memory only: `GET/DELETE /memory`,
 * `POST /memory/reload`, `GET /memory/facts` (Fawn's), `POST /memory/facts`,
 * `PATCH/DELETE /memory/facts/{id}`, `GET /memory/export`, `POST /memory/import`,
 * `GET /memory/config`, `GET /memory/status`. Every change answers the whole memory document;
 * a bad request changes nothing.
 */
export function memoryRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { home } = s.config;
  const config = s.config.memory;
  const store = s.memory;
  const budget = factBudgetOf(config);
  const owner = (c: Context<GatewayEnv>) => c.get("principal").userId;

  app.get("/memory", async (c) => c.json(await store.read(owner(c))));
  // The store has no cache to refresh: a reload is a fresh read from the database.
  app.post("/memory/reload", async (c) => c.json(await store.read(owner(c))));
  app.get("/memory/export", async (c) => c.json(await store.read(owner(c))));

  app.delete("/memory", async (c) => {
    const userId = owner(c);
    // Conversations still waiting here are dropped; other processes' ones see `forgottenAt`.
    memoryQueueFor(home, s.logger).forgetUser(userId);
    const cleared = await store.clear(userId);
    s.logger.info({ userId }, "memory forgotten");
    return c.json(cleared);
  });

  app.get("/memory/facts", async (c) => c.json({ facts: (await store.read(owner(c))).facts }));

  app.post("/memory/facts", async (c) => {
    const request = parseWith(factCreateSchema, await readJsonBody(c), "body");
    let refusal: ConflictError | null = null;
    const memory = await store.update(owner(c), (current) => {
      refusal = null;
      const added = addFact(current, { ...request, source: "manual" }, budget, {
        now: new Date(),
      });
      if (added.outcome === "added") return added.memory;
      refusal = new ConflictError(
        added.outcome === "duplicate"
          ? "A fact with the same content already exists."
          : "Fact was not stored because the configured memory.max_facts capacity policy evicted it",
      );
      return null;
    });
    if (refusal) throw refusal;
    return c.json(memory);
  });

  app.patch("/memory/facts/:id", async (c) => {
    const id = factIdOf(c.req.param("id"));
    const patch = parseWith(factPatchSchema, await readJsonBody(c, { optional: true }), "body");
    if (id === null) throw factNotFound(c.req.param("id"));
    let refusal: NotFoundError | ConflictError | null = null;
    const memory = await store.update(owner(c), (current) => {
      refusal = null;
      const patched = patchFact(current, id, patch, new Date());
      if (patched.outcome === "updated") return patched.memory;
      refusal =
        patched.outcome === "not_found"
          ? factNotFound(id)
          : new ConflictError("A fact with the same content already exists.");
      return null;
    });
    if (refusal) throw refusal;
    return c.json(memory);
  });

  app.delete("/memory/facts/:id", async (c) => {
    const id = factIdOf(c.req.param("id"));
    if (id === null) throw factNotFound(c.req.param("id"));
    let missing = false;
    const memory = await store.update(owner(c), (current) => {
      const next = removeFact(current, id);
      missing = next === null;
      return next;
    });
    if (missing) throw factNotFound(id);
    return c.json(memory);
  });

  app.post("/memory/import", async (c) => {
    const imported = parseMemoryImport(await readJsonBody(c));
    // An import obeys the same budget as every other write.
    const facts = evictFacts(imported.facts, { ...budget, now: new Date() });
    const userId = owner(c);
    const memory = await store.replace(userId, { ...imported, facts });
    s.logger.info({ userId, facts: facts.length }, "memory imported");
    return c.json(memory);
  });

  app.get("/memory/config", (c) => c.json(memoryConfigView(config)));

  app.get("/memory/status", async (c) =>
    c.json({ config: memoryConfigView(config), data: await store.read(owner(c)) }),
  );

  return app;
}

function factNotFound(id: string | undefined): NotFoundError {
  return new NotFoundError(`Memory fact '${(id ?? "").slice(0, 128)}' not found.`);
}

/**
 * `GET /memory/config` in the reference's shape. `backend_config` shows the settings in effect
 * (never the raw block, which may hold a model's API key) and the keys that were ignored.
 */
export function memoryConfigView(config: MemoryConfig): Record<string, unknown> {
  return {
    enabled: config.enabled,
    mode: config.mode,
    injection_enabled: config.injection_enabled,
    shutdown_flush_timeout_seconds: config.shutdown_flush_timeout_seconds,
    manager_class: config.manager_class,
    backend_config: {
      storage: "database",
      debounce_seconds: config.debounce_seconds,
      max_facts: config.max_facts,
      fact_token_budget: config.fact_token_budget ?? null,
      fact_half_life_days: config.fact_half_life_days,
      fact_confidence_threshold: config.fact_confidence_threshold,
      max_injection_tokens: config.max_injection_tokens,
      model_name: config.model_name ?? null,
      ignored: memoryBackendNotes(config),
    },
  };
}
