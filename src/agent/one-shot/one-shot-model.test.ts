import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelConfig } from "../../core/config/schema.js";
import { OneShotModel } from "./one-shot-model.js";

/** An OpenAI-compatible address that accepts requests and never answers them. */
let silent: Server;
let silentUrl = "";

beforeAll(async () => {
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  silentUrl = `http://127.0.0.1:${address.port}/v1`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const entry = (fields: Partial<ModelConfig>): ModelConfig => ({
  name: "m",
  use: "openai",
  model: "gpt-test",
  api_key: "sk-test",
  max_retries: 0,
  supports_thinking: false,
  supports_reasoning_effort: false,
  supports_vision: false,
  ...fields,
});

describe("OneShotModel", () => {
  it("selects configured models by name, the default for none, nothing for unknown names", () => {
    const first = entry({ name: "first" });
    const oneShot = new OneShotModel({ models: [first, entry({ name: "second" })] });
    expect(oneShot.modelFor(null)).toBe(first);
    expect(oneShot.modelFor("second")?.name).toBe("second");
    expect(oneShot.modelFor("nope")).toBeNull();
    expect(new OneShotModel({ models: [] }).modelFor(undefined)?.name).toBe("demo");
  });

  it("gives up on a model that does not answer in time, as model_unavailable", async () => {
    const model = entry({ base_url: silentUrl });
    const oneShot = new OneShotModel({ models: [model] }, { timeoutMs: 200 });
    const asked = oneShot.ask({ model, caller: "middleware:test", system: "s", user: "u" });
    await expect(asked).rejects.toMatchObject({
      code: "model_unavailable",
      status: 503,
      message: expect.stringMatching(/"m" did not answer within 0.2 s/),
    });
  });

  it("stops when the caller's signal aborts", async () => {
    const model = entry({ base_url: silentUrl });
    const oneShot = new OneShotModel({ models: [model] });
    const gone = new AbortController();
    const asked = oneShot.ask({
      model,
      caller: "middleware:test",
      system: "s",
      user: "u",
      signal: gone.signal,
    });
    gone.abort(new Error("client left"));
    await expect(asked).rejects.toMatchObject({ code: "model_unavailable" });
  });

  it("answers from the scripted demo model without a key", async () => {
    const oneShot = new OneShotModel({ models: [] });
    const demo = oneShot.modelFor(null);
    if (!demo) throw new Error("no demo model");
    const reply = await oneShot.ask({
      model: demo,
      caller: "middleware:suggestions",
      system: "s",
      user: "u",
    });
    expect(JSON.parse(reply)).toEqual(expect.arrayContaining([expect.any(String)]));
  });
});
