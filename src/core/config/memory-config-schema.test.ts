import { describe, expect, it } from "vitest";
import { memoryBackendNotes, memoryConfigSchema } from "./memory-config-schema.js";

describe("memory config", () => {
  it("reads the reference's backend_config knobs; a top-level key wins", () => {
    const config = memoryConfigSchema.parse({
      max_facts: 50,
      backend_config: { max_facts: 10, debounce_seconds: 5, max_injection_tokens: 900 },
    });
    expect(config).toMatchObject({
      manager_class: "deermem",
      max_facts: 50,
      debounce_seconds: 5,
      max_injection_tokens: 900,
      fact_confidence_threshold: 0.7,
    });
  });

  it("noop turns memory off; an unported backend is an error saying what to use", () => {
    expect(memoryConfigSchema.parse({ manager_class: "noop" }).enabled).toBe(false);
    const result = memoryConfigSchema.safeParse({ manager_class: "mem0" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('use "deermem"');
  });

  it("accepts DeerMem keys with no Fawn meaning and names them, without their values", () => {
    const config = memoryConfigSchema.parse({
      backend_config: { storage_path: "/x", model: { api_key: "sk-secret" } },
    });
    const notes = memoryBackendNotes(config);
    expect(notes).toEqual([
      expect.stringContaining("memory.backend_config.storage_path is ignored"),
      expect.stringContaining("memory.backend_config.model is ignored: set memory.model_name"),
    ]);
    expect(notes.join(" ")).not.toContain("sk-secret");
  });

  it("reports a bad honoured backend value", () => {
    expect(memoryConfigSchema.safeParse({ backend_config: { max_facts: 0 } }).success).toBe(false);
  });
});

describe("the reference's memory block", () => {
  it("loads as is: every DeerMem backend_config key is known", () => {
    const reference = {
      enabled: true,
      injection_enabled: true,
      shutdown_flush_timeout_seconds: 30.0,
      manager_class: "deermem",
      mode: "middleware",
      backend_config: {
        storage_path: "",
        storage_class: "file",
        strict_user_scope: false,
        manifest_filename: "memory.json",
        file_lock_timeout_seconds: 10,
        retrieval_adapter: "fts5",
        debounce_seconds: 30,
        queue_max_depth: 1000,
        model: {},
        max_facts: 100,
        fact_confidence_threshold: 0.7,
        fact_eviction_policy: "confidence",
        fact_eviction_shadow_enabled: false,
        eviction_confidence_weight: 0.65,
        eviction_confirmation_weight: 0.25,
        eviction_access_weight: 0.1,
        eviction_confirmation_half_life_days: 90,
        eviction_access_half_life_days: 30,
        eviction_correction_reserved_fraction: 0.1,
        eviction_correction_reserved_max: 10,
        eviction_audit_max_entries: 200,
        max_injection_tokens: 2000,
        token_counting: "char",
        guaranteed_categories: ["correction"],
        guaranteed_token_budget: 500,
        staleness_review_enabled: false,
        staleness_age_days: 90,
        staleness_min_candidates: 5,
        staleness_max_removals_per_cycle: 10,
        staleness_protected_categories: [],
        staleness_max_lifetime_multiplier: 3,
        staleness_max_extension_days: 365,
        consolidation_enabled: false,
        consolidation_min_facts: 10,
        consolidation_max_groups_per_cycle: 3,
        consolidation_max_sources: 5,
      },
    };
    const result = memoryConfigSchema.safeParse(reference);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });
});
