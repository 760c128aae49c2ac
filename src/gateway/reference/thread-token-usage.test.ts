import { describe, expect, it } from "vitest";
import { newRunRow } from "../../ports/run-row.js";
import type { RunRow } from "../../ports/run-types.js";
import {
  aggregateRunTokens,
  contextUsage,
  countedStatuses,
  estimateMessageTokens,
} from "./thread-token-usage.js";

function run(fields: Partial<RunRow>): RunRow {
  return newRunRow(
    { run_id: `r-${Math.random()}`, thread_id: "t", created_at: "2030-01-01T00:00:00.000Z" },
    fields,
  );
}

describe("thread token usage", () => {
  it("sums totals and callers, counting each model once per run", () => {
    const usage = aggregateRunTokens("t", [
      run({
        total_tokens: 30,
        total_input_tokens: 20,
        total_output_tokens: 10,
        lead_agent_tokens: 25,
        middleware_tokens: 5,
        token_usage_by_model: {
          big: { input_tokens: 15, output_tokens: 10, total_tokens: 25 },
          small: { input_tokens: 5, output_tokens: 0, total_tokens: 5 },
        },
      }),
      // Written without per-model figures: counted under its model name.
      run({ total_tokens: 7, total_input_tokens: 4, total_output_tokens: 3, model_name: "big" }),
      run({ total_tokens: 0 }),
    ]);
    expect(usage).toEqual({
      thread_id: "t",
      total_tokens: 37,
      total_input_tokens: 24,
      total_output_tokens: 13,
      total_runs: 3,
      by_model: { big: { tokens: 32, runs: 2 }, small: { tokens: 5, runs: 1 } },
      by_caller: { lead_agent: 25, subagent: 0, middleware: 5 },
    });
  });

  it("counts finished runs, and running ones only when asked", () => {
    expect([...countedStatuses(false)].sort()).toEqual([
      "error",
      "interrupted",
      "success",
      "timeout",
    ]);
    expect(countedStatuses(true).has("running")).toBe(true);
    expect(countedStatuses(true).has("pending")).toBe(false);
  });

  it("estimates message tokens from text parts and tool calls", () => {
    expect(estimateMessageTokens(undefined)).toBe(0);
    expect(estimateMessageTokens([])).toBe(0);
    const messages = [
      { type: "human", content: "x".repeat(40) },
      { type: "ai", content: [{ type: "text", text: "y".repeat(8) }, { type: "image_url" }] },
    ];
    expect(estimateMessageTokens(messages)).toBe(12 + 2 * 3);
    const withCall = [{ type: "ai", content: "", tool_calls: [{ name: "ls", args: {} }] }];
    expect(estimateMessageTokens(withCall)).toBeGreaterThan(3);
  });

  it("gives a percentage only with a context window", () => {
    expect(contextUsage(250, 1000)).toEqual({
      token_count: 250,
      max_context_tokens: 1000,
      percentage: 25,
    });
    expect(contextUsage(1, 3)).toMatchObject({ percentage: 33.3 });
    expect(contextUsage(5, null)).toEqual({
      token_count: 5,
      max_context_tokens: null,
      percentage: null,
    });
  });
});
