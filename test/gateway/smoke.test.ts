import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let h: GatewayHarness;
beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(async () => {
  await h.close();
});

describe("smoke", () => {
  it("streams a run", async () => {
    const thread = await h.client.threads.create();
    const parts = [];
    for await (const part of h.client.runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "hi" }] },
      streamMode: ["values", "messages-tuple", "updates", "custom"],
    }))
      parts.push(part);
    console.log(JSON.stringify(parts, null, 1).slice(0, 3000));
    const state = await h.client.threads.getState(thread.thread_id);
    console.log(JSON.stringify(state).slice(0, 1500));
    const hist = await h.client.threads.getHistory(thread.thread_id);
    console.log(hist.length, JSON.stringify(hist[1]).slice(0, 500));
    expect(parts.at(-1)?.event).toBe("end");
  });
});
