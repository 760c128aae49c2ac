import { describe, expect, it } from "vitest";
import { priceList, runCost, tokenCost } from "./model-pricing.js";

const run = (overrides: Partial<Parameters<typeof runCost>[1]> = {}) => ({
  model_name: "gpt",
  total_input_tokens: 1_000_000,
  total_output_tokens: 500_000,
  total_tokens: 1_500_000,
  token_usage_by_model: {},
  ...overrides,
});

describe("model pricing", () => {
  it("prices a run by model name or provider id, cache hits at their own price", () => {
    const prices = priceList([
      {
        name: "gpt",
        model: "GPT-5",
        pricing: { input_per_million: 2, output_per_million: 8, input_cache_hit_per_million: 0.5 },
      },
    ]);
    expect(prices.currency).toBe("USD");
    expect(runCost(prices, run())).toBe(2 + 4);
    const perModel = run({
      token_usage_by_model: {
        "gpt-5": {
          input_tokens: 1_000_000,
          output_tokens: 0,
          total_tokens: 1_000_000,
          cache_read_tokens: 400_000,
        },
      },
    });
    expect(runCost(prices, perModel)).toBeCloseTo(0.6 * 2 + 0.4 * 0.5, 9);
    // A dated provider id extends the configured one.
    const dated = run({
      token_usage_by_model: {
        "gpt-5-2026-01-01": { input_tokens: 1_000_000, output_tokens: 0, total_tokens: 1_000_000 },
      },
    });
    expect(runCost(prices, dated)).toBe(2);
    expect(runCost(prices, run({ model_name: "gpt5" }))).toBeNull();
    expect(
      tokenCost(
        { input_tokens: 10, output_tokens: 0, total_tokens: 10, cache_read_tokens: 99 },
        {
          inputPerMillion: 1,
          outputPerMillion: 1,
          cacheHitPerMillion: 0,
          currency: "USD",
        },
      ),
    ).toBe(0);
  });

  it("reports no spend for unpriced models, malformed entries or mixed currencies", () => {
    expect(runCost(priceList([{ name: "gpt", model: "g" }]), run())).toBeNull();
    const malformed = priceList([
      { name: "gpt", model: "g", pricing: { input_per_million: "lots", output_per_million: 1 } },
    ]);
    expect(malformed.currency).toBeNull();
    const mixed = priceList([
      { name: "a", model: "a", pricing: { currency: "USD", input_per_million: 1 } },
      { name: "b", model: "b", pricing: { currency: "CNY", input_per_million: 1 } },
    ]);
    expect(mixed).toEqual({ byModel: new Map(), currency: null });
  });
});
