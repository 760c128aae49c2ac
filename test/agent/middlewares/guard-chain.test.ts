import { describe, expect, it } from "vitest";
import {
  buildLeadMiddlewares,
  parseLeadMiddlewareSettings,
} from "../../../src/agent/middlewares/lead-middlewares.js";
import { buildSubagentMiddlewares } from "../../../src/agent/subagents/subagent-middlewares.js";
import { FawnPaths } from "../../../src/core/paths.js";

const ALL_ON = parseLeadMiddlewareSettings({
  sanitization: { input: true },
  token_budget: { enabled: true },
  read_before_write: { enabled: true },
  guardrails: { enabled: true, provider: { use: "allowlist", config: { denied_tools: ["bash"] } } },
});
const paths = new FawnPaths("/tmp/fawn-guard-chain");
const RUN = {
  planMode: false,
  subagentEnabled: false,
  maxConcurrentSubagents: undefined,
  maxTotalSubagents: undefined,
  nonInteractive: false,
};

describe("guard middlewares in the chains", () => {
  it("lead: sanitization outermost, tool results inside the budget, guard before the write gate, safety last before clarification", () => {
    const names = buildLeadMiddlewares({ settings: ALL_ON, paths, run: RUN }).map((m) => m.name);
    expect(names.slice(0, 3)).toEqual([
      "InputSanitizationMiddleware",
      "ToolOutputBudgetMiddleware",
      "ToolResultSanitizationMiddleware",
    ]);
    const at = (name: string) => names.indexOf(name);
    expect(at("GuardrailMiddleware")).toBeLessThan(at("ReadBeforeWriteMiddleware"));
    expect(at("ReadBeforeWriteMiddleware")).toBeLessThan(at("ToolErrorHandlingMiddleware"));
    expect(names.slice(-4)).toEqual([
      "LoopDetectionMiddleware",
      "TokenBudgetMiddleware",
      "SafetyFinishReasonMiddleware",
      "ClarificationMiddleware",
    ]);
  });

  it("defaults: tool-result sanitization and safety stops only", () => {
    const names = buildLeadMiddlewares({
      settings: parseLeadMiddlewareSettings({}),
      paths,
      run: RUN,
    }).map((m) => m.name);
    expect(names).toContain("ToolResultSanitizationMiddleware");
    expect(names).toContain("SafetyFinishReasonMiddleware");
    for (const off of [
      "InputSanitizationMiddleware",
      "TokenBudgetMiddleware",
      "ReadBeforeWriteMiddleware",
      "GuardrailMiddleware",
    ]) {
      expect(names).not.toContain(off);
    }
  });

  it("sub-agents get the guards except the token budget", () => {
    const names = buildSubagentMiddlewares({ settings: ALL_ON, paths }).map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "InputSanitizationMiddleware",
        "ToolResultSanitizationMiddleware",
        "GuardrailMiddleware",
        "ReadBeforeWriteMiddleware",
        "SafetyFinishReasonMiddleware",
      ]),
    );
    expect(names).not.toContain("TokenBudgetMiddleware");
  });
});
