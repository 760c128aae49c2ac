import { describe, expect, it } from "vitest";
import { FawnMetrics } from "./fawn-metrics.js";

describe("FawnMetrics", () => {
  it("keeps two runtimes' registries apart and counts failed and recovered runs", async () => {
    const a = new FawnMetrics({ active: () => 2, pending: () => 1 });
    const b = new FawnMetrics();
    a.runAdmitted("r1", "lead_agent", 3);
    a.runStarted("r1", "lead_agent");
    a.firstEvent("r1");
    a.runEnded("r1", "lead_agent", "error");
    a.runsRecovered("orphaned", 2);
    a.tokenUsage({ m: { input_tokens: 5, output_tokens: 0, total_tokens: 5 } });
    const text = await a.render();
    expect(text).toContain('fawn_runs_finished_total{graph="lead_agent",status="error"} 1');
    expect(text).toContain('fawn_runs_recovered_total{kind="orphaned"} 2');
    expect(text).toContain('fawn_tokens_total{model="m",kind="input"} 5');
    expect(text).not.toContain('kind="output"');
    expect(text).toContain("fawn_runs_active 2");
    expect(text).toContain("fawn_runs_pending 1");
    expect(text).toContain("fawn_run_first_event_seconds_count 1");
    expect(text).not.toContain("r1");
    const other = await b.render();
    expect(other).not.toContain('status="error"');
    expect(other).toContain("fawn_runs_active 0");
  });
});
