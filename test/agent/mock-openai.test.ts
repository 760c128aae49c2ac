/**
 * The mock OpenAI server driven by the REAL `@langchain/openai` client: streamed text and tool
 * calls, non-streamed answers, usage, `/v1/models`, key checking, hang-until-disconnect, and a
 * config.yaml entry using the reference class path pointed at it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AIMessage,
  type AIMessageChunk,
  HumanMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runMockOpenAICommand } from "../../src/agent/mock-openai/command.js";
import {
  CALLER_HEADER,
  type MockOpenAIServer,
  startMockOpenAI,
} from "../../src/agent/mock-openai/server.js";
import { createChatModel } from "../../src/agent/models/create-chat-model.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { within } from "../helpers/latch.js";

const KEY = "sk-mock-secret-41d2";
const script = parseScript(
  [
    {
      match: "weather",
      turns: [
        {
          reasoning: "Need the forecast first.",
          content: "Let me check the forecast.",
          tool_calls: [{ name: "get_weather", args: { city: "Paris", days: 3 } }],
        },
        { content: "Sunny all week in Paris." },
      ],
    },
    { match: "^hang", hang: true },
    { turns: [{ content: "A scripted answer in several words." }] },
  ],
  "inline",
);

const getWeather = tool(async () => "sunny", {
  name: "get_weather",
  description: "Forecast for a city",
  schema: z.object({ city: z.string(), days: z.number() }),
});

let server: MockOpenAIServer;

beforeAll(async () => {
  server = await startMockOpenAI({ script, apiKey: KEY });
});

afterAll(async () => {
  await server.close();
});

function client(extra: Partial<ConstructorParameters<typeof ChatOpenAI>[0]> = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-test",
    apiKey: KEY,
    configuration: { baseURL: server.url },
    maxRetries: 0,
    ...extra,
  });
}

async function streamAll(
  model: ReturnType<ChatOpenAI["bindTools"]> | ChatOpenAI,
  messages: Parameters<ChatOpenAI["invoke"]>[0],
): Promise<{ chunks: AIMessageChunk[]; whole: AIMessageChunk }> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await model.stream(messages)) chunks.push(chunk);
  const [first, ...rest] = chunks;
  if (!first) throw new Error("no chunks");
  return { chunks, whole: rest.reduce((acc, chunk) => acc.concat(chunk), first) };
}

describe("mock OpenAI server with the real ChatOpenAI client", () => {
  it("streams text in several chunks and a tool call with usage", async () => {
    const { chunks, whole } = await streamAll(client().bindTools([getWeather]), [
      new HumanMessage("What's the weather in Paris?"),
    ]);
    expect(chunks.filter((c) => typeof c.content === "string" && c.content).length).toBeGreaterThan(
      1,
    );
    expect(whole.content).toBe("Let me check the forecast.");
    expect(whole.additional_kwargs.reasoning_content).toBe("Need the forecast first.");
    expect(whole.tool_calls).toEqual([
      expect.objectContaining({ name: "get_weather", args: { city: "Paris", days: 3 } }),
    ]);
    expect(whole.usage_metadata?.total_tokens).toBeGreaterThan(0);
  });

  it("the turn after the tool result, streamed and not streamed", async () => {
    const first = await client()
      .bindTools([getWeather])
      .invoke([new HumanMessage("weather?")]);
    const history = [
      new HumanMessage("weather?"),
      new AIMessage({ content: first.content, tool_calls: first.tool_calls }),
      new ToolMessage({ content: "sunny", tool_call_id: first.tool_calls?.[0]?.id ?? "" }),
    ];
    expect((await client().invoke(history)).content).toBe("Sunny all week in Paris.");
    expect((await streamAll(client(), history)).whole.content).toBe("Sunny all week in Paris.");
  });

  it("non-streaming answers carry tool calls and usage", async () => {
    const reply = await client()
      .bindTools([getWeather])
      .invoke([new HumanMessage("weather")]);
    expect(reply.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
    expect(reply.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });

  it("a middleware call (caller header) consumes no turn", async () => {
    const reply = await client().invoke([new HumanMessage("weather in Lisbon")], {
      options: { headers: { [CALLER_HEADER]: "middleware:title" } },
    });
    expect(reply.content).toBe("weather in Lisbon");
  });

  it("lists models and refuses a wrong key without echoing it", async () => {
    const models = await fetch(`${server.url}/models`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(((await models.json()) as { data: Array<{ id: string }> }).data[0]?.id).toBe(
      "fawn-scripted",
    );
    const error = await client({ apiKey: "sk-wrong-key-value" })
      .invoke("hello")
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/401/);
    expect(String(error)).not.toContain("sk-wrong-key-value");
  });

  it("bad requests get an OpenAI-style 400", async () => {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "x", messages: [] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /Invalid request/,
    );
  });

  it("a hanging rule holds the request until the client aborts", async () => {
    const controller = new AbortController();
    const call = client().invoke([new HumanMessage("hang please")], {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(within(call, 5000, "abort did not end the request")).rejects.toThrow();
  });

  it("a reference config.yaml entry reaches it through the model factory", async () => {
    const { config } = parseConfig(
      {
        models: [
          {
            name: "mock",
            use: "langchain_openai:ChatOpenAI",
            model: "gpt-test",
            api_key: "$MOCK_KEY",
            base_url: server.url,
            max_retries: 0,
          },
        ],
      },
      { env: { MOCK_KEY: KEY } },
    );
    const entry = config.models[0];
    if (!entry) throw new Error("no entry");
    const model = await createChatModel(entry, { env: {} });
    const { whole } = await streamAll(model as ChatOpenAI, [new HumanMessage("anything")]);
    expect(whole.content).toBe("A scripted answer in several words.");
  });
});

describe("runMockOpenAICommand", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-mock-cmd-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("serves a script file until its signal aborts", async () => {
    await writeFile(join(dir, "s.yaml"), "- turns:\n    - content: from the command\n");
    const controller = new AbortController();
    const lines: string[] = [];
    const done = runMockOpenAICommand({
      script: "s.yaml",
      cwd: dir,
      port: 0,
      signal: controller.signal,
      print: (line) => lines.push(line),
    });
    await within(
      (async () => {
        while (!lines[0]) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      5000,
      "command did not start",
    );
    const url = /at (http:\S+)/.exec(lines[0] ?? "")?.[1] ?? "";
    const reply = await new ChatOpenAI({
      model: "m",
      apiKey: "any",
      configuration: { baseURL: url },
    }).invoke("hi");
    expect(reply.content).toBe("from the command");
    controller.abort();
    await within(done, 5000, "command did not stop");
    expect(lines.at(-1)).toMatch(/stopped/);
  });
});
