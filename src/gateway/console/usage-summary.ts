import type { RunRow } from "../../ports/run-types.js";
import { type PriceList, priceOf, roundCost, runCost, tokenCost } from "./model-pricing.js";

export interface UsageDay {
  date: string;
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  runs: number;
  cost: number;
}

export interface UsageByModel {
  tokens: number;
  runs: number;
  cost: number | null;
  input_tokens: number;
  cache_read_tokens: number;
}

/** The reference's `GET /api/console/usage` answer. */
export interface UsageSummary {
  days: UsageDay[];
  by_model: Record<string, UsageByModel>;
  total_tokens: number;
  total_runs: number;
  total_cost: number | null;
  currency: string | null;
}

const DAY_MS = 86_400_000;

function localDate(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The first instant (UTC) of the window's first local day. */
export function windowStart(now: Date, days: number, offsetMinutes: number): Date {
  const today = localDate(now.getTime(), offsetMinutes);
  const startLocal = Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS;
  return new Date(startLocal - offsetMinutes * 60_000);
}

/**
 * Token usage of `runs` by local day (every day of the window present, zero-filled) and by model,
 * with costs when some model has prices. Runs outside the window are ignored.
 */
export function summarizeUsage(
  runs: readonly RunRow[],
  options: { now: Date; days: number; offsetMinutes: number; prices: PriceList },
): UsageSummary {
  const { days, offsetMinutes, prices } = options;
  const start = windowStart(options.now, days, offsetMinutes);
  const buckets = new Map<string, UsageDay>();
  for (let day = 0; day < days; day += 1) {
    const date = localDate(start.getTime() + offsetMinutes * 60_000 + day * DAY_MS, 0);
    buckets.set(date, {
      date,
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      runs: 0,
      cost: 0,
    });
  }
  const byModel: Record<string, UsageByModel> = {};
  const modelEntry = (model: string): UsageByModel => {
    byModel[model] ??= { tokens: 0, runs: 0, cost: null, input_tokens: 0, cache_read_tokens: 0 };
    return byModel[model];
  };
  const priced = prices.currency !== null;
  const summary: UsageSummary = {
    days: [],
    by_model: byModel,
    total_tokens: 0,
    total_runs: 0,
    total_cost: priced ? 0 : null,
    currency: prices.currency,
  };
  for (const run of runs) {
    const created = Date.parse(run.created_at);
    const bucket = Number.isNaN(created)
      ? undefined
      : buckets.get(localDate(created, offsetMinutes));
    if (!bucket) continue;
    bucket.total_tokens += run.total_tokens;
    bucket.input_tokens += run.total_input_tokens;
    bucket.output_tokens += run.total_output_tokens;
    bucket.runs += 1;
    summary.total_tokens += run.total_tokens;
    summary.total_runs += 1;
    const cost = runCost(prices, run);
    if (cost !== null && summary.total_cost !== null) {
      bucket.cost = roundCost(bucket.cost + cost);
      summary.total_cost = roundCost(summary.total_cost + cost);
    }
    const perModel = Object.entries(run.token_usage_by_model);
    for (const [model, usage] of perModel) {
      const entry = modelEntry(model);
      entry.runs += 1;
      entry.tokens += usage.total_tokens;
      entry.input_tokens += usage.input_tokens;
      entry.cache_read_tokens += usage.cache_read_tokens ?? 0;
      const price = priceOf(prices, model);
      if (price) entry.cost = roundCost((entry.cost ?? 0) + tokenCost(usage, price));
    }
    if (perModel.length === 0 && run.model_name && run.total_tokens > 0) {
      const entry = modelEntry(run.model_name);
      entry.runs += 1;
      entry.tokens += run.total_tokens;
      if (cost !== null) entry.cost = roundCost((entry.cost ?? 0) + cost);
    }
  }
  summary.days = [...buckets.values()];
  return summary;
}
