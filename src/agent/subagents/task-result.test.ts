import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { resultBrief, taskResultKwargs, taskResultText } from "./task-result.js";

describe("task result contract", () => {
  it("words each ending the way the lead agent reads it", () => {
    expect(taskResultText({ status: "completed", result: "42", usage: null })).toBe(
      "Task Succeeded. Result: 42",
    );
    expect(
      taskResultText({
        status: "completed",
        result: "half",
        stopReason: "turn_capped",
        usage: null,
      }),
    ).toBe("Task Succeeded (capped: turn budget). Result: half");
    expect(taskResultText({ status: "failed", error: "boom", usage: null })).toBe(
      "Task failed. Error: boom",
    );
    expect(
      taskResultText({
        status: "failed",
        error: "Reached max_turns=3",
        stopReason: "turn_capped",
        usage: null,
      }),
    ).toBe("Task failed (capped: turn budget). Error: Reached max_turns=3");
    expect(
      taskResultText({ status: "cancelled", error: "Task cancelled by user.", usage: null }),
    ).toBe("Task cancelled by user.");
    expect(taskResultText({ status: "timed_out", error: "after 5 seconds", usage: null })).toBe(
      "Task timed out. Error: after 5 seconds",
    );
  });

  it("carries a bounded brief and the full result's digest, and no empty fields", () => {
    const result = `${"h".repeat(3000)}${"t".repeat(3000)}`;
    const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };
    const kwargs = taskResultKwargs({ status: "completed", result, usage }, "gpt");
    expect(kwargs).toEqual({
      subagent_status: "completed",
      subagent_result_brief: resultBrief(result),
      subagent_result_sha256: createHash("sha256").update(result).digest("hex"),
      subagent_model_name: "gpt",
      subagent_token_usage: usage,
    });
    const brief = String(kwargs.subagent_result_brief);
    expect(brief).toHaveLength(2000);
    expect(brief.startsWith("h".repeat(1333))).toBe(true);
    expect(brief.endsWith("t".repeat(2000 - 1333 - 5))).toBe(true);
    expect(taskResultKwargs({ status: "failed", error: "  ", usage: null }, null)).toEqual({
      subagent_status: "failed",
    });
  });
});
