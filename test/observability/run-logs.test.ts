/**
 * Run-scoped JSON logs: what a run logs — the runtime's own lines and the lead agent's — is one
 * JSON object per line carrying the run's, thread's and user's ids (child loggers bound when the
 * run starts, handed to the agent factory).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startTracedFawn, type TracedFawn } from "./helpers/traced-fawn.js";

let traced: TracedFawn | undefined;

afterEach(async () => {
  await traced?.close();
  traced = undefined;
});

describe("run logs", () => {
  it("bind the run, thread and user ids on the lines the run's agent logs", async () => {
    traced = await startTracedFawn({});
    // An unknown model name: the lead agent's factory warns and uses the default model.
    const { runId, threadId } = await traced.runResearch("logged-thread", {
      userId: "user-7",
      configurable: { model_name: "no-such-model" },
    });
    const lines = traced.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const warning = lines.find(
      (line) => line.msg === "unknown model requested; using the default model",
    );
    expect(warning).toMatchObject({ runId, threadId, userId: "user-7", level: 40 });
    // Every line that names the run names its thread and user too.
    const runLines = lines.filter((line) => line.runId === runId);
    expect(runLines.length).toBeGreaterThan(0);
    for (const line of runLines) expect(line).toMatchObject({ threadId, userId: "user-7" });
  });
});
