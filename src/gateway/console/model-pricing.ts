import type { ModelTokenUsage } from "../../ports/run-types.js";

/** One model's prices per million tokens (`models[].pricing` in config.yaml). */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Cache-hit input tokens; absent: billed at the input price. */
  cacheHitPerMillion: number | null;
  currency: string;
}

export interface PriceList {
  /** By the config `name` and the provider `model` id, each also lowercased. */
  byModel: ReadonlyMap<string, ModelPrice>;
  /** One currency for the deployment; null when nothing is priced. */
  currency: string | null;
}

const NO_PRICES: PriceList = { byModel: new Map(), currency: null };

function price(value: unknown): number | null {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : null;
}

/**
 * The price list from the models' `pricing` entries. A malformed entry or one without prices is
 * skipped; models priced in different currencies turn cost reporting off (it would add apples
 * to pears), as in the reference.
 */
export function priceList(
  models: readonly { name: string; model: string; pricing?: Record<string, unknown> | undefined }[],
): PriceList {
  const byModel = new Map<string, ModelPrice>();
  let currency: string | null = null;
  for (const model of models) {
    const raw = model.pricing;
    if (!raw) continue;
    const input = price(raw.input_per_million ?? 0);
    const output = price(raw.output_per_million ?? 0);
    const hit =
      raw.input_cache_hit_per_million == null ? null : price(raw.input_cache_hit_per_million);
    if (input === null || output === null || (input === 0 && output === 0)) continue;
    const modelCurrency =
      String(raw.currency ?? "USD")
        .trim()
        .toUpperCase() || "USD";
    if (currency === null) currency = modelCurrency;
    else if (currency !== modelCurrency) return NO_PRICES;
    const entry: ModelPrice = {
      inputPerMillion: input,
      outputPerMillion: output,
      cacheHitPerMillion: hit,
      currency: modelCurrency,
    };
    for (const key of [model.name, model.model]) {
      if (!byModel.has(key)) byModel.set(key, entry);
      if (!byModel.has(key.toLowerCase())) byModel.set(key.toLowerCase(), entry);
    }
  }
  return { byModel, currency };
}

/**
 * The price of a model as usage records name it: the config name or provider id, exactly or
 * lowercased, else the longest configured one it extends with `-` or `:` (providers report dated
 * ids such as `gpt-4o-2024-08-06` for `gpt-4o`).
 */
export function priceOf(prices: PriceList, model: string | null): ModelPrice | null {
  if (!model) return null;
  const exact = prices.byModel.get(model) ?? prices.byModel.get(model.toLowerCase());
  if (exact) return exact;
  const lower = model.toLowerCase();
  let best: { length: number; price: ModelPrice } | null = null;
  for (const [key, price] of prices.byModel) {
    const extends_ = lower.startsWith(`${key}-`) || lower.startsWith(`${key}:`);
    if (extends_ && key.length > (best?.length ?? 0)) best = { length: key.length, price };
  }
  return best?.price ?? null;
}

/** Cache-aware spend: cache-hit input tokens at the hit price, the rest at the input price. */
export function tokenCost(usage: ModelTokenUsage, price: ModelPrice): number {
  const input = Math.max(usage.input_tokens, 0);
  const cacheRead = Math.min(Math.max(usage.cache_read_tokens ?? 0, 0), input);
  const hitPrice = price.cacheHitPerMillion ?? price.inputPerMillion;
  return (
    ((input - cacheRead) * price.inputPerMillion +
      cacheRead * hitPrice +
      Math.max(usage.output_tokens, 0) * price.outputPerMillion) /
    1_000_000
  );
}

/** What a run's usage cost, by its per-model figures (else its totals at its model); null: unpriced. */
export function runCost(
  prices: PriceList,
  run: {
    model_name: string | null;
    total_input_tokens: number;
    total_output_tokens: number;
    total_tokens: number;
    token_usage_by_model: Record<string, ModelTokenUsage>;
  },
): number | null {
  let cost = 0;
  let priced = false;
  for (const [model, usage] of Object.entries(run.token_usage_by_model)) {
    const modelPrice = priceOf(prices, model);
    if (!modelPrice || (usage.input_tokens === 0 && usage.output_tokens === 0)) continue;
    cost += tokenCost(usage, modelPrice);
    priced = true;
  }
  if (priced) return cost;
  const modelPrice = priceOf(prices, run.model_name);
  if (!modelPrice || (run.total_input_tokens === 0 && run.total_output_tokens === 0)) return null;
  return tokenCost(
    {
      input_tokens: run.total_input_tokens,
      output_tokens: run.total_output_tokens,
      total_tokens: run.total_tokens,
    },
    modelPrice,
  );
}

/** Money figures are kept to six decimals, as the reference reports them. */
export function roundCost(cost: number): number {
  return Math.round(cost * 1_000_000) / 1_000_000;
}
