/**
 * Suggestions and input polish through the real `@langchain/openai` client against a local
 * OpenAI-compatible scripted server, and every way a model can be unavailable — refused,
 * unreachable, not buildable, a configured name that is not a model — answering 503
 * `model_unavailable` with a sentence that names the model (never a key).
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { type ReferenceServer, startReferenceServer } from "./helpers/reference-server.js";

let mock: MockOpenAIServer;
let deadUrl = "";

/** A local port nothing listens on (bound, then released). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}/v1`;
}

beforeAll(async () => {
  mock = await startMockOpenAI({
    apiKey: "sk-test-secret",
    script: {
      rules: [],
      middlewareReplies: {
        "middleware:suggestions":
          '<think>Let me think.</think>\n```json\n["How cold is it in winter?", "  What should I pack?  ", 7, ""]\n```',
      },
      source: "inline",
    },
  });
  deadUrl = await closedPortUrl();
});
afterAll(async () => {
  await mock?.close();
});

const openai = (name: string, fields: Record<string, unknown>) => ({
  name,
  use: "langchain_openai:ChatOpenAI",
  model: "gpt-test",
  max_retries: 0,
  ...fields,
});

describe("one-shot model calls", () => {
  let h: ReferenceServer;
  let threadId = "";
  beforeAll(async () => {
    h = await startReferenceServer({
      config: () => ({
        models: [
          openai("good", { api_key: "sk-test-secret", base_url: mock.url }),
          openai("wrong-key", { api_key: "sk-wrong-key", base_url: mock.url }),
          openai("unreachable", { api_key: "sk-test-secret", base_url: deadUrl }),
          // A provider Fawn cannot build (whatever keys the environment holds).
          { name: "unbuildable", use: "no_such_package:NoSuchChat", model: "x" },
        ],
      }),
    });
    threadId = (await h.sdk(null).threads.create()).thread_id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const ask = (model: string) =>
    h.call(null, "POST", `/threads/${threadId}/suggestions`, {
      messages: [{ role: "user", content: "I am going to Oslo." }],
      model_name: model,
    });

  it("parses the model's list out of thinking and a code fence", async () => {
    expect(await ask("good")).toMatchObject({
      status: 200,
      json: { suggestions: ["How cold is it in winter?", "What should I pack?"] },
    });
    const polished = await h.call(null, "POST", "/input-polish", { text: "pack for oslo" });
    expect(polished.json).toEqual({ rewritten_text: "Pack for oslo.", changed: true });
  });

  it("answers 503 model_unavailable naming the model when it cannot answer", async () => {
    for (const [model, hint] of [
      ["wrong-key", /"wrong-key" did not answer \(HTTP 401\)/],
      ["unreachable", /"unreachable" did not answer/],
      ["unbuildable", /"unbuildable" cannot be used\. .*no_such_package/],
    ] as const) {
      const answer = await ask(model);
      expect(answer.status, model).toBe(503);
      expect(answer.json).toMatchObject({ code: "model_unavailable", detail: expect.any(String) });
      const { detail } = answer.json as { detail: string };
      expect(detail).toMatch(hint);
      expect(detail).not.toContain("sk-");
    }
  });
});

describe("a configured model name that is not a model", () => {
  let h: ReferenceServer;
  beforeAll(async () => {
    h = await startReferenceServer({
      config: () => ({
        suggestions: { model_name: "gone" },
        input_polish: { model_name: "gone-too" },
      }),
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("is a 503 that names the key to fix", async () => {
    const thread = await h.sdk(null).threads.create();
    const suggested = await h.call(null, "POST", `/threads/${thread.thread_id}/suggestions`, {
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(suggested).toMatchObject({
      status: 503,
      json: {
        code: "model_unavailable",
        detail: expect.stringContaining("suggestions.model_name"),
      },
    });
    const polished = await h.call(null, "POST", "/input-polish", { text: "hi" });
    expect(polished).toMatchObject({
      status: 503,
      json: {
        code: "model_unavailable",
        detail: expect.stringContaining("input_polish.model_name"),
      },
    });
  });
});
