/**
 * A custom agent's model defaults reach the model client: its `model` when the run names none,
 * its `model_settings` (temperature, max_tokens) always, and the run's own `model_name` still
 * wins over the agent's (the reference's order).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definitionFromCreate } from "../../src/agent/custom-agents/agent-definition.js";
import { CustomAgentStore } from "../../src/agent/custom-agents/custom-agent-store.js";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";

/** Records the invocation parameters of each model call (title and memory are off). */
class InvocationParams extends BaseCallbackHandler {
  name = "invocation_params";
  readonly calls: Array<Record<string, unknown>> = [];
  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    _runId: string,
    _parent?: string,
    extra?: Record<string, unknown>,
  ): void {
    const params = extra?.invocation_params;
    this.calls.push(typeof params === "object" && params !== null ? { ...params } : {});
  }
}

let home = "";
let mock: MockOpenAIServer;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-agent-model-"));
  const script = join(home, "script.json");
  await writeFile(script, JSON.stringify([{ turns: [{ content: "Hi." }] }]));
  mock = await startMockOpenAI({ script });
});
afterAll(async () => {
  await mock?.close();
  await rm(home, { recursive: true, force: true });
});

describe("a custom agent's model settings", () => {
  it("applies the agent's model and sampling overrides; the run's model_name wins", async () => {
    const entry = (name: string, model: string) => ({
      name,
      use: "openai",
      model,
      api_key: "k",
      base_url: mock.url,
      max_retries: 0,
      temperature: 1,
    });
    const { config } = parseConfig(
      {
        models: [entry("first", "gpt-first"), entry("second", "gpt-second")],
        memory: { enabled: false },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    const documents = new MemoryDocumentStore();
    await new CustomAgentStore(documents).create(
      "alice",
      definitionFromCreate("tuned", {
        name: "tuned",
        model: "second",
        model_settings: { temperature: 0.25, max_tokens: 321 },
      }),
    );
    const factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      documents,
      mcp: false,
      logger: createLogger({ level: "silent" }),
    });
    let threads = 0;
    const run = async (context: Record<string, unknown>) => {
      const configurable = { thread_id: `t-${++threads}`, user_id: "alice" };
      const agent = await factory({ config: { configurable, context } });
      const params = new InvocationParams();
      const stream = await agent.stream(
        { messages: [new HumanMessage("hello")] },
        { configurable, context, callbacks: [params], streamMode: "values" },
      );
      for await (const _ of stream) {
        // drain
      }
      return params.calls[0] ?? {};
    };

    expect(await run({ agent_name: "tuned" })).toMatchObject({
      model: "gpt-second",
      temperature: 0.25,
      max_tokens: 321,
    });
    expect(await run({ agent_name: "tuned", model_name: "first" })).toMatchObject({
      model: "gpt-first",
      temperature: 0.25,
    });
    expect(await run({})).toMatchObject({ model: "gpt-first", temperature: 1 });
    await expect(run({ agent_name: "nobody" })).rejects.toThrow("Custom agent 'nobody' not found");
    await expect(run({ agent_name: "bad name" })).rejects.toThrow("Invalid agent name");
  });
});
